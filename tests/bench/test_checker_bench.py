"""bench/checker.py and bench/checker_cases.py: mutation generators and scoring, on tiny
repositories written here (never bench/data), with fake checkers."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from astrag import api
from astrag.verify.findings import CheckReport, Finding

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import checker as cb
import checker_cases as cc

SVC_PY = """\
import threading


class Service:
    def get_user(self, uid):
        return uid

    def run(self):
        return self.get_user(1)


class Worker(threading.Thread):
    def go(self):
        self.start()
        return self.work(2)

    def work(self, n):
        return n


def helper(a, b):
    return a + b


def wrapped(a):
    return a


def caller():
    total = helper(1, 2)
    total = total + 1
    return total
"""

APP_PY = """\
from .svc import Service, helper


def main(service: Service):
    value = helper(3, 4)
    print(value)
    service.run()
    return service.get_user(value)
"""

USERS_TS = """\
export class UsersService {
  findOne(id: string): string {
    return id;
  }
}

export function slugify(text: string): string {
  return text;
}

export function depth([first]: string[], n = 1): number {
  const size = first.length;
  return size + n + first.length;
}
"""

RESOLVER_TS = """\
import { UsersService } from './users.service';

export class UsersResolver {
  constructor(private readonly usersService: UsersService) {}

