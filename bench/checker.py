"""The ``astrag check`` benchmark: how many injected hallucinations it catches, how often it
flags correct code, and how long a check takes.

    python3 bench/checker.py [--corpus python:DIR --corpus typescript:DIR ...]
        [--per-category 30] [--seed 0] [--examples 10] [--json out.json] [--applied]
        [--fresh 40] [--speed bench/data/ts-speed/typeorm] [--dump-cases cases.jsonl]
        [--only FAMILY ...] [--no-families]

Cases come from ``checker_cases.py`` (one-line mutations of real functions as unified diffs,
plus correct code: unmodified files as snippets and refactoring diffs) and
``checker_families.py`` (attribute reads, syntax slips, incomplete refactors whose finding is
in a file the diff leaves alone, and ``self-check``: every file of the corpus checked whole as
it stands, where every finding is a false alarm). Each case goes through ``astrag.api.check``
in this process. With ``--applied`` every diff case is also run *applied*: the diff is written
to the files first (``git apply``) and checked against the index built before it (stale), and
for ``--fresh N`` of them per corpus also after ``astrag index`` has caught up (fresh); the
files are restored after each case. Scoring, per case:

* a positive is caught (TP) when a finding with the expected rule is on the expected line of
  the expected file; findings on *other* lines are false positives (FP). A finding on the
  expected line with another rule is neither, but is listed ("wrong rule") for debugging;
* for a negative every finding is a FP (for a snippet: every finding inside the function the
  case is about, so a file shared by several cases is not counted several times).

A finding counts whatever its severity: a warning (unverified: the index could not read what
may declare the name) shown to an agent costs what an error costs when it is wrong, and finds
what an error finds when it is right.

precision = TP / (TP + FP), recall = TP / positives, clean = share of negatives without any
finding. Timing is wall time per ``check`` call (snippets of one file are checked once).
Applied runs agree with the unapplied one when they report the same (path, line, rule) set.
Every corpus must be indexed first (``astrag index DIR``).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import importlib
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # checker_cases beside this file

from checker_cases import Case, build_cases, build_speed_diff, load_corpus
from checker_families import family_cases, self_check_cases
from percentiles import percentile

CheckFn = Callable[..., Any]  # astrag.api.check(root, text, *, path, lang, diff) -> CheckReport
DEFAULT_CORPORA = {
    "python": "bench/data/py-acc/rich",
    "typescript": "bench/data/ts-di/nestjs-graphql",
}
HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@")


@dataclass
class CaseResult:
    case: Case
    findings: list[Any] = field(default_factory=list)  # the ones judged (snippet: in range)
    caught: bool = False
    false_positives: list[Any] = field(default_factory=list)
    wrong_rule: list[Any] = field(default_factory=list)
    # findings at sites the change leaves broken in other files (Case.elsewhere): not false
    elsewhere: list[Any] = field(default_factory=list)
    ms: float | None = None  # None: served from the per-file cache
    error: str = ""
    corpus: str = ""  # the corpus directory's name

    @property
    def tp(self) -> int:
        return int(self.caught)

    @property
    def fp(self) -> int:
        return len(self.false_positives)


# ---------------------------------------------------------------------------- judging


def norm_path(path: str) -> str:
    path = path.replace("\\", "/")
    return path[2:] if path.startswith("./") else path


def judge(case: Case, findings: Iterable[Any]) -> CaseResult:
    """Score one case's findings (objects with path, line, rule, message)."""
    findings = list(findings)
    if case.lines is not None:
        low, high = case.lines
        same_file = [f for f in findings if norm_path(f.path) == case.path]
        findings = [f for f in same_file if low <= f.line <= high]
    result = CaseResult(case, findings)
    if case.expected is None:
        result.false_positives = findings
        return result
    rule, line = case.expected
    on_line = [f for f in findings if f.line == line and norm_path(f.path) == case.path]
    result.caught = any(f.rule == rule for f in on_line)
    also = [
        f
        for f in findings
        if f.line in case.also and f.rule == rule and norm_path(f.path) == case.path
    ]
    elsewhere = set(case.elsewhere)
    left = [f for f in findings if (norm_path(f.path), f.line) in elsewhere]
    excused = on_line + also + left
    result.elsewhere = left
    result.false_positives = [f for f in findings if f not in excused]
    if not result.caught:
        result.wrong_rule = on_line
    return result


