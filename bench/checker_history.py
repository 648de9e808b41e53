"""False positives of ``astrag check`` on a project's own history.

A commit that landed in a real project is, for the checker's purposes, correct code: every
name it uses existed in the tree it was written against or in the commit itself. So for each
of the most recent non-merge commits C touching source files under ``--subdir``, this script
extracts the subdir's tree at C^ into a temporary directory, indexes it, and checks the diff
C^..C (paths relative to the subdir) against that index. Any finding is a false-positive
candidate; ``--examples N`` prints findings with the new-file line they point at.

The subdir is checked as if it were the whole repository, so imports leaving it are external
(never reported); keep it small enough to index in a few seconds. ``--keep DIR`` (repeat it)
instead keeps several directories at their places in the repository (paths stay
repository-relative): ``--keep jsonrpc/src --keep server/src --keep protocol/src``.

    python3 bench/checker_history.py --git-dir /path/to/nestjs-graphql.git \
        --subdir packages/graphql --commits 40 --examples 20 --json /tmp/gql.json
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from astrag import api
from astrag.verify.findings import Finding

SOURCE_EXTS = (".ts", ".tsx", ".py", ".java")
MAX_CHANGED_LINES = 400  # bigger commits are mostly moves/rewrites; slow and unrepresentative


@dataclass(slots=True)
class Commit:
    sha: str
    subject: str
    files: list[str]  # source files under the subdir, repository-relative
    changed: int  # added + deleted lines in those files


@dataclass(slots=True)
class FindingRow:
    path: str
    line: int
    column: int
    rule: str
    message: str
    code: str  # the line in the new file the finding points at


@dataclass(slots=True)
class CommitResult:
    sha: str
    subject: str
    files: int
    changed: int
    index_seconds: float
    cold_seconds: float  # open a check session + first check
    warm_seconds: float  # the same check again on the open session
    findings: list[FindingRow] = field(default_factory=list)
    error: str = ""


def git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True
    ).stdout


def is_source(path: str) -> bool:
    return path.endswith(SOURCE_EXTS)


def select_commits(
    git_dir: Path, subdir: str, want: int, rev: str, keep: tuple[str, ...] = ()
) -> list[Commit]:
    """The newest ``want`` non-merge commits that add source lines under ``subdir`` (or the
    ``keep`` directories)."""
    # One streaming `git log --numstat` instead of a process per candidate commit.
    proc = subprocess.Popen(
        ["git", f"--git-dir={git_dir}", "log", "--no-merges", "--numstat", "--no-renames",
         "--format=%x00%H%x09%P%x09%s", rev, "--", *(keep or [subdir or "."])],
        stdout=subprocess.PIPE, text=True, errors="replace",
    )  # fmt: skip
    assert proc.stdout is not None
    chosen: list[Commit] = []
    try:
        for block in _commit_blocks(proc.stdout):
            commit = _commit_from_block(block, subdir, keep)
            if commit is not None:
                chosen.append(commit)
                if len(chosen) >= want:
                    break
    finally:
        proc.kill()
        proc.wait()
    return chosen


def _commit_blocks(lines: Iterable[str]) -> Iterator[list[str]]:
    """Split `git log` output into one list of lines per commit (headers start with NUL)."""
    block: list[str] = []
    for line in lines:
        if line.startswith("\x00") and block:
            yield block
            block = []
        if line.strip():
            block.append(line.rstrip("\n"))
    if block:
        yield block


def _commit_from_block(block: list[str], subdir: str, keep: tuple[str, ...] = ()) -> Commit | None:
    sha, parents, subject = block[0].lstrip("\x00").split("\t", 2)
    if not parents.strip():
        return None  # root commit: nothing to check against
    prefix = tuple(f"{d}/" for d in keep) or (f"{subdir}/" if subdir else "")
    files: list[str] = []
    added = deleted = 0
    for row in block[1:]:
        a, d, path = row.split("\t", 2)
        if a == "-" or not path.startswith(prefix) or not is_source(path):
            continue  # binary or outside the scope
        added, deleted = added + int(a), deleted + int(d)
        files.append(path)
    if not files or added == 0 or added + deleted > MAX_CHANGED_LINES:
        return None  # no source, deletions only, or too big
    return Commit(sha, subject, files, added + deleted)


def extract_tree(
    git_dir: Path, rev: str, subdir: str, dest: Path, keep: tuple[str, ...] = ()
) -> Path:
    """``git archive rev subdir | tar -x`` into ``dest``; returns the subdir's root there (with
    ``keep``: those directories, and ``dest`` as the root)."""
    try:
        paths = list(keep) or ([subdir] if subdir else [])
        data = git(git_dir, "archive", "--format=tar", rev, *paths)
    except subprocess.CalledProcessError:
        data = b""  # the subdir is new in C: check against an empty tree
    if data:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(dest, filter="data")
    root = dest / subdir
    root.mkdir(parents=True, exist_ok=True)
    return root


def commit_diff(git_dir: Path, commit: Commit, subdir: str) -> str:
    relative = [f"--relative={subdir}"] if subdir else []
    out = git(git_dir, "diff", "--no-renames", *relative, f"{commit.sha}^", commit.sha,
              "--", *commit.files)  # fmt: skip
    return out.decode("utf-8", errors="replace")


def new_file_lines(git_dir: Path, sha: str, path: str) -> list[str]:
    try:
        return git(git_dir, "show", f"{sha}:{path}").decode("utf-8", "replace").splitlines()
    except subprocess.CalledProcessError:
        return []


def check_commit(
    git_dir: Path, subdir: str, commit: Commit, work: Path, keep: tuple[str, ...] = ()
) -> CommitResult:
    """Index C^'s subdir in a fresh directory under ``work`` and check the diff C^..C."""
    result = CommitResult(commit.sha, commit.subject, len(commit.files), commit.changed, 0, 0, 0)
    tmp = Path(tempfile.mkdtemp(dir=work))
    try:
        root = extract_tree(git_dir, f"{commit.sha}^", subdir, tmp, keep)
        diff = commit_diff(git_dir, commit, subdir)
        t0 = time.perf_counter()
        api.index(root)
        t1 = time.perf_counter()
        session = api.open_check_session(root)
        try:
            report = api.check(root, diff, diff=True, session=session)
            t2 = time.perf_counter()
            api.check(root, diff, diff=True, session=session)
            t3 = time.perf_counter()
        finally:
            session.store.close()
        result.index_seconds, result.cold_seconds, result.warm_seconds = t1 - t0, t2 - t1, t3 - t2
        result.findings = _rows(git_dir, subdir, commit.sha, report.findings)
    except Exception as exc:  # a crash is a result to report, not a reason to stop the run
        result.error = f"{type(exc).__name__}: {exc}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return result