  user(id: string) {
    const found = this.usersService.findOne(id);
    console.log(found);
    return found;
  }
}
"""


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture(scope="module")
def py_corpus(tmp_path_factory: pytest.TempPathFactory) -> cc.Corpus:
    root = tmp_path_factory.mktemp("pyrepo")
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/svc.py", SVC_PY)
    write(root, "pkg/app.py", APP_PY)
    api.index(root)
    return cc.load_corpus(root, "python")


@pytest.fixture(scope="module")
def ts_corpus(tmp_path_factory: pytest.TempPathFactory) -> cc.Corpus:
    root = tmp_path_factory.mktemp("tsrepo")
    write(root, "src/users.service.ts", USERS_TS)
    write(root, "src/users.resolver.ts", RESOLVER_TS)
    api.index(root)
    return cc.load_corpus(root, "typescript")


def rng() -> random.Random:
    return random.Random(0)


def new_line(corpus: cc.Corpus, edit: cc.Edit) -> str:
    lines = cc.apply_edits(corpus.file(edit.path).lines, [edit])
    return lines[edit.expected_line - 1].rstrip("\n")


# ---------------------------------------------------------------------------- names


def test_renames_are_near_misses_in_the_same_style() -> None:
    assert "fetch_user" in cc.plausible_renames("get_user")
    assert "getUser" in cc.plausible_renames("get_user")
    assert "fetchUserById" in cc.plausible_renames("getUserById")
    assert "has_table" in cc.plausible_renames("hasTable")
    assert "UserService" in cc.plausible_renames("UsersService")
    assert "TextStyle" in cc.plausible_renames("Text")
    assert "get_user" not in cc.plausible_renames("get_user")
    assert cc.plausible_renames("__init__") == []
    # a class name never becomes snake_case; a verb is never pluralised
    assert "users_service" not in cc.plausible_renames("UsersService")
    assert "gets_user" not in cc.plausible_renames("get_user")


def test_new_names_avoid_every_name_in_the_repository(py_corpus: cc.Corpus) -> None:
    sf = py_corpus.file("pkg/svc.py")
    for seed in range(20):
        name = cc.pick_new_name("run", py_corpus, sf, random.Random(seed))
        assert name is not None and py_corpus.is_free(name, sf)
    # "set" is a builtin and "get_user" a method: never picked as renames
    assert cc.pick_new_name("update", py_corpus, sf, rng()) != "set"
    assert not py_corpus.is_free("get_user", sf)


# ---------------------------------------------------------------------------- positives


def test_member_rename_touches_only_the_callee_of_a_closed_class(py_corpus: cc.Corpus) -> None:
    edits = list(cc.member_edits(py_corpus, rng()))
    sites = {(e.path, e.line): (variant, e) for variant, e in edits}
    variant, edit = sites[("pkg/svc.py", 9)]  # return self.get_user(1)
    assert variant == "self"
    line = new_line(py_corpus, edit)
    assert line.startswith("        return self.") and line.endswith("(1)")
    assert "get_user" not in line
    # Worker extends threading.Thread: a missing member might be inherited, so no case
    assert ("pkg/svc.py", 15) not in sites
    # a typed parameter receiver: service.get_user(value) in app.py
    assert sites[("pkg/app.py", 8)][0] == "typed"


def test_function_rename_tells_imported_from_local_helpers(py_corpus: cc.Corpus) -> None:
    variants = {(e.path, e.line): v for v, e in cc.function_edits(py_corpus, rng())}
    assert variants[("pkg/svc.py", 30)] == "local-helper"
    assert variants[("pkg/app.py", 5)] == "imported"


def test_argument_edits_add_or_drop_one_positional(py_corpus: cc.Corpus) -> None:
    seen = set()
    for seed in range(8):
        for variant, edit in cc.argument_edits(py_corpus, random.Random(seed)):
            seen.add((edit.path, variant, new_line(py_corpus, edit).strip()))
    assert ("pkg/svc.py", "drop", "total = helper(1)") in seen
    assert any(v == "add" and t.startswith("total = helper(1, 2, ") for _p, v, t in seen)
    # never for print(value) (a builtin) nor the unbound-looking constructor Service()
    assert not any("print(" in t or "Service(" in t for _p, _v, t in seen)


def test_keyword_edit_adds_a_keyword_the_callee_lacks(py_corpus: cc.Corpus) -> None:
    edits = {(e.path, e.line): e for _v, e in cc.keyword_edits(py_corpus, rng())}
    line = new_line(py_corpus, edits[("pkg/app.py", 5)])
    assert line.startswith("    value = helper(3, 4, ") and line.endswith("=True)")


def test_import_edit_adds_a_missing_name_after_the_imports(py_corpus: cc.Corpus) -> None:
    edits = [e for _v, e in cc.import_edits(py_corpus, rng())]
    assert [e.path for e in edits] == ["pkg/app.py"]
    edit = edits[0]
    assert edit.expected_line == 2
    line = new_line(py_corpus, edit)
    assert line.startswith("from .svc import ")
    name = line.rsplit(" ", 1)[1]
    assert name not in ("Service", "helper") and py_corpus.is_free(name, py_corpus.file(edit.path))


def test_typescript_this_field_member_and_import(ts_corpus: cc.Corpus) -> None:
    members = {(e.path, e.line): (v, e) for v, e in cc.member_edits(ts_corpus, rng())}
    variant, edit = members[("src/users.resolver.ts", 7)]
    assert variant == "this-field"
    assert new_line(ts_corpus, edit).startswith("    const found = this.usersService.")
    imports = [e for _v, e in cc.import_edits(ts_corpus, rng())]
    assert len(imports) == 1
    assert new_line(ts_corpus, imports[0]).endswith(" } from './users.service';")


def test_cases_are_deterministic_and_one_line_diffs(py_corpus: cc.Corpus) -> None:
    first = cc.build_cases(py_corpus, seed=3, per_category=5)
    again = cc.build_cases(py_corpus, seed=3, per_category=5)
    assert [(c.id, c.text) for c in first] == [(c.id, c.text) for c in again]
    positives = [c for c in first if c.positive]
    assert {c.category for c in positives} >= {"unknown-member", "unknown-function"}
    for case in positives:
        assert case.expected is not None
        added = cb.added_lines(case.text)
        assert list(added) == [case.expected[1]], case.id  # exactly the expected line
        assert case.text.startswith(f"--- a/{case.path}\n+++ b/{case.path}\n")
    snippets = [c for c in first if c.category == "negative-snippet"]
    assert snippets and all(not c.diff and c.lines for c in snippets)


def test_rename_local_is_consistent(py_corpus: cc.Corpus) -> None:
    refactors = list(cc.rename_local_refactors(py_corpus, rng()))
    by_scope = {edits[0].scope: edits for _v, edits in refactors}
    edits = by_scope["caller"]
    sf = py_corpus.file("pkg/svc.py")
    text = "".join(cc.apply_edits(sf.lines, edits))
    assert "new_total = helper(1, 2)" in text and "return new_total" in text
    assert "total = total" not in text and "new_total = new_total + 1" in text


def test_rename_local_leaves_same_named_attributes_keywords_and_paths() -> None:
    text = "def f(tree):\n    from rich.tree import Tree\n    tree = Tree(tree=tree.tree)\n"
    sf = cc.SourceFile("m.py", text)
    nodes = cc._renamable_occurrences(sf, sf.tree.root_node, "tree")
    assert nodes is not None
    assert sorted((n.start_point.row, n.start_point.column) for n in nodes) == [
        (0, 6),  # the parameter (the generator skips parameters before getting here)
        (2, 4),  # tree = ...
        (2, 21),  # ... =tree.tree: the receiver, not the attribute or the keyword
    ]


def test_rename_local_skips_destructured_parameters(ts_corpus: cc.Corpus) -> None:
    notes = [edits[0].note for _v, edits in cc.rename_local_refactors(ts_corpus, rng())]
    assert not any("rename local first " in note for note in notes)


def test_real_import_refactor_imports_a_defined_name(py_corpus: cc.Corpus) -> None:
    refactors = [edits[0] for _v, edits in cc.real_import_refactors(py_corpus, rng())]
    assert len(refactors) == 1
    line = new_line(py_corpus, refactors[0])
    assert line.startswith("from .svc import ")
    assert line.rsplit(" ", 1)[1] in ("Worker", "wrapped", "caller")  # defined, not imported


# ---------------------------------------------------------------------------- scoring


def finding(line: int, rule: str = "unknown-member", path: str = "a.py") -> Finding:
    return Finding(path, line, 1, rule, f"{rule} at {line}")


def case(expected: tuple[str, int] | None, lines: tuple[int, int] | None = None) -> cc.Case:
    return cc.Case(
        id="t",
        lang="python",
        category=expected[0] if expected else "negative-snippet",
        variant="v",
        path="a.py",
        text="x",
        diff=lines is None,
        expected=expected,
        lines=lines,
    )


def test_judge_positive() -> None:
    hit = cb.judge(case(("unknown-member", 5)), [finding(5), finding(9)])
    assert hit.caught and hit.fp == 1
    wrong = cb.judge(case(("unknown-member", 5)), [finding(5, "unknown-function")])
    assert not wrong.caught and wrong.fp == 0 and len(wrong.wrong_rule) == 1
    other_file = cb.judge(case(("unknown-member", 5)), [finding(5, path="b.py")])
    assert not other_file.caught and other_file.fp == 1
    dotted = cb.judge(case(("unknown-member", 5)), [finding(5, path="./a.py")])
    assert dotted.caught


def test_judge_excuses_only_the_sites_an_incomplete_rename_leaves_broken_elsewhere() -> None:
    import dataclasses

    refactor = dataclasses.replace(case(("unknown-import", 5)), elsewhere=(("b.py", 7),))
    judged = cb.judge(refactor, [finding(5, "unknown-import"), finding(7, path="b.py")])
    assert judged.caught and judged.fp == 0 and len(judged.elsewhere) == 1
    # another line of that file, or the same line in another file, is still a false alarm
    judged = cb.judge(refactor, [finding(8, path="b.py"), finding(7, path="c.py")])
    assert judged.fp == 2 and judged.elsewhere == []


def test_judge_negatives_and_snippet_ranges() -> None:
    assert cb.judge(case(None), [finding(1), finding(2)]).fp == 2
    snippet = cb.judge(case(None, lines=(10, 20)), [finding(9), finding(10), finding(20)])
    assert snippet.fp == 2


def test_summary_precision_recall_clean() -> None:
    results = [
        cb.judge(case(("unknown-member", 5)), [finding(5)]),  # TP
        cb.judge(case(("unknown-member", 5)), [finding(6)]),  # FN + FP
        cb.judge(case(None), []),  # clean
        cb.judge(case(None), [finding(1), finding(2)]),  # 2 FP
    ]
    s = cb.summarize(results)
    assert (s["tp"], s["fp"], s["fn"]) == (1, 3, 1)
    assert s["precision"] == pytest.approx(0.25)
    assert s["recall"] == pytest.approx(0.5)
    assert s["clean"] == pytest.approx(0.5)


def test_added_lines_numbers_new_file_lines() -> None:
    diff = (
        "--- a/x\n+++ b/x\n@@ -3,3 +3,4 @@\n ctx\n-old\n+new\n+more\n ctx\n"
        "@@ -20,1 +21,1 @@\n-a\n+b\n"
    )
    assert cb.added_lines(diff) == {4: "new", 5: "more", 21: "b"}


def test_run_cases_checks_a_snippet_file_once_and_survives_crashes(tmp_path: Path) -> None:
    calls: list[tuple[str | None, bool | None]] = []

    def fake(root: Path, text: str, *, path=None, lang=None, diff=None) -> CheckReport:
        calls.append((path, diff))
        if text == "boom":
            raise RuntimeError("checker crashed")
        return CheckReport([finding(12, path="a.py")])

    snippet_a = case(None, lines=(10, 15))
    snippet_b = case(None, lines=(1, 5))
    crash = cc.Case("c", "python", "unknown-member", "v", "a.py", "boom", True, ("x", 1))
    results = cb.run_cases(tmp_path, [snippet_a, snippet_b, crash], fake)
    assert calls == [("a.py", False), (None, True)]
    assert [r.fp for r in results] == [1, 0, 0]
    assert results[1].ms is None and results[2].error.startswith("RuntimeError")


def test_end_to_end_with_a_checker_that_flags_added_lines(py_corpus: cc.Corpus) -> None:
    """A fake that reports every added line as unknown-member catches exactly the member
    cases and is charged a false positive for every other added line it flags."""

    def fake(root: Path, text: str, *, path=None, lang=None, diff=None) -> SimpleNamespace:
        if not diff:
            return SimpleNamespace(findings=[])
        path = text.splitlines()[1][len("+++ b/") :]
        lines = cb.added_lines(text)
        return SimpleNamespace(findings=[finding(n, path=path) for n in lines])

    cases = cc.build_cases(py_corpus, seed=0, per_category=4)
    results = cb.run_cases(py_corpus.root, cases, fake)
    by = cb.group_summaries(results, lambda c: c.category)
    assert by["unknown-member"]["recall"] == 1.0
    assert by["unknown-function"]["recall"] == 0.0
    assert by["negative-snippet"]["fp"] == 0
    if "negative-refactor" in by:
        assert by["negative-refactor"]["clean"] == 0.0
    assert "| all |" in cb.render_markdown(cb.report_data(results, None))


def test_spread_keeps_one_edit_per_function() -> None:
    edits = [cc.Edit("f.ts", line, ("x\n",), line, f"fn{line // 10}", "") for line in range(100)]
    picked = cc._spread(edits, 5)
    assert len(picked) == 5
    assert len({e.scope for e in picked}) == 5


# ---------------------------------------------------------------------------- incomplete refactors

UTIL_PY = """\
def deprecated(message):
    return message


