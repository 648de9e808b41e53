"""Call-graph oracle for Python: jedi's answer to "what does this call resolve to?".

Ground truth for bench/graph_accuracy.py, in the same JSONL shape as ts_calls.mjs. Every
``ast.Call`` whose ``func`` is a ``Name`` or an ``Attribute`` is a call site; its name token
is the Name, or the attribute's name, found from the Attribute's end position
(``end_col_offset - len(attr)`` on ``end_lineno``: a name is one token, so this holds even
when the receiver spans lines). ``jedi.Script.goto(follow_imports=True)`` resolves it, and
every definition inside the project root becomes a target.

One JSON object per line, sorted by path, line, column:
    {"path", "line", "column", "name", "shape", "source",
     "targets": [{"path", "line", "kind", "name", "id"}], "external"?}
then one ``{"kind": "definition", "id", "path", "name", "line", "end_line", "source"}`` per
named definition of the scanned files. ``source`` is the id of the innermost named definition
around the call and a target's ``id`` the id of what it declares (astrag's symbol ids; the
rules are above ``_DEF_NODES``).
path is root-relative with "/", line/column are 1-based, column counted in characters
(``ast`` gives UTF-8 byte offsets; they are converted). A target's line is the line of the
definition's name, kind is jedi's type ("function", "class", "statement", ...), name is the
definition's name; ``"local": true`` marks a parameter or a name bound inside a function
(see ``_is_local``). When goto lands on an assignment or a parameter, what it is bound to is
added too, marked ``"via"`` (see ``_bound_to``). shape is how the callee was reached: "name"
f(), "self" self.f()/cls.f(), "super" super().f(), "member" x.f(). "external"
marks a site whose definitions all lie outside the root (stdlib, site-packages, builtins).

jedi is slow (tens of ms per site), so ``--sample N`` keeps ~N files (sorted, every k-th)
and ``--jobs J`` spreads files over J processes.
"""

from __future__ import annotations

import argparse
import ast
import importlib.machinery
import json
import multiprocessing
import os
import resource
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import jedi
from jedi.inference.compiled.subprocess import functions as _jedi_functions

# infer() on an alias of a callable gives the callable; instances and values are no target.
INFERRED_CALLABLES = {"function", "class"}
SKIP_DIRS = {"node_modules", "dist", "build", ".git", "__pycache__", ".venv", "venv", ".tox"}


@dataclass(frozen=True)
class CallName:
    """The callee name token of one call: 1-based line, 0-based character column."""

    line: int
    col: int
    name: str
    shape: str  # "name" f(), "self" self.f()/cls.f(), "super" super().f(), "member" x.f()
    source: str = ""  # id of the innermost named definition around the call (module: path)


@dataclass(frozen=True)
class Definition:
    """A named definition (def or class) of one module, with its astrag-style id."""

    id: str
    name: str
    line: int  # of the def/class keyword (ast's lineno; decorators come before it)
    end_line: int
    is_class: bool


# Named definitions and their ids (astrag's symbol ids): every `def` and `class`, nested ones
# included, qualified by the definitions around it: `path::Class.method`, `path::outer.inner`,
# `path::Class.method.helper`; a module's id is its path. A qualname defined twice in a module
# gets `#2`, `#3`... in document order, except `@overload` stubs, which share the bare id.
# Lambdas are anonymous: calls inside them come from the definition around them. Decorators,
# default values, annotations and class bases are evaluated in the enclosing scope, so calls
# there come from it too. A name bound inside a definition (a variable, a parameter) is
# `<definition id>.<name>`; `self.x = ...` in a method is the class's `<class id>.x`.
_DEF_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
DefNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _is_overload(node: ast.AST) -> bool:
    for dec in getattr(node, "decorator_list", []):
        name = dec.attr if isinstance(dec, ast.Attribute) else getattr(dec, "id", None)
        if name == "overload":
            return True
    return False


