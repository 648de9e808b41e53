"""Parse floor: the least work any tree-sitter indexer must do on a directory.

The denominator of astrag's speed ratio. Three phases, each timed once in a fresh process
(so each phase's peak RSS is its own), on the same file list:

  read   read every source file's bytes
  parse  read + tree-sitter parse
  tags   read + parse + run the grammar wheels' own ``queries/tags.scm`` over the tree

File selection follows a typical indexer: .py/.ts/.tsx/.js/.jsx/.mjs/.cjs/.java/.go (and the
name-level .rs/.c/.h/.cc/.cpp/.cxx/.hpp/.hh/.rb/.php), skipping node_modules, dist, build,
vendor (Go's copies of dependencies), hidden and cache directories, ``*.min.js`` and, unless
``--include-dts``, ``*.d.ts``. The parent reads every file once before the phases so all of
them run against a warm page cache.

The typescript wheel's tags.scm only adds TypeScript-specific patterns (interfaces, abstract
classes, signatures) on top of JavaScript's, as tree-sitter's own tags configuration does, so
.ts/.tsx files run the javascript wheel's tags.scm concatenated with it. All four tags queries
compile unchanged against these grammar versions (java's too). Go runs the tree-sitter-go
wheel's tags.scm.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import resource
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import tree_sitter

SKIP_DIRS = {"node_modules", "dist", "build", "vendor", "__pycache__", ".venv", "venv", ".tox"}
# extension -> (wheel module, language function, wheels whose tags.scm apply, in order)
LANGUAGES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    ".py": ("tree_sitter_python", "language", ("tree_sitter_python",)),
    ".js": ("tree_sitter_javascript", "language", ("tree_sitter_javascript",)),
    ".jsx": ("tree_sitter_javascript", "language", ("tree_sitter_javascript",)),
    ".mjs": ("tree_sitter_javascript", "language", ("tree_sitter_javascript",)),
    ".cjs": ("tree_sitter_javascript", "language", ("tree_sitter_javascript",)),
    ".ts": (
        "tree_sitter_typescript",
        "language_typescript",
        ("tree_sitter_javascript", "tree_sitter_typescript"),
    ),
    ".tsx": (
        "tree_sitter_typescript",
        "language_tsx",
        ("tree_sitter_javascript", "tree_sitter_typescript"),
    ),
    ".java": ("tree_sitter_java", "language", ("tree_sitter_java",)),
    ".go": ("tree_sitter_go", "language", ("tree_sitter_go",)),
}
# the name-level languages whose wheels ship a tags.scm (C#'s does not)
for _ext, _wheel, _func in (
    (".rs", "tree_sitter_rust", "language"),
    (".c", "tree_sitter_c", "language"),
    (".h", "tree_sitter_c", "language"),
    (".cc", "tree_sitter_cpp", "language"),
    (".cpp", "tree_sitter_cpp", "language"),
    (".cxx", "tree_sitter_cpp", "language"),
    (".hpp", "tree_sitter_cpp", "language"),
    (".hh", "tree_sitter_cpp", "language"),
    (".rb", "tree_sitter_ruby", "language"),
    (".php", "tree_sitter_php", "language_php"),
):
    LANGUAGES[_ext] = (_wheel, _func, (_wheel,))
PHASES = ("read", "parse", "tags")


@dataclass
class PhaseResult:
    phase: str
    seconds: float
    cpu_seconds: float
    files: int
    lines: int
    bytes: int
    peak_rss_mb: float
    files_with_errors: int = 0  # parse/tags: trees containing ERROR or MISSING nodes
    captures: int = 0  # tags: total captures over all matches
    by_language: dict[str, int] = field(default_factory=dict)  # lines per extension


def list_source_files(root: Path, include_dts: bool = False) -> list[Path]:
    files: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in filenames:
            suffix = os.path.splitext(name)[1]
            if suffix not in LANGUAGES or name.endswith(".min.js"):
                continue
            if name.endswith(".d.ts") and not include_dts:
                continue
            files.append(Path(dirpath) / name)
    return sorted(files)


def count_lines(data: bytes) -> int:
    if not data:
        return 0
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


def _wheel_dir(module: str) -> Path:
    return Path(importlib.import_module(module).__file__ or "").parent


class Grammars:
    """Parsers and tags queries, built once per extension and reused for every file."""

    def __init__(self) -> None:
        self._parsers: dict[str, tree_sitter.Parser] = {}
        self._cursors: dict[str, tree_sitter.QueryCursor] = {}

    def _language(self, suffix: str) -> tree_sitter.Language:
        module, func, _ = LANGUAGES[suffix]
        return tree_sitter.Language(getattr(importlib.import_module(module), func)())

    def parser(self, suffix: str) -> tree_sitter.Parser:
        if suffix not in self._parsers:
            self._parsers[suffix] = tree_sitter.Parser(self._language(suffix))
        return self._parsers[suffix]

    def tags_cursor(self, suffix: str) -> tree_sitter.QueryCursor:
        if suffix not in self._cursors:
            wheels = LANGUAGES[suffix][2]
            source = "\n".join(
                (_wheel_dir(w) / "queries" / "tags.scm").read_text(encoding="utf-8") for w in wheels
            )
            query = tree_sitter.Query(self._language(suffix), source)
            self._cursors[suffix] = tree_sitter.QueryCursor(query)
        return self._cursors[suffix]


def run_phase(phase: str, files: list[Path]) -> PhaseResult:
    """Time one phase over all files in this process."""
    grammars = Grammars()
    # Build parsers/queries before the clock starts: a one-off cost, not per-file work.
    for suffix in {f.suffix for f in files}:
        grammars.parser(suffix)
        if phase == "tags":
            grammars.tags_cursor(suffix)

    lines = size = errors = captures = 0
    by_language: Counter[str] = Counter()
    step: Callable[[Path, bytes], tuple[int, int]] = {
        "read": lambda path, data: (0, 0),
        "parse": lambda path, data: _parse(grammars, path, data),
        "tags": lambda path, data: _tags(grammars, path, data),
    }[phase]
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for path in files:
        data = path.read_bytes()
        n = count_lines(data)
        lines += n
        size += len(data)
        by_language[path.suffix] += n
        had_error, n_captures = step(path, data)
        errors += had_error
        captures += n_captures
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return PhaseResult(
        phase=phase,
        seconds=round(wall, 3),
        cpu_seconds=round(cpu, 3),
        files=len(files),
        lines=lines,
        bytes=size,
        peak_rss_mb=round(_peak_rss_mb(), 1),
        files_with_errors=errors,
        captures=captures,
        by_language=dict(by_language),
    )


def _parse(grammars: Grammars, path: Path, data: bytes) -> tuple[int, int]:
    tree = grammars.parser(path.suffix).parse(data)
    return int(tree.root_node.has_error), 0


def _tags(grammars: Grammars, path: Path, data: bytes) -> tuple[int, int]:
    tree = grammars.parser(path.suffix).parse(data)
    matches = grammars.tags_cursor(path.suffix).matches(tree.root_node)
    n_captures = sum(len(nodes) for _, caps in matches for nodes in caps.values())
    return int(tree.root_node.has_error), n_captures


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def run_phase_in_child(phase: str, root: Path, include_dts: bool) -> PhaseResult:
    cmd = [sys.executable, __file__, str(root), "--phase", phase]
    if include_dts:
        cmd.append("--include-dts")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return PhaseResult(**json.loads(out))


def format_text(root: Path, results: list[PhaseResult]) -> str:
    first = results[0]
    langs = ", ".join(f"{ext} {n:,}" for ext, n in sorted(first.by_language.items()))
    rows = [
        f"{root}: {first.files:,} files, {first.lines:,} lines ({langs}), "
        f"{first.bytes / 2**20:.1f} MiB",
        f"{'phase':<6} {'wall s':>8} {'cpu s':>8} {'peak RSS MB':>12} {'err files':>10} "
        f"{'captures':>10}",
    ]
    for r in results:
        rows.append(
            f"{r.phase:<6} {r.seconds:>8.2f} {r.cpu_seconds:>8.2f} {r.peak_rss_mb:>12.0f} "
            f"{r.files_with_errors:>10} {r.captures:>10}"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--include-dts", action="store_true", help="also index *.d.ts files")
    parser.add_argument(
        "--phases", default=",".join(PHASES), help="comma-separated subset of read,parse,tags"
    )
    parser.add_argument("--phase", choices=PHASES, help=argparse.SUPPRESS)  # child mode
    args = parser.parse_args(argv)

    root = args.root.resolve()
    if not root.is_dir():
        parser.error(f"{root} is not a directory")
    files = list_source_files(root, args.include_dts)
    if not files:
        parser.error(f"no .py/.ts/.tsx/.js/.go files under {root}")

    if args.phase:  # child: one phase, JSON on stdout
        print(json.dumps(asdict(run_phase(args.phase, files))))
        return 0

    for path in files:  # warm the page cache so every phase reads from memory
        path.read_bytes()
    phases = [p for p in args.phases.split(",") if p]
    unknown = set(phases) - set(PHASES)
    if unknown:
        parser.error(f"unknown phase(s): {', '.join(sorted(unknown))}")
    results = [run_phase_in_child(p, root, args.include_dts) for p in phases]
    if args.format == "json":
        print(json.dumps({"root": str(root), "phases": [asdict(r) for r in results]}, indent=2))
    else:
        print(format_text(root, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