def unrelated():
    return 1
"""
USES_BY_NAME_PY = """\
from pkg.util import deprecated


def one():
    return deprecated("one")
"""
USES_BY_MODULE_PY = """\
from pkg import util
from pkg.util import deprecated


def two():
    return util.deprecated("two") + deprecated("x")


def three(other):
    return other.deprecated("not ours")


def four():
    return [util.deprecated, util.unrelated]
"""


def incomplete_renames_by_forgotten_file(
    root: Path, keep: Callable[[cc.Case], bool]
) -> dict[str, cc.Case]:
    """The first kept incomplete-rename case for each forgotten file, over 40 seeds: the
    forgotten importer is drawn at random, so this sees every draw."""
    import checker_families as cf

    corpus = cc.load_corpus(root, "python")
    by_forgotten: dict[str, cc.Case] = {}
    for seed in range(40):
        for c in cf.incomplete_refactor_cases(corpus, random.Random(seed), 10):
            if keep(c):
                by_forgotten.setdefault(c.path, c)
    return by_forgotten


def test_incomplete_rename_counts_module_attribute_uses_it_leaves_broken(
    tmp_path: Path,
) -> None:
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/util.py", UTIL_PY)
    write(tmp_path, "pkg/a.py", USES_BY_NAME_PY)
    write(tmp_path, "pkg/b.py", USES_BY_MODULE_PY)
    api.index(tmp_path, embedder="none")
    by_forgotten = incomplete_renames_by_forgotten_file(
        tmp_path, lambda c: c.variant == "rename-import" and "deprecated" in c.note
    )
    assert sorted(by_forgotten) == ["pkg/a.py", "pkg/b.py"]
    # whichever importer is forgotten, b.py's util.deprecated call (line 6) and read
    # (line 14) keep the old name: the by-name rename does not reach them. Neither
    # other.deprecated(...) (not the function) nor the renamed by-name uses are listed.
    assert by_forgotten["pkg/a.py"].elsewhere == (("pkg/b.py", 6), ("pkg/b.py", 14))
    assert "+    return util.deprecated(" in by_forgotten["pkg/a.py"].text
    assert by_forgotten["pkg/b.py"].elsewhere == (("pkg/b.py", 6), ("pkg/b.py", 14))
    assert "pkg/b.py" not in by_forgotten["pkg/b.py"].text  # the forgotten file is untouched


TEXT_PY = """\
class Text:
    def __init__(self, plain: str):
        self.plain = plain

    def rstrip(self):
        self.plain = self.plain.rstrip()
        return self

    def tidy(self):
        return self.rstrip()