class _Definitions(ast.NodeVisitor):
    """One pass over a module: its definitions, and each call's source id."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.definitions: list[Definition] = []
        self.source_of: dict[int, str] = {}  # id(ast.Call) -> source id
        self._seen: dict[str, int] = {}
        self._stack: list[str] = []  # qualnames (with #k) of the enclosing definitions

    def _id(self, qual: str) -> str:
        return f"{self.rel}::{qual}" if qual else self.rel

    def _current(self) -> str:
        return self._id(self._stack[-1] if self._stack else "")

    def visit_Call(self, node: ast.Call) -> None:
        self.source_of[id(node)] = self._current()
        self.generic_visit(node)

    def _visit_definition(self, node: DefNode) -> None:
        # Evaluated where the definition stands: decorators, defaults, annotations, bases.
        outer: list[ast.AST] = list(node.decorator_list)
        if isinstance(node, ast.ClassDef):
            outer += node.bases + [k.value for k in node.keywords]
            body: list[ast.AST] = list(node.body)
        else:
            a = node.args
            outer += [d for d in a.defaults + a.kw_defaults if d is not None]
            outer += [
                arg.annotation
                for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]
                if arg is not None and arg.annotation is not None
            ]
            if node.returns is not None:
                outer.append(node.returns)
            body = list(node.body)
        for child in outer:
            self.visit(child)
        parent = self._stack[-1] if self._stack else ""
        qual = f"{parent}.{node.name}" if parent else node.name
        if not _is_overload(node):
            n = self._seen.get(qual, 0) + 1
            self._seen[qual] = n
            qual = qual if n == 1 else f"{qual}#{n}"
        self.definitions.append(
            Definition(
                self._id(qual),
                node.name,
                node.lineno,
                node.end_lineno or node.lineno,
                isinstance(node, ast.ClassDef),
            )
        )
        self._stack.append(qual)
        for child in body:
            self.visit(child)
        self._stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _visit_definition


def module_definitions(code: str, rel: str) -> _Definitions:
    table = _Definitions(rel)
    table.visit(ast.parse(code))
    return table


def list_python_files(root: Path) -> list[Path]:
    files: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        files.extend(Path(dirpath) / f for f in filenames if f.endswith(".py"))
    return sorted(files)


def sample_files(files: list[Path], sample: int | None) -> list[Path]:
    """Every k-th file of the sorted list, so the same N gives the same files every run."""
    if not sample or sample >= len(files):
        return files
    step = -(-len(files) // sample)  # ceil: at most `sample` files
    return files[::step]


def byte_col_to_char(line_text: bytes, byte_col: int) -> int:
    return len(line_text[:byte_col].decode("utf-8", errors="replace"))


def call_names(code: str, rel: str = "") -> Iterator[CallName]:
    """Callee name tokens of every Name/Attribute call in the module, with their source ids."""
    tree = ast.parse(code)
    table = _Definitions(rel)
    table.visit(tree)
    lines = code.encode("utf-8").splitlines()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            line, byte_col, name, shape = func.lineno, func.col_offset, func.id, "name"
        elif isinstance(func, ast.Attribute) and func.end_lineno is not None:
            assert func.end_col_offset is not None
            # Attribute names are ASCII-or-not identifiers; their UTF-8 length is what
            # end_col_offset counts in.
            line = func.end_lineno
            byte_col = func.end_col_offset - len(func.attr.encode("utf-8"))
            name = func.attr
            shape = _receiver_shape(func.value)
        else:
            continue
        col = byte_col_to_char(lines[line - 1], byte_col)
        yield CallName(line, col, name, shape, table.source_of.get(id(node), rel))


def _receiver_shape(receiver: ast.expr) -> str:
    if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
        return "self"
    if (
        isinstance(receiver, ast.Call)
        and isinstance(receiver.func, ast.Name)
        and receiver.func.id == "super"
    ):
        return "super"
    return "member"


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


class DefinitionTables:
    """Each module's definitions, parsed once, for giving jedi's targets their ids."""

    def __init__(self) -> None:
        self._tables: dict[str, list[Definition]] = {}

    def get(self, module_path: Path, rel: str) -> list[Definition]:
        if rel not in self._tables:
            try:
                code = module_path.read_text(encoding="utf-8", errors="replace")
                self._tables[rel] = module_definitions(code, rel).definitions
            except (OSError, SyntaxError, ValueError):
                self._tables[rel] = []
        return self._tables[rel]

    def target_id(self, module_path: Path, rel: str, d: jedi.api.classes.Name) -> str:
        """The id of what jedi's name d declares (the rules above ``_DEF_NODES``)."""
        table = self.get(module_path, rel)
        if d.type in ("function", "class"):
            for definition in table:
                if definition.line == d.line and definition.name == d.name:
                    return definition.id
        if d.type == "module":
            return rel
        around = [x for x in table if x.line <= d.line <= x.end_line]  # outermost first
        if not around:
            return f"{rel}::{d.name}"
        owner = around[-1]
        if not owner.is_class and _binds_attribute(d):
            # `self.x = ...` in a method: a field of the nearest class around it.
            classes = [x for x in around if x.is_class]
            if classes:
                owner = classes[-1]
        return f"{owner.id}.{d.name}"