def _rows(git_dir: Path, subdir: str, sha: str, findings: list[Finding]) -> list[FindingRow]:
    cache: dict[str, list[str]] = {}
    rows = []
    for f in findings:
        if f.path not in cache:
            full = f"{subdir}/{f.path}" if subdir else f.path
            cache[f.path] = new_file_lines(git_dir, sha, full)
        lines = cache[f.path]
        code = lines[f.line - 1].strip() if 0 < f.line <= len(lines) else ""
        rows.append(FindingRow(f.path, f.line, f.column, f.rule, f.message, code))
    return rows


def summarise(results: list[CommitResult]) -> dict:
    ok = [r for r in results if not r.error]
    clean = sum(1 for r in ok if not r.findings)
    by_rule = Counter(f.rule for r in ok for f in r.findings)

    def med(xs: list[float]) -> float:
        return round(statistics.median(xs), 4) if xs else 0.0

    return {
        "commits": len(results),
        "errors": len(results) - len(ok),
        "zero_findings": clean,
        "zero_findings_share": round(clean / len(ok), 4) if ok else 0.0,
        "findings": sum(by_rule.values()),
        "by_rule": dict(by_rule.most_common()),
        "median_index_seconds": med([r.index_seconds for r in ok]),
        "median_cold_check_seconds": med([r.cold_seconds for r in ok]),
        "median_warm_check_seconds": med([r.warm_seconds for r in ok]),
    }


def print_report(summary: dict, results: list[CommitResult], examples: int) -> None:
    s = summary
    print(f"commits checked      {s['commits']}  (errors: {s['errors']})")
    print(f"zero findings        {s['zero_findings']}  ({s['zero_findings_share']:.1%})")
    print(f"findings             {s['findings']}  {s['by_rule']}")
    print(f"median index         {s['median_index_seconds']:.3f}s")
    print(f"median check         cold {s['median_cold_check_seconds']:.3f}s  "
          f"warm {s['median_warm_check_seconds']:.3f}s")  # fmt: skip
    for r in results:
        if r.error:
            print(f"ERROR {r.sha[:10]} {r.subject[:60]}: {r.error}")
    shown = 0
    for r in results:
        for f in r.findings:
            if shown >= examples:
                return
            shown += 1
            print(f"\n{r.sha[:10]} {r.subject[:70]}")
            print(f"  {f.path}:{f.line}:{f.column} {f.rule} {f.message}")
            print(f"  | {f.code}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--git-dir", type=Path, required=True, help="a (bare) clone with history")
    ap.add_argument("--subdir", default="", help="keep only this directory, e.g. packages/x")
    ap.add_argument("--keep", action="append", default=[], help="keep this directory (repeat)")
    ap.add_argument("--commits", type=int, default=40)
    ap.add_argument("--rev", default="HEAD", help="walk history back from here")
    ap.add_argument("--examples", type=int, default=0, help="print the first N findings")
    ap.add_argument("--json", type=Path, help="write the full report here")
    args = ap.parse_args(argv)
    subdir = args.subdir.strip("/")
    keep = tuple(d.strip("/") for d in args.keep)
    if keep and subdir:
        raise SystemExit("pass --subdir or --keep, not both")
    commits = select_commits(args.git_dir, subdir, args.commits, args.rev, keep)
    results: list[CommitResult] = []
    with tempfile.TemporaryDirectory(prefix="astrag-history-") as work:
        for i, commit in enumerate(commits, 1):
            r = check_commit(args.git_dir, subdir, commit, Path(work), keep)
            results.append(r)
            print(f"[{i}/{len(commits)}] {commit.sha[:10]} {len(r.findings)} findings "
                  f"index {r.index_seconds:.1f}s {r.error}", file=sys.stderr)  # fmt: skip
    summary = summarise(results)
    print_report(summary, results, args.examples)
    if args.json:
        report = {"git_dir": str(args.git_dir), "subdir": subdir, "summary": summary,
                  "commits": [asdict(r) for r in results]}  # fmt: skip
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