"""
TEXT_USER_PY = """\
from pkg.text import Text


def {name}(text: Text):
    return text.rstrip()
"""


def test_rename_method_leaves_other_receivers_in_the_class_file_alone(tmp_path: Path) -> None:
    import checker_families as cf

    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/text.py", TEXT_PY)
    write(tmp_path, "pkg/a.py", TEXT_USER_PY.format(name="one"))
    write(tmp_path, "pkg/b.py", TEXT_USER_PY.format(name="two"))
    api.index(tmp_path, embedder="none")
    corpus = cc.load_corpus(tmp_path, "python")
    cases = cf.method_refactor_cases(corpus, random.Random(0), 10)
    assert [c.variant for c in cases] == ["rename-method"]
    new = cases[0].note.split(" -> ")[1].split()[0]
    removed = [line for line in cases[0].text.splitlines() if line.startswith("-    ")]
    added = [line for line in cases[0].text.splitlines() if line.startswith("+    ")]
    # the definition, self.rstrip() and the other importer's call: renamed; str.rstrip: not
    assert removed == [
        "-    def rstrip(self):",
        "-        return self.rstrip()",
        "-    return text.rstrip()",
    ]
    assert added == [
        f"+    def {new}(self):",
        f"+        return self.{new}()",
        f"+    return text.{new}()",
    ]


INIT_REEXPORT_PY = """\
from .core import convert
"""
CORE_PY = """\
def convert(text):
    return text
"""
THROUGH_PACKAGE_PY = """\
from . import convert


def run():
    return convert("x")
"""
DIRECT_PY = """\
from pkg.core import convert


def go():
    return convert("y")