def _binds_attribute(d: jedi.api.classes.Name) -> bool:
    try:
        return d.column is not None and d.get_line_code()[: d.column].rstrip().endswith(".")
    except Exception:  # jedi fails on some synthetic names
        return False


_TABLES = DefinitionTables()


def _targets(definitions: list, root: Path, via: str | None = None) -> tuple[list[dict], bool]:
    """In-root targets of jedi names, and whether any name lay outside the root."""
    targets: list[dict] = []
    external = False
    for d in definitions:
        module_path = d.module_path
        if module_path is None or not _inside(Path(module_path).resolve(), root):
            external = True
            continue
        if d.line is None:
            continue
        resolved = Path(module_path).resolve()
        rel = resolved.relative_to(root).as_posix()
        target = {
            "path": rel,
            "line": d.line,
            "kind": d.type,
            "name": d.name,
            "id": _TABLES.target_id(resolved, rel, d),
        }
        if via:
            target["via"] = via
        if _is_local(d) or d.name == "<lambda>":  # a lambda is anonymous: no graph node
            target["local"] = True
        targets.append(target)
    return targets, external


def _is_local(definition: jedi.api.classes.Name) -> bool:
    """A parameter, or a name bound inside a function (assignment, loop, with, comprehension).

    The graph being scored has no nodes for these by design (its variables are module-level
    or class fields), so graph_accuracy.py reports calls to them separately. jedi's
    ``parent()`` is the enclosing scope: the function for a local, the class for a class
    attribute, the module for a global. ``self.x = ...`` in a method also has the method as
    its scope but binds an attribute, a class field: the name follows a ".".
    """
    if definition.type == "param":
        return True
    if definition.type != "statement" or definition.column is None:
        return False
    try:
        in_function = definition.parent().type == "function"
        before = definition.get_line_code()[: definition.column]
    except Exception:  # jedi fails on some synthetic names; keeping the target is the safe side
        return False
    return in_function and not before.rstrip().endswith(".")


class ScriptCache:
    """One jedi.Script per module, for following aliases into other files."""

    def __init__(self, project: jedi.Project, environment: object, seed: dict) -> None:
        self._project, self._environment, self._scripts = project, environment, dict(seed)

    def get(self, module_path: Path) -> jedi.Script:
        key = str(module_path)
        if key not in self._scripts:
            code = Path(module_path).read_text(encoding="utf-8", errors="replace")
            self._scripts[key] = jedi.Script(
                code, path=key, project=self._project, environment=self._environment
            )
        return self._scripts[key]