def added_lines(diff: str) -> dict[int, str]:
    """New-file line number -> text of every line a unified diff adds."""
    out: dict[int, str] = {}
    line = 0
    for raw in diff.splitlines():
        match = HUNK.match(raw)
        if match:
            line = int(match.group(1))
        elif raw.startswith("+") and not raw.startswith("+++"):
            out[line] = raw[1:]
            line += 1
        elif raw.startswith(" "):
            line += 1
    return out


# ---------------------------------------------------------------------------- running


def run_cases(root: Path, cases: list[Case], check: CheckFn) -> list[CaseResult]:
    """Check every case; a snippet's file is checked once and shared by its cases."""
    cache: dict[tuple[str, str], list[Any]] = {}
    results: list[CaseResult] = []
    for case in cases:
        key = (case.path, case.text)
        ms: float | None = None
        error = ""
        if case.diff or key not in cache:
            started = time.perf_counter()
            try:
                report = check(
                    root, case.text, path=None if case.diff else case.path, diff=case.diff
                )
                findings = list(report.findings)
            except Exception as exc:  # a crash is a result to report, not a reason to stop
                findings, error = [], f"{type(exc).__name__}: {exc}"
            ms = (time.perf_counter() - started) * 1000
            if not case.diff:
                cache[key] = findings
        else:
            findings = cache[key]
        result = judge(case, findings)
        result.ms, result.error = ms, error
        results.append(result)
    return results


def load_checker(spec: str) -> CheckFn:
    """``module:function``; the default is the real ``astrag.api:check``."""
    module_name, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module_name), attr or "check")


def with_session(check: CheckFn, root: Path) -> tuple[CheckFn, float, Callable[[], None]]:
    """Bind ``check`` to one loaded index of ``root`` when its module offers
    ``open_check_session`` (astrag.api does), so each case costs a check, not an index load.
    Returns (bound checker, seconds the load took, close)."""
    opener = getattr(sys.modules.get(check.__module__), "open_check_session", None)
    if opener is None:
        return check, 0.0, lambda: None
    started = time.perf_counter()
    session = opener(root)
    seconds = time.perf_counter() - started
    close = getattr(getattr(session, "store", None), "close", lambda: None)
    return functools.partial(check, session=session), seconds, close


# ---------------------------------------------------------------------------- metrics


def summarize(results: list[CaseResult]) -> dict[str, Any]:
    positives = [r for r in results if r.case.positive]
    negatives = [r for r in results if not r.case.positive]
    tp = sum(r.tp for r in results)
    fp = sum(r.fp for r in results)
    times = [r.ms for r in results if r.ms is not None]
    return {
        "cases": len(results),
        "positives": len(positives),
        "negatives": len(negatives),
        "tp": tp,
        "fp": fp,
        "fn": len(positives) - tp,
        "precision": tp / (tp + fp) if tp + fp else None,
        "recall": tp / len(positives) if positives else None,
        "clean": sum(1 for r in negatives if not r.fp) / len(negatives) if negatives else None,
        "errors": sum(1 for r in results if r.error),
        "wrong_rule": sum(1 for r in positives if r.wrong_rule),
        "checks": len(times),
        "p50_ms": percentile(times, 0.5) if times else None,
        "p95_ms": percentile(times, 0.95) if times else None,
    }


def group_summaries(results: list[CaseResult], key: Callable[[Case], str]) -> dict[str, Any]:
    groups: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        groups[key(result.case)].append(result)
    return {name: summarize(groups[name]) for name in sorted(groups)}


def report_data(results: list[CaseResult], speed: dict[str, Any] | None) -> dict[str, Any]:
    by_corpus: dict[str, list[CaseResult]] = defaultdict(list)
    by_family: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_corpus[r.corpus].append(r)
        by_family[r.case.category].append(r)
    return {
        "overall": summarize(results),
        "by_language": group_summaries(results, lambda c: c.lang),
        "by_family": {name: summarize(rs) for name, rs in sorted(by_family.items())},
        "by_corpus": {name: summarize(rs) for name, rs in sorted(by_corpus.items())},
        "by_corpus_family": {
            f"{name} {family}": summarize([r for r in rs if r.case.category == family])
            for name, rs in sorted(by_corpus.items())
            for family in sorted({r.case.category for r in rs})
        },
        "by_category": group_summaries(results, lambda c: f"{c.lang} {c.category}"),
        "by_variant": group_summaries(results, lambda c: f"{c.lang} {c.category} {c.variant}"),
        "speed": speed,
    }


# ---------------------------------------------------------------------------- output


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"