"""


def test_incomplete_rename_counts_imports_through_a_forgotten_reexporting_package(
    tmp_path: Path,
) -> None:
    write(tmp_path, "pkg/__init__.py", INIT_REEXPORT_PY)
    write(tmp_path, "pkg/core.py", CORE_PY)
    write(tmp_path, "pkg/tools.py", THROUGH_PACKAGE_PY)
    write(tmp_path, "pkg/direct.py", DIRECT_PY)
    api.index(tmp_path, embedder="none")
    by_forgotten = incomplete_renames_by_forgotten_file(tmp_path, lambda c: True)
    # forgetting the package: tools.py's renamed `from . import convert` now asks the
    # package for a name it does not have (true breakage); direct.py imports from core
    assert by_forgotten["pkg/__init__.py"].elsewhere == (("pkg/tools.py", 1),)
    # forgetting another importer: the package is renamed too, nothing breaks through it
    others = [c for path, c in by_forgotten.items() if path != "pkg/__init__.py"]
    assert others and all(c.elsewhere == () for c in others)
    # the judge: a finding at the re-export site is not a false alarm; one elsewhere is
    case = by_forgotten["pkg/__init__.py"]
    hit = SimpleNamespace(path="pkg/__init__.py", line=1, rule="unknown-import", message="")
    through = SimpleNamespace(path="pkg/tools.py", line=1, rule="unknown-import", message="")
    wrong = SimpleNamespace(path="pkg/direct.py", line=1, rule="unknown-import", message="")
    result = cb.judge(case, [hit, through, wrong])
    assert result.caught and result.elsewhere == [through] and result.false_positives == [wrong]


OBSERVE_PY = """\
def observed(atom):
    return atom


class Atom:
    def observed(self):
        return observed(self)
"""
OBSERVER_PY = """\
from pkg.observe import Atom, observed


def {name}(atom: Atom):
    seen = observed(atom)
    return seen and atom.observed()
"""


def test_incomplete_rename_counts_uses_of_a_same_named_member_it_renames_too(
    tmp_path: Path,
) -> None:
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/observe.py", OBSERVE_PY)
    write(tmp_path, "pkg/a.py", OBSERVER_PY.format(name="one"))
    write(tmp_path, "pkg/b.py", OBSERVER_PY.format(name="two"))
    api.index(tmp_path, embedder="none")
    by_forgotten = incomplete_renames_by_forgotten_file(
        tmp_path, lambda c: "rename observed" in c.note
    )
    # the by-name rename of the function renames Atom's method of the same name in its
    # file too, but not the uses through a receiver: atom.observed() breaks in both files
    assert by_forgotten["pkg/a.py"].elsewhere == (("pkg/a.py", 6), ("pkg/b.py", 6))
    assert by_forgotten["pkg/b.py"].elsewhere == (("pkg/a.py", 6), ("pkg/b.py", 6))
    # a function with no member of its name leaves nothing broken elsewhere (the test above:
    # other.deprecated(...) is not listed)


def test_speed_diff_is_the_same_after_a_check_reindexed_the_mutated_tree(tmp_path: Path) -> None:
    write(tmp_path, "src/users.service.ts", USERS_TS)
    write(tmp_path, "src/users.resolver.ts", RESOLVER_TS)
    api.index(tmp_path, embedder="none")
    first, _edits, files = cc.build_speed_diff(tmp_path, seed=0, target_lines=1000)
    assert files >= 1
    names = ("src/users.service.ts", "src/users.resolver.ts")
    originals = {rel: (tmp_path / rel).read_text() for rel in names}
    assert cb._git_apply(tmp_path, first, reverse=False)
    api.index(tmp_path, embedder="none")  # what `check --changed` does to the mutated tree
    for rel, text in originals.items():
        (tmp_path / rel).write_text(text)
    second, _edits, _files = cc.build_speed_diff(tmp_path, seed=0, target_lines=1000)
    assert second == first


def test_load_corpus_refuses_a_stale_index(tmp_path: Path) -> None:
    write(tmp_path, "src/users.service.ts", USERS_TS)
    api.index(tmp_path, embedder="none")
    write(tmp_path, "src/users.service.ts", USERS_TS.replace("findOne", "findMany"))
    with pytest.raises(cc.StaleIndex):
        cc.load_corpus(tmp_path, "typescript")
    fresh = cc.load_corpus(tmp_path, "typescript", refresh=True)
    assert "findMany" in {s.name for s in fresh.symbols.values()}


def test_self_check_cases_are_every_file_whole_and_every_finding_counts(
    py_corpus: cc.Corpus,
) -> None:
    import checker_families as cf

    cases = cf.self_check_cases(py_corpus)
    # pkg/__init__.py is empty: nothing to check
    assert [(c.id, c.category, c.diff, c.lines, c.expected) for c in cases] == [
        ("py/self-check/file/pkg/app.py", "self-check", False, None, None),
        ("py/self-check/file/pkg/svc.py", "self-check", False, None, None),
    ]
    assert cases[1].text == SVC_PY
    anywhere = SimpleNamespace(path="pkg/svc.py", line=30, rule="unknown-member", message="")
    assert cb.judge(cases[1], [anywhere]).false_positives == [anywhere]
    only = cb.parse_args(["--only", "self-check"])
    assert cb.corpus_cases(py_corpus, only) == cases


HTTP_ERROR_TS = """\
export class HTTPError extends Error {
  code = 500;
}
"""
HTTP_USER_TS = """\
import {{HTTPError}} from './errors/HTTPError.js';