def _bound_to(
    definitions: list, script: jedi.Script, call: CallName, scripts: ScriptCache
) -> list[tuple[str, list]]:
    """What the names goto stopped at are bound to, as (via, jedi names) groups.

    goto stops at an assignment (`add = table.add_row; add()` lands on `add = ...`) or a
    parameter (`cls(...)` lands on `cls`); what they hold is an equally right answer. For an
    alias of a plain reference (`a`, `a.b.c`), goto on its last name ("alias"): infer would go
    through decorators (classmethod, lru_cache) to typeshed. Otherwise infer's functions and
    classes ("infer").
    """
    groups: list[tuple[str, list]] = []
    needs_infer = False
    for d in definitions:
        if d.type == "statement" and d.module_path is not None:
            leaf = _alias_reference(d)
            if leaf is not None:
                target_script = scripts.get(d.module_path)
                groups.append(("alias", target_script.goto(*leaf, follow_imports=True)))
                continue
            needs_infer = True
        elif d.type == "param":
            needs_infer = True
    if needs_infer:
        inferred = script.infer(call.line, call.col)
        groups.append(("infer", [d for d in inferred if d.type in INFERRED_CALLABLES]))
    return groups


def _alias_reference(definition: object) -> tuple[int, int] | None:
    """(line, column) of the last name in `x = a.b.c`'s right side, if it is a plain reference.

    Uses jedi's parso tree (``_name.tree_name``): the public API has no assignment's right side.
    """
    tree_name = getattr(getattr(definition, "_name", None), "tree_name", None)
    stmt = tree_name.get_definition() if tree_name is not None else None
    if stmt is None or stmt.type != "expr_stmt":
        return None
    rhs = stmt.get_rhs()
    if rhs.type == "name":
        return rhs.line, rhs.column
    if rhs.type not in ("power", "atom_expr") or rhs.children[0].type != "name":
        return None
    for trailer in rhs.children[1:]:
        if trailer.type != "trailer" or trailer.children[0].value != ".":
            return None  # a call or subscript: not an alias
    last = rhs.get_last_leaf()
    return last.line, last.column


def resolve_file(
    root: Path, project: jedi.Project, path: Path, environment: jedi.api.environment.Environment
) -> tuple[list[dict], int]:
    """JSONL records for one file's call sites, and how many sites jedi raised on."""
    code = path.read_text(encoding="utf-8", errors="replace")
    rel = path.relative_to(root).as_posix()
    try:
        names = sorted(set(call_names(code, rel)), key=lambda c: (c.line, c.col))
    except SyntaxError:
        return [], 0
    script = jedi.Script(code, path=str(path), project=project, environment=environment)
    scripts = ScriptCache(project, environment, {str(path): script})
    records: list[dict] = []
    errors = 0
    for call in names:
        record: dict = {
            "path": rel,
            "line": call.line,
            "column": call.col + 1,
            "name": call.name,
            "shape": call.shape,
            "source": call.source,
            "targets": [],
        }
        try:
            definitions = script.goto(call.line, call.col, follow_imports=True)
            bound_to = _bound_to(definitions, script, call, scripts)
        except Exception:  # jedi has internal errors on odd code; the site stays unresolved
            errors += 1
            definitions, bound_to = [], []
        targets, external = _targets(definitions, root)
        for via, names_ in bound_to:
            more, _ = _targets(names_, root, via=via)
            targets += [t for t in more if t not in targets]
        record["targets"] = targets
        if external and not record["targets"]:
            record["external"] = True
        records.append(record)
    return records, errors


_jedi_find_module = _jedi_functions._find_module


def _find_module_no_builtins(
    string: str, path: list[str] | None = None, full_name: str | None = None, **kwargs: object
) -> object:
    """jedi's module finder, minus the builtin and frozen importers for submodules.

    jedi looks a submodule up with every finder on ``sys.meta_path``, and the builtin importer
    ignores the package path it is given: ``_pytest._io`` finds the builtin ``_io``, so jedi
    imports ``_pytest._io`` from the running interpreter, i.e. the installed pytest, and every
    call into it looks external. A submodule lives in its package's directories, so only the
    path-based finders may answer.
    """
    if path is None or kwargs.get("is_global_search", True):
        return _jedi_find_module(string, path=path, full_name=full_name, **kwargs)
    saved = sys.meta_path
    sys.meta_path = [
        f
        for f in saved
        if f not in (importlib.machinery.BuiltinImporter, importlib.machinery.FrozenImporter)
    ]
    try:
        return _jedi_find_module(string, path=path, full_name=full_name, **kwargs)
    finally:
        sys.meta_path = saved