def markdown_table(rows: dict[str, dict[str, Any]], title: str) -> str:
    columns = "cases | TP | FN | FP | precision | recall | clean negatives | p50 ms | p95 ms"
    lines = [
        f"| {title} | {columns} |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, s in rows.items():
        recall = f"{_pct(s['recall'])} ({s['tp']}/{s['positives']})" if s["positives"] else "–"
        lines.append(
            f"| {name} | {s['cases']} | {s['tp']} | {s['fn']} | {s['fp']} | "
            f"{_pct(s['precision'])} | {recall} | {_pct(s['clean'])} | "
            f"{_ms(s['p50_ms'])} | {_ms(s['p95_ms'])} |"
        )
    return "\n".join(lines)


def render_markdown(data: dict[str, Any]) -> str:
    rows = {**data["by_family"], **data["by_language"], "all": data["overall"]}
    parts = [
        markdown_table(rows, "family"),
        "",
        markdown_table(data["by_corpus"], "repository"),
        "",
        markdown_table(data["by_corpus_family"], "repository / family"),
        "",
        markdown_table(data["by_variant"], "variant"),
    ]
    applied = data.get("applied")
    if applied:
        parts += ["", render_applied(applied)]
    speed = data.get("speed")
    if speed:
        parts += ["", render_speed(speed)]
    return "\n".join(parts)


def render_applied(applied: dict[str, dict[str, Any]]) -> str:
    lines = [
        "| repository | mode | diff cases | same findings as unapplied | caught (positives) |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for name, modes in applied.items():
        for mode, s in modes.items():
            share = f"{100 * s['agree'] / s['cases']:.1f} %" if s["cases"] else "–"
            lines.append(
                f"| {name} | {mode} | {s['cases']} | {s['agree']} ({share}) | "
                f"{s['caught']}/{s['positives']} |"
            )
    return "\n".join(lines)


def render_speed(speed: dict[str, Any]) -> str:
    return (
        f"Speed on {speed['corpus']}: a {speed['diff_lines']}-line diff over {speed['files']} "
        f"file(s), {speed['mutations']} mutations: {speed['one_shot_ms']:.0f} ms without a "
        f"session, with one: cold {speed['cold_ms']:.0f} ms (load + first check), "
        f"warm {speed['warm_ms']:.0f} ms wall / {speed['warm_cpu_ms']:.0f} ms CPU (median of "
        f"5; parsing the touched files alone: {speed['floor_ms']:.0f} ms wall / "
        f"{speed['floor_cpu_ms']:.0f} ms CPU, so warm = "
        f"{speed['warm_cpu_ms'] / speed['floor_cpu_ms']:.1f}x that floor in CPU); a diff "
        f"whose new versions no check kept: {speed['warm_unseen_cpu_ms']:.0f} ms CPU "
        f"({speed['warm_unseen_cpu_ms'] / speed['floor_cpu_ms']:.1f}x); "
        f"{speed['findings']} findings, {speed['caught']}/{speed['mutations']} mutations "
        f"caught; load average {speed['load']}."
    )


def _finding_text(finding: Any) -> str:
    return f"{finding.rule} @{finding.line}:{finding.column} {finding.message}"


def _line_text(case: Case, line: int) -> str:
    if case.diff:
        return added_lines(case.text).get(line, "").strip()
    lines = case.text.splitlines()
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def render_examples(results: list[CaseResult], limit: int) -> str:
    """Up to ``limit`` misses and false positives per category, with the finding messages."""
    out: list[str] = []
    by_category: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        by_category[f"{result.case.lang} {result.case.category}"].append(result)
    for name in sorted(by_category):
        misses = [r for r in by_category[name] if r.case.positive and not r.caught]
        noisy = [r for r in by_category[name] if r.fp]
        for result in misses[:limit]:
            case = result.case
            assert case.expected is not None
            got = "; ".join(_finding_text(f) for f in result.findings) or "no findings"
            out.append(f"MISS {case.id}  [{case.note}]")
            out.append(f"    line {case.expected[1]}: {_line_text(case, case.expected[1])}")
            out.append(f"    got: {result.error or got}")
        for result in noisy[:limit]:
            out.append(f"FP   {result.case.id}  [{result.case.note}]")
            for finding in result.false_positives[:3]:
                out.append(f"    {_finding_text(finding)}")
                out.append(f"      | {_line_text(result.case, finding.line)}")
    return "\n".join(out)


# ---------------------------------------------------------------------------- applied


@dataclass
class AppliedTally:
    cases: int = 0
    agree: int = 0  # the same (path, line, rule) set as the unapplied check
    positives: int = 0
    caught: int = 0
    not_applied: int = 0  # `git apply` refused the diff (so the case was not run)
    disagreements: list[str] = field(default_factory=list)


def _git_apply(root: Path, diff: str, *, reverse: bool) -> bool:
    done = subprocess.run(
        ["git", "apply", "--whitespace=nowarn", *(["-R"] if reverse else []), "-"],
        cwd=root,
        input=diff.encode("utf-8"),
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def _finding_set(findings: Iterable[Any]) -> frozenset[tuple[str, int, str]]:
    return frozenset((norm_path(f.path), f.line, f.rule) for f in findings)


def _tally(tally: AppliedTally, result: CaseResult, findings: list[Any]) -> None:
    tally.cases += 1
    same = _finding_set(findings) == _finding_set(result.findings)
    tally.agree += same
    if not same and len(tally.disagreements) < 10:
        got = sorted(_finding_set(findings) ^ _finding_set(result.findings))
        tally.disagreements.append(f"{result.case.id}: {got}")
    if result.case.positive:
        tally.positives += 1
        tally.caught += judge(result.case, findings).caught


def applied_runs(
    root: Path, results: list[CaseResult], stale_check: CheckFn, check: CheckFn, fresh: int
) -> dict[str, Any]:
    """Every diff case re-run with the diff written to the files first: against the index
    built before the edit (stale), and for ``fresh`` of them spread over the list, after an
    incremental ``index`` run caught up (as an MCP server or ``astrag watch`` would); the
    files (and the index) are restored after each."""
    index = getattr(sys.modules.get(check.__module__), "index", None)
    diffs = [r for r in results if r.case.diff and not r.error]
    step = max(1, len(diffs) // fresh) if fresh and index else 0
    sampled = {id(r) for r in diffs[::step][:fresh]} if step else set()
    tallies = {"stale": AppliedTally(), "fresh": AppliedTally()}
    for result in diffs:
        text = result.case.text
        if not _git_apply(root, text, reverse=False):
            tallies["stale"].not_applied += 1
            continue
        try:
            _tally(tallies["stale"], result, list(stale_check(root, text, diff=True).findings))
            if id(result) in sampled:
                assert index is not None
                index(root)
                bound, _load, close = with_session(check, root)
                try:
                    findings = list(bound(root, text, diff=True).findings)
                finally:
                    close()
                _tally(tallies["fresh"], result, findings)
        finally:
            _git_apply(root, text, reverse=True)
            if id(result) in sampled:
                index(root)
    return {mode: dataclasses.asdict(t) for mode, t in tallies.items()}


# ---------------------------------------------------------------------------- speed


def speed_run(root: Path, check: CheckFn, *, seed: int, target_lines: int = 200) -> dict[str, Any]:
    """Check one ~``target_lines``-line diff of renames in the largest source files of
    ``root``: once without a session (the index opened by the call, as the CLI does), then
    with one session: cold (the session's load + first check) and warm (a check again; the
    median of five is quoted), in wall and CPU (this process) time; the parse floor (reading
    and extracting the touched files once) is measured the same way in the same run."""
    diff, mutations, files = build_speed_diff(root, seed=seed, target_lines=target_lines)
    started = time.perf_counter()
    check(root, diff, diff=True)
    one_shot = time.perf_counter() - started
    bound, _load, close = with_session(check, root)
    timings, cpu, unseen = [], [], []
    try:
        for _ in range(6):  # cold, then five warm checks: the median is quoted
            started, cpu_started = time.perf_counter(), time.process_time()
            findings = list(bound(root, diff, diff=True).findings)
            timings.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        for _ in range(5):  # warm, but the diff's new versions not kept from a check before
            for kept in root.glob(".astrag/check-old-facts"):
                shutil.rmtree(kept, ignore_errors=True)
            cpu_started = time.process_time()
            bound(root, diff, diff=True)
            unseen.append(time.process_time() - cpu_started)
    finally:
        close()
    floor, floor_cpu = _parse_floor(root, {m.path for m in mutations})
    expected = {(m.path, m.expected_line) for m in mutations}
    caught = {(norm_path(f.path), f.line) for f in findings} & expected
    return {
        "corpus": str(root),
        "diff_lines": len(diff.splitlines()),
        "files": files,
        "mutations": len(mutations),
        "one_shot_ms": one_shot * 1000,
        "cold_ms": timings[0] * 1000,
        "warm_ms": statistics.median(timings[1:]) * 1000,
        "warm_cpu_ms": statistics.median(cpu[1:]) * 1000,
        "warm_unseen_cpu_ms": statistics.median(unseen) * 1000,
        "floor_ms": floor * 1000,
        "floor_cpu_ms": floor_cpu * 1000,
        "findings": len(findings),
        "caught": len(caught),
        "load": round(os.getloadavg()[0], 2),
    }


def _parse_floor(root: Path, paths: set[str]) -> tuple[float, float]:
    """Wall and CPU seconds to read and extract the facts of the files a diff touches, once
    each: the least any check of them must do (median of five)."""
    from astrag.lang import extract_facts

    runs, cpu = [], []
    for _ in range(5):
        started, cpu_started = time.perf_counter(), time.process_time()
        for path in sorted(paths):
            extract_facts(path, (root / path).read_bytes())
        runs.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    return statistics.median(runs), statistics.median(cpu)


def changed_speed(
    root: Path,
    *,
    seed: int,
    files: int = 10,
    runs: int = 5,
    baseline: Path | None = None,
) -> dict[str, Any]:
    """``astrag check --changed`` as a whole process (started as the console script is) on a
    git work tree where ``files`` files were just edited (one rename each, written with ``git
    apply``, undone after), in CPU seconds (user + sys of the child), median of ``runs``
    rounds after a warm-up round. Each round times, interleaved: the *first* check after the
    edit (the index at ``HEAD`` and nothing kept: it refreshes the index and finds the old
    versions), a check *again*, and ``astrag stats`` without refreshing (start and index
    open: the floor). ``baseline``: a source tree of other code (``src/``) timed
    the same way in the same rounds."""
    diff, mutations, count = build_speed_diff(
        root, seed=seed, target_lines=10**9, per_file=1, max_files=files
    )
    codes = {"branch": None, **({"baseline": baseline} if baseline else {})}
    times: dict[str, dict[str, list[float]]] = {c: defaultdict(list) for c in codes}
    loads, out = [], ""
    for round_ in range(runs + 1):  # the first round warms the disk cache and is not counted
        for code, src in codes.items():
            _reset_to_head(root, src)
            if not _git_apply(root, diff, reverse=False):
                raise SystemExit(f"the speed diff does not apply to {root}")
            try:
                for mode in ("first", "again"):
                    seconds, out = _cli_cpu(src, "check", "--changed", "--repo", str(root))
                    if round_:
                        times[code][mode].append(seconds)
                # the index is stale here: stats must not re-index (start + open only)
                seconds, _ = _cli_cpu(src, "stats", "--repo", str(root), ASTRAG_NO_REFRESH="1")
                if round_:
                    times[code]["floor"].append(seconds)
            finally:
                _git_apply(root, diff, reverse=True)
        loads.append(os.getloadavg()[0])
    _reset_to_head(root, None)
    return {
        "corpus": str(root),
        "files": count,
        "diff_lines": len(diff.splitlines()),
        "mutations": len(mutations),
        "findings": len(out.splitlines()),
        "cpu_s": {
            code: {mode: statistics.median(v) for mode, v in modes.items()}
            for code, modes in times.items()
        },
        "load": [round(x, 2) for x in loads],
    }


# byte-compiled modules, as ``pip install`` leaves them, but outside the source tree
_BYTECODE = {"PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "astrag-bench-pycache")}


def _cli_cpu(src: Path | None, *args: str, **extra: str) -> tuple[float, str]:
    """CPU seconds (user + sys) of one ``astrag ARGS`` process (modules byte-compiled, as
    installed), and its stdout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(_BYTECODE, **extra, **({"PYTHONPATH": str(src)} if src else {}))
    command = [sys.executable, "-c", "from astrag.entry import main; main()", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used, done.stdout


def _reset_to_head(root: Path, src: Path | None) -> None:
    """The index at the tree as committed, nothing kept from earlier checks."""
    _cli_cpu(src, "index", str(root), "--embedder", "none")
    for kept in root.glob(".astrag/check-old-facts"):
        shutil.rmtree(kept, ignore_errors=True)


# ---------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=DEFAULT_CORPORA["python"], help="Python corpus root")
    ap.add_argument("--typescript", default=DEFAULT_CORPORA["typescript"], help="TS corpus root")
    ap.add_argument("--lang", choices=("python", "typescript"), action="append")
    ap.add_argument(
        "--corpus", action="append", metavar="LANG:DIR", help="corpora to use instead (repeat)"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-category", type=int, default=30)
    ap.add_argument("--checker", default="astrag.api:check", help="module:function to score")
    ap.add_argument("--examples", type=int, default=0, help="list N misses and FPs per category")
    ap.add_argument("--json", type=Path, help="write the metrics (and per-case results) here")
    ap.add_argument("--speed", type=Path, help="also time a ~200-line diff on this corpus")
    ap.add_argument("--dump-cases", type=Path, help="write the cases as JSONL and stop")
    ap.add_argument("--applied", action="store_true", help="also run every diff case applied")
    ap.add_argument("--fresh", type=int, default=40, help="applied cases re-indexed per corpus")
    ap.add_argument("--no-families", action="store_true", help="only the original categories")
    ap.add_argument(
        "--only", action="append", metavar="FAMILY", help="run only these families (repeat)"
    )
    ap.add_argument(
        "--changed-speed", type=Path, help="time `check --changed` on this git work tree"
    )
    ap.add_argument(
        "--changed-speed-baseline",
        type=Path,
        metavar="SRC",
        help="also time other code (a src/ directory put first on PYTHONPATH), interleaved",
    )
    return ap.parse_args(argv)


def corpus_specs(args: argparse.Namespace) -> list[tuple[str, Path]]:
    if args.corpus:
        specs = []
        for spec in args.corpus:
            lang, _, root = spec.partition(":")
            if lang not in ("python", "typescript", "java") or not root:
                raise SystemExit(f"--corpus {spec!r}: use python:DIR, typescript:DIR or java:DIR")
            specs.append((lang, Path(root)))
        return specs
    return [(lang, Path(getattr(args, lang))) for lang in args.lang or ["python", "typescript"]]


def case_record(case: Case) -> dict[str, Any]:
    return dataclasses.asdict(case)


def result_record(result: CaseResult) -> dict[str, Any]:
    return {
        "id": result.case.id,
        "caught": result.caught,
        "fp": [_finding_text(f) for f in result.false_positives],
        "wrong_rule": [_finding_text(f) for f in result.wrong_rule],
        "elsewhere": [_finding_text(f) for f in result.elsewhere],
        "ms": result.ms,
        "error": result.error,
    }


def corpus_cases(corpus: Any, args: argparse.Namespace) -> list[Case]:
    """The corpus's cases: the original categories, the families unless ``--no-families``
    (self-check among them), only the ``--only`` families when given."""
    only = set(args.only or ())
    if only == {"self-check"}:  # the one family that needs no mutation drawn
        return self_check_cases(corpus)
    cases = build_cases(corpus, seed=args.seed, per_category=args.per_category)
    if not args.no_families:
        cases += family_cases(corpus, seed=args.seed, per_category=args.per_category)
        cases += self_check_cases(corpus)
    return [c for c in cases if c.category in only] if only else cases


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    corpora = [(root.name, load_corpus(root, lang)) for lang, root in corpus_specs(args)]
    cases = {name: corpus_cases(c, args) for name, c in corpora}
    if args.dump_cases:
        with args.dump_cases.open("w") as out:
            for case in (c for listed in cases.values() for c in listed):
                out.write(json.dumps(case_record(case)) + "\n")
        print(f"{sum(map(len, cases.values()))} cases -> {args.dump_cases}")
        return 0
    check = load_checker(args.checker)
    results: list[CaseResult] = []
    session_seconds: dict[str, float] = {}
    applied: dict[str, dict[str, Any]] = {}
    for name, corpus in corpora:
        bound, session_seconds[name], close = with_session(check, corpus.root)
        try:
            corpus_results = run_cases(corpus.root, cases[name], bound)
            if args.applied:
                applied[name] = applied_runs(corpus.root, corpus_results, bound, check, args.fresh)
        finally:
            close()
        for result in corpus_results:
            result.corpus = name
        results += corpus_results
    speed = speed_run(args.speed, check, seed=args.seed) if args.speed else None
    if args.changed_speed:
        baseline = args.changed_speed_baseline
        changed = changed_speed(args.changed_speed, seed=args.seed, baseline=baseline)
        print(json.dumps(changed))
    data = report_data(results, speed)
    data["session_load_seconds"] = session_seconds
    if applied:
        data["applied"] = applied
    print(render_markdown(data))
    if args.examples:
        print()
        print(render_examples(results, args.examples))
    if args.json:
        data["results"] = [result_record(r) for r in results]
        args.json.write_text(json.dumps(data, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