export function {name}(): HTTPError {{
  return new HTTPError();
}}
"""


def test_incomplete_rename_leaves_module_specifiers_alone(tmp_path: Path) -> None:
    write(tmp_path, "src/errors/HTTPError.ts", HTTP_ERROR_TS)
    write(tmp_path, "src/a.ts", HTTP_USER_TS.format(name="one"))
    write(tmp_path, "src/b.ts", HTTP_USER_TS.format(name="two"))
    api.index(tmp_path, embedder="none")
    import checker_families as cf

    corpus = cc.load_corpus(tmp_path, "typescript")
    cases = cf.incomplete_refactor_cases(corpus, random.Random(0), 10)
    assert [c.variant for c in cases] == ["rename-import"]
    new = cases[0].note.split(" -> ")[1].split()[0]
    added = [line for line in cases[0].text.splitlines() if line.startswith("+import")]
    # the class is renamed, the file that holds it is not
    assert added == [f"+import {{{new}}} from './errors/HTTPError.js';"]


SRC_INIT_PY = """\
from .core import convert
"""
SRC_TOOLS_PY = """\
from pkg import convert
import pkg as _pkg


def run():
    return convert("x") + _pkg.core.convert("y")
"""


def test_incomplete_rename_in_a_src_layout_counts_what_it_leaves_broken(tmp_path: Path) -> None:
    write(tmp_path, "src/pkg/__init__.py", SRC_INIT_PY)
    write(tmp_path, "src/pkg/core.py", CORE_PY)
    write(tmp_path, "src/pkg/tools.py", SRC_TOOLS_PY)
    write(tmp_path, "src/pkg/direct.py", DIRECT_PY)
    api.index(tmp_path, embedder="none")
    by_forgotten = incomplete_renames_by_forgotten_file(tmp_path, lambda c: True)
    # forgetting the package: tools.py's renamed `from pkg import convert` asks the package
    # for a name it lacks; `_pkg.core.convert` (through the package, by the module's dotted
    # rest) keeps the old name whichever file is forgotten
    assert by_forgotten["src/pkg/__init__.py"].elsewhere == (
        ("src/pkg/tools.py", 1),
        ("src/pkg/tools.py", 6),
    )
    assert by_forgotten["src/pkg/direct.py"].elsewhere == (("src/pkg/tools.py", 6),)


SHAPE_JAVA = """\
package com.ex;

import com.ex.util.Strings;

public class Shape {
    private int size;

    public int area(int a) {
        return helper(a) * size;
    }

    int helper(int a) {
        return Strings.twice(a);
    }

    int use(Shape other) {
        return other.area(1);
    }
}
"""
STRINGS_JAVA = """\
package com.ex.util;