_worker_root: Path | None = None
_worker_project: jedi.Project | None = None
_worker_env: jedi.api.environment.Environment | None = None


def _init_worker(root: Path) -> None:
    global _worker_root, _worker_project, _worker_env
    _worker_root = root
    # In-process (InterpreterEnvironment below), so the patched finder is the one jedi calls.
    _jedi_functions._find_module = _find_module_no_builtins
    _worker_project = jedi.Project(str(root))
    # The running interpreter, in-process: jedi's default environment asks a subprocess
    # about compiled modules, which made runs several times slower (mostly waiting).
    _worker_env = jedi.InterpreterEnvironment()


def _resolve_in_worker(path: Path) -> tuple[list[dict], int]:
    assert _worker_root is not None and _worker_project is not None and _worker_env is not None
    return resolve_file(_worker_root, _worker_project, path, _worker_env)


def run(root: Path, files: list[Path], jobs: int) -> tuple[list[dict], int]:
    records: list[dict] = []
    errors = 0
    if jobs <= 1:
        _init_worker(root)
        results: Iterator[tuple[list[dict], int]] = map(_resolve_in_worker, files)
        for recs, errs in results:
            records.extend(recs)
            errors += errs
    else:
        # Each worker keeps one Project, so jedi's module cache is reused across its files.
        with multiprocessing.Pool(jobs, initializer=_init_worker, initargs=(root,)) as pool:
            for recs, errs in pool.imap_unordered(_resolve_in_worker, files, chunksize=1):
                records.extend(recs)
                errors += errs
    records.sort(key=lambda r: (r["path"], r["line"], r["column"]))
    return records, errors


def definition_records(root: Path, files: list[Path]) -> list[dict]:
    """Every named definition of the scanned files, as ``"kind": "definition"`` records (the
    naive name-matching baseline of graph_accuracy.py looks callee names up in them)."""
    out: list[dict] = []
    for path in files:
        rel = path.relative_to(root).as_posix()
        # @overload stubs share their implementation's id; the implementation comes last.
        by_id = {d.id: d for d in _TABLES.get(path, rel)}
        for d in sorted(by_id.values(), key=lambda d: d.line):
            out.append(
                {
                    "kind": "definition",
                    "id": d.id,
                    "path": rel,
                    "name": d.name,
                    "line": d.line,
                    "end_line": d.end_line,
                    "source": True,
                }
            )
    return out


def cpu_seconds() -> float:
    """User + system CPU of this process and its (finished) workers: the figure that load on a
    shared machine does not inflate."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def peak_rss_mb() -> int:
    # ru_maxrss is in KiB on Linux; children = the largest worker, not their sum.
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) // 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="project root (the directory imports start at)")
    parser.add_argument("--out", type=Path, help="JSONL output file (default: stdout)")
    parser.add_argument("--sample", type=int, help="keep about N files: every k-th, sorted")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)

    root = args.root.resolve()
    if not root.is_dir():
        parser.error(f"{root} is not a directory")
    all_files = list_python_files(root)
    files = sample_files(all_files, args.sample)

    start = time.perf_counter()
    records, errors = run(root, files, args.jobs)
    definitions = definition_records(root, files)
    seconds = time.perf_counter() - start

    out = args.out.open("w", encoding="utf-8") if args.out else sys.stdout
    try:
        for record in records + definitions:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    finally:
        if args.out:
            out.close()

    resolved = sum(1 for r in records if r["targets"])
    external = sum(1 for r in records if r.get("external"))
    summary = {
        "project": str(root),
        "jedi": jedi.__version__,
        "files": len(files),
        "files_total": len(all_files),
        "sites": len(records),
        "definitions": len(definitions),
        "resolved_in_project": resolved,
        "external": external,
        "unresolved": len(records) - resolved - external,
        "jedi_errors": errors,
        "jobs": args.jobs,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu_seconds(), 2),
        "peak_rss_mb": peak_rss_mb(),
    }
    print(json.dumps(summary), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