public final class Strings {
    public static int twice(int a) {
        return 2 * a;
    }
}
"""


def test_java_mutations_are_made_in_java(tmp_path: Path) -> None:
    write(tmp_path, "src/main/java/com/ex/Shape.java", SHAPE_JAVA)
    write(tmp_path, "src/main/java/com/ex/util/Strings.java", STRINGS_JAVA)
    api.index(tmp_path, embedder="none")
    corpus = cc.load_corpus(tmp_path, "java")
    own = [e for v, e in cc.function_edits(corpus, rng()) if v == "own-method"]
    assert [(e.line, e.note.split(" -> ")[0]) for e in own] == [(9, "method helper")]
    imports = [e for _v, e in cc.import_edits(corpus, rng())]
    assert [e.new[1] for e in imports] == [f"import com.ex.util.{imports[0].note.split()[1]};\n"]
    assert imports[0].new[1] != "import com.ex.util.Strings;\n"
    args = [e for _v, e in cc.argument_edits(corpus, rng())]
    assert [e.line for e in args] == [17]
    assert {c.id.split("/")[0] for c in cb.corpus_cases(corpus, cb.parse_args([]))} == {"java"}


def test_module_renames_skip_modules_that_answer_any_name(tmp_path: Path) -> None:
    write(
        tmp_path,
        "dyn/__init__.py",
        "def helper(a):\n    return a\n\n\n"
        "def __getattr__(name):\n    raise AttributeError(name)\n",
    )
    write(tmp_path, "plain/__init__.py", "def helper(a):\n    return a\n")
    write(
        tmp_path,
        "use.py",
        "import dyn\nimport plain\n\n\ndef run():\n    return dyn.helper(1) + plain.helper(2)\n",
    )
    api.index(tmp_path, embedder="none")
    corpus = cc.load_corpus(tmp_path, "python")
    edits = [(v, e.note) for v, e in cc.member_edits(corpus, rng())]
    assert [(v, note.split(" -> ")[0]) for v, note in edits] == [("module", "member plain.helper")]


def renamed_names(root: Path) -> set[str]:
    """What the incomplete renames of the Python project at ``root`` rename, over 10 seeds."""
    api.index(root, embedder="none")
    import checker_families as cf

    corpus = cc.load_corpus(root, "python")
    return {
        c.note.split(" -> ")[0]
        for seed in range(10)
        for c in cf.incomplete_refactor_cases(corpus, random.Random(seed), 10)
    }


def test_incomplete_rename_skips_a_name_two_modules_define(tmp_path: Path) -> None:
    # ``converter`` of pkg/json.py and of pkg/yaml.py: renaming one by name in a file that
    # imports both would break the other's import too
    write(tmp_path, "pkg/__init__.py", "")
    write(
        tmp_path, "pkg/json.py", "def converter():\n    return 1\n\n\ndef dumps():\n    return 2\n"
    )
    write(tmp_path, "pkg/yaml.py", "def converter():\n    return 3\n")
    user = "from pkg.json import converter, dumps\nfrom pkg.yaml import converter as to_yaml\n"
    write(tmp_path, "pkg/a.py", user)
    write(tmp_path, "pkg/b.py", user)
    notes = renamed_names(tmp_path)
    assert notes == {"rename dumps"}


def test_incomplete_rename_skips_a_name_an_import_brings_from_elsewhere(tmp_path: Path) -> None:
    # pkg's ``Style`` and the standard library's ``string.Template`` under the same name
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/style.py", "class Template:\n    pass\n\n\nclass Palette:\n    pass\n")
    user = "from pkg.style import Palette, Template\n"
    write(tmp_path, "pkg/a.py", user)
    write(tmp_path, "pkg/b.py", user)
    write(tmp_path, "pkg/c.py", "from string import Template\n")
    notes = renamed_names(tmp_path)
    assert notes == {"rename Palette"}


def test_incomplete_rename_edits_a_reexport_spread_over_lines(tmp_path: Path) -> None:
    # index.ts passes isHTTPError on in a statement over several lines: it imports the
    # function as much as a.ts does, and is renamed with it unless it is the one forgotten
    write(tmp_path, "src/guards.ts", "export function isHTTPError(e: unknown) { return !!e; }\n")
    write(tmp_path, "src/index.ts", "export {\n\tisHTTPError,\n} from './guards.js';\n")
    write(tmp_path, "src/a.ts", "import {isHTTPError} from './guards.js';\nisHTTPError(1);\n")
    write(tmp_path, "test/b.ts", "import {isHTTPError} from '../src/index.js';\nisHTTPError(2);\n")
    api.index(tmp_path, embedder="none")
    import checker_families as cf

    corpus = cc.load_corpus(tmp_path, "typescript")
    forgotten_a = [
        c
        for seed in range(20)
        for c in cf.incomplete_refactor_cases(corpus, random.Random(seed), 10)
        if c.path == "src/a.ts"
    ]
    assert forgotten_a
    assert all("+++ b/src/index.ts" in c.text for c in forgotten_a)


def test_a_rename_judged_through_a_tsconfig_path_alias(tmp_path: Path) -> None:
    # jotai imports its own files as 'jotai/vanilla/utils' ("jotai/*": ["./src/*.ts"]): an
    # edited file importing the renamed name through the alias from the forgotten file breaks
    import checker_families as cf

    write(
        tmp_path,
        "tsconfig.json",
        '{ "compilerOptions": { /* a comment */ "paths": {\n'
        '  "jotai": ["./src/index.ts"], // another\n  "jotai/*": ["./src/*.ts"],\n} } }',
    )
    corpus = SimpleNamespace(root=tmp_path, paths=["src/index.ts", "src/vanilla/utils.ts"])
    assert cf._path_alias_file(corpus, "jotai/vanilla/utils") == "src/vanilla/utils.ts"
    assert cf._path_alias_file(corpus, "jotai") == "src/index.ts"
    # a package, or an aliased file that is not there: no repository file
    assert cf._path_alias_file(corpus, "react") is None
    assert cf._path_alias_file(corpus, "jotai/vanilla/missing") is None


STAR_CORE_PY = """\
def convert_all(text):
    return text
"""
STAR_USER_PY = """\
from pkg.core import convert_all


def {name}():
    return convert_all("x")
"""
STAR_TEST_PY = """\
from pkg.core import *


def test_convert():
    assert convert_all("y") == "y"
"""
STAR_OTHER_PY = """\
from pkg.core import *


def test_nothing():
    assert True
"""


def test_incomplete_rename_renames_star_imports_uses_too(tmp_path: Path) -> None:
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/core.py", STAR_CORE_PY)
    write(tmp_path, "pkg/a.py", STAR_USER_PY.format(name="one"))
    write(tmp_path, "pkg/b.py", STAR_USER_PY.format(name="two"))
    write(tmp_path, "tests/test_core.py", STAR_TEST_PY)
    write(tmp_path, "tests/test_other.py", STAR_OTHER_PY)
    api.index(tmp_path, embedder="none")
    by_forgotten = incomplete_renames_by_forgotten_file(tmp_path, lambda c: True)
    # funcy's tests take the module's names by ``import *``: renamed with the importers
    # (never the forgotten file); a star importer that never names it is left alone
    assert sorted(by_forgotten) == ["pkg/a.py", "pkg/b.py"]
    for case in by_forgotten.values():
        assert "+++ b/tests/test_core.py" in case.text
        assert "tests/test_other.py" not in case.text
        assert case.elsewhere == ()


WRAP_PY = """\
from textwrap import wrap


class Formatter:
    def wrap(self, text):
        return wrap(text)

    def render(self, text):
        return self.wrap(text)
"""
WRAP_USER_PY = """\
from pkg.fmt import Formatter


def {name}(f: Formatter):
    return f.wrap("x")
"""


def test_rename_method_leaves_a_free_function_of_the_name_alone(tmp_path: Path) -> None:
    import checker_families as cf

    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/fmt.py", WRAP_PY)
    write(tmp_path, "pkg/a.py", WRAP_USER_PY.format(name="one"))
    write(tmp_path, "pkg/b.py", WRAP_USER_PY.format(name="two"))
    api.index(tmp_path, embedder="none")
    corpus = cc.load_corpus(tmp_path, "python")
    cases = cf.method_refactor_cases(corpus, random.Random(0), 10)
    assert [c.variant for c in cases] == ["rename-method"]
    new = cases[0].note.split(" -> ")[1].split()[0]
    changed = [line for line in cases[0].text.splitlines() if line.startswith(("-    ", "+    "))]
    # oclif-core's HelpFormatter.wrap beside wrap-ansi's wrap(): the definition and
    # self.wrap() are renamed, the free function's call is not
    assert sorted(changed) == sorted(
        [
            "-    def wrap(self, text):",
            f"+    def {new}(self, text):",
            "-        return self.wrap(text)",
            f"+        return self.{new}(text)",
            '-    return f.wrap("x")',
            f'+    return f.{new}("x")',
        ]
    )
    assert not any("return wrap(text)" in line for line in changed)


LOOPS_TS = """\
export function run(ops: Array<() => void>, cb: (x: number) => void): void {
  for (const op of ops)
    op();
  for (const op of ops) {
    cb(1);
  }
  cb(2);
}
"""


def test_duplicated_calls_are_statements_of_a_block(tmp_path: Path) -> None:
    write(tmp_path, "src/loops.ts", LOOPS_TS)
    api.index(tmp_path, embedder="none")
    corpus = cc.load_corpus(tmp_path, "typescript")
    sf = corpus.file("src/loops.ts")
    calls = [
        sf.lines[node.start_point.row].strip()
        for _, body in cc.function_bodies(sf)
        for node in cc.call_statements(sf, body)
    ]
    # clipanion's brace-less ``for (...) op();``: a copy of its line would land after the
    # loop, where ``op`` is out of scope; the calls of blocks are kept
    assert sorted(calls) == ["cb(1);", "cb(2);"]


LOCAL_IMPORT_PY = """\
def test_limit():
    from pkg import convert

    return convert("z")
"""


def test_incomplete_rename_counts_a_function_level_import_through_the_forgotten_package(
    tmp_path: Path,
) -> None:
    write(tmp_path, "pkg/__init__.py", INIT_REEXPORT_PY)
    write(tmp_path, "pkg/core.py", CORE_PY)
    write(tmp_path, "pkg/direct.py", DIRECT_PY)
    write(tmp_path, "tests/test_limit.py", LOCAL_IMPORT_PY)
    api.index(tmp_path, embedder="none")
    by_forgotten = incomplete_renames_by_forgotten_file(tmp_path, lambda c: True)
    # dramatiq's ``from dramatiq.middleware import AgeLimit`` inside test functions: renamed,
    # it asks the forgotten package for a name it does not have, a real break
    assert by_forgotten["pkg/__init__.py"].elsewhere == (("tests/test_limit.py", 2),)
    others = [c for path, c in by_forgotten.items() if path != "pkg/__init__.py"]
    assert others and all(c.elsewhere == () for c in others)


def test_a_rename_reaches_a_spread_of_the_name_not_a_member_of_it() -> None:
    import checker_families as cf

    text = (
        'import { ResultAsync } from "./ResultAsync"\n'
        "type T = [ResultAsync<A>, ...ResultAsync<B>[]] | typeof x.ResultAsync\n"
    )
    # neverthrow's ``...ResultAsync<unknown, unknown>[]`` is the type, renamed with the rest;
    # a member of that name and a module path are not
    assert cf._renamed(text, "ResultAsync", "Renamed") == (
        'import { Renamed } from "./ResultAsync"\n'
        "type T = [Renamed<A>, ...Renamed<B>[]] | typeof x.ResultAsync\n"
    )


def test_an_invented_import_is_never_a_reserved_word(tmp_path: Path) -> None:
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/util.py", "def raises():\n    return 1\n")
    write(tmp_path, "pkg/a.py", "from pkg.util import raises\n\n\ndef go():\n    return raises()\n")
    api.index(tmp_path, embedder="none")
    corpus = cc.load_corpus(tmp_path, "python")
    # toolz's ``from toolz.utils import raise`` (near ``raises``) did not parse: a syntax error,
    # not the missing name the case meant
    names = {
        edit.note.split()[1]
        for seed in range(30)
        for _, edit in cc.import_edits(corpus, random.Random(seed))
    }
    assert names and "raise" not in names
