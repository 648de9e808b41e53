"""Git plumbing and the commit filters that decide which commits become tasks.

Everything here reads a git directory (bare or not) through the ``git`` command; nothing
writes to it.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

SOURCE_EXTENSIONS = frozenset({".py", ".ts", ".tsx", ".js"})
MAX_SOURCE_FILES = 8
MIN_WORDS = 3

_TEST_DIR = re.compile(r"(^|/)(tests?|specs?|__tests__|__mocks__|e2e)(/|$)", re.IGNORECASE)
_TEST_FILE = re.compile(
    r"(^test_.*\.py$|_test\.py$|^conftest\.py$|\.(spec|test)\.[cm]?[jt]sx?$)", re.IGNORECASE
)
_NON_CODE_DIR = re.compile(r"(^|/)(docs?|examples?)(/|$)", re.IGNORECASE)
_CONVENTIONAL = re.compile(r"^\s*[a-z]+(\([^)]*\))?!?:\s*", re.IGNORECASE)
_PR_NUMBER = re.compile(r"\s*\(?(#\d+|gh-\d+)\)?", re.IGNORECASE)
_TRAILER = re.compile(r"^[A-Za-z][A-Za-z-]*(-by|-authored-by|-Id|-id)?:\s", re.MULTILINE)
_TRAILER_LINE = re.compile(
    r"^(signed-off-by|co-authored-by|reviewed-by|acked-by|change-id|fixes|closes|refs?|"
    r"pr close|cc):.*$",
    re.IGNORECASE | re.MULTILINE,
)
_EXCLUDED_SUBJECT = re.compile(
    r"^(revert\b|release\b|chore\(release\)|chore:\s*release|bump\b|chore\(deps|build\(deps|"
    r"fix\(deps|chore:\s*update dependenc|v?\d+\.\d+(\.\d+)?\b|prepare v?\d|version\b|"
    r"merge\b|(docs|test|tests|ci|build|style)(\([^)]*\))?!?:)",
    re.IGNORECASE,
)
_PR_MERGE = re.compile(r"^Merge pull request #\d+ from ")
_BOT_AUTHOR = re.compile(r"(\[bot\]|renovate|dependabot|greenkeeper)", re.IGNORECASE)


def git(git_dir: Path, *args: str) -> str:
    """stdout of ``git --git-dir=GIT_DIR ARGS``; raises CalledProcessError on failure."""
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", *args],
        check=True, capture_output=True, text=True, errors="replace",
    )  # fmt: skip
    return done.stdout


def git_bytes(git_dir: Path, *args: str) -> bytes:
    done = subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True)
    return done.stdout


def show_file(git_dir: Path, commit: str, path: str) -> bytes | None:
    """The file at ``commit``, or None when it does not exist there."""
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"], capture_output=True
    )
    return done.stdout if done.returncode == 0 else None


def is_source(path: str) -> bool:
    return PurePosixPath(path).suffix in SOURCE_EXTENSIONS and not path.endswith(".d.ts")


def is_test(path: str) -> bool:
    return bool(_TEST_DIR.search(path) or _TEST_FILE.search(PurePosixPath(path).name))


def is_code(path: str) -> bool:
    """A source file that is neither a test nor documentation/examples: where gold can live."""
    return is_source(path) and not is_test(path) and not _NON_CODE_DIR.search(path)


def clean_subject(subject: str) -> str:
    """The subject without PR numbers and surrounding whitespace (prefixes kept)."""
    return re.sub(r"\s+", " ", _PR_NUMBER.sub("", subject)).strip()


def descriptive_words(subject: str) -> list[str]:
    """Words left after stripping the conventional-commit prefix and PR numbers."""
    text = _CONVENTIONAL.sub("", clean_subject(subject))
    return [w for w in re.split(r"\s+", text) if re.search(r"[A-Za-z]", w)]


def strip_trailers(message: str) -> str:
    return _TRAILER_LINE.sub("", message).strip()


@dataclass
class Commit:
    sha: str
    parent: str
    date: str  # author date, ISO 8601
    author: str
    subject: str
    body: str
    merge: bool = False
    files: list[tuple[str, str, str]] = field(default_factory=list)  # (status, old, new)

    @property
    def source_files(self) -> list[str]:
        return sorted({p for _, old, new in self.files for p in (old, new) if p and is_source(p)})

    @property
    def code_files(self) -> list[str]:
        return [p for p in self.source_files if is_code(p)]


def rejection(commit: Commit) -> str | None:
    """Why a commit is not a task, or None when it is one."""
    if _BOT_AUTHOR.search(commit.author):
        return "bot author"
    if _EXCLUDED_SUBJECT.search(commit.subject) or _EXCLUDED_SUBJECT.search(
        _CONVENTIONAL.sub("", commit.subject)
    ):
        return "excluded subject (revert/release/deps/version)"
    if len(descriptive_words(commit.subject)) < MIN_WORDS:
        return "message not descriptive"
    if not commit.code_files:
        return "no non-test source file"
    if len(commit.source_files) > MAX_SOURCE_FILES:
        return f"more than {MAX_SOURCE_FILES} source files"
    return None


def first_parent_commits(git_dir: Path, rev: str, limit: int) -> list[Commit]:
    """The newest ``limit`` commits on ``rev``'s first-parent chain, newest first, with the
    files each changed against its first parent (renames detected).

    A merge commit on that chain stands for the pull request it merged: its diff is taken
    against the first parent and its subject is the PR title (the first line of a GitHub
    "Merge pull request #N from ..." message's body). Other merges keep their "Merge ..."
    subject, which :func:`rejection` refuses. Repositories that merge PRs with merge commits
    (nestjs/graphql, click) would otherwise have almost no first-parent non-merge commits."""
    sep, end = "\x1f", "\x1e"
    out = git(
        git_dir, "log", "--first-parent", f"-n{limit}",
        f"--format=%H{sep}%P{sep}%aI{sep}%an{sep}%s{sep}%b{end}", rev,
    )  # fmt: skip
    commits = []
    for record in out.split(end):
        if not record.strip():
            continue
        sha, parents, date, author, subject, body = record.strip("\n").split(sep, 5)
        parent = parents.split()[0] if parents else ""
        merge = len(parents.split()) > 1
        if merge and _PR_MERGE.match(subject) and body.strip():
            subject, _, body = body.strip().partition("\n")
        commits.append(Commit(sha, parent, date, author, subject, strip_trailers(body), merge))
    for commit in commits:
        if commit.parent:
            commit.files = changed_files(git_dir, commit.parent, commit.sha)
    return commits


def changed_files(git_dir: Path, old: str, new: str) -> list[tuple[str, str, str]]:
    """(status letter, old path, new path) per file; "" for the side that does not exist."""
    out = git(git_dir, "diff", "--name-status", "-M", "-z", old, new)
    parts = out.split("\0")
    files, i = [], 0
    while i < len(parts) and parts[i]:
        status = parts[i][0]
        if status in "RC":
            files.append((status, parts[i + 1], parts[i + 2]))
            i += 3
            continue
        path = parts[i + 1]
        files.append((status, "" if status == "A" else path, "" if status == "D" else path))
        i += 2
    return files


@dataclass
class FileDiff:
    old_path: str  # "" when added
    new_path: str  # "" when deleted
    removed: set[int] = field(default_factory=set)  # old-side lines removed or changed
    insertions: set[int] = field(default_factory=set)  # old line after which lines were added
    added: set[int] = field(default_factory=set)  # new-side lines added or changed


_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_unified_diff(text: str) -> list[FileDiff]:
    """A ``git diff -U0`` (renames detected) as per-file line sets."""
    diffs: list[FileDiff] = []
    current: FileDiff | None = None
    for line in text.splitlines():
        if line.startswith("diff --git "):
            current = FileDiff("", "")
            diffs.append(current)
        elif current is None:
            continue
        elif line.startswith("--- "):
            current.old_path = "" if line[4:] == "/dev/null" else line[6:]
        elif line.startswith("+++ "):
            current.new_path = "" if line[4:] == "/dev/null" else line[6:]
        elif line.startswith("rename from "):
            current.old_path = line[len("rename from ") :]
        elif line.startswith("rename to "):
            current.new_path = line[len("rename to ") :]
        elif (m := _HUNK.match(line)) is not None:
            old_start, old_count = int(m[1]), int(m[2] if m[2] is not None else 1)
            new_start, new_count = int(m[3]), int(m[4] if m[4] is not None else 1)
            if old_count:
                current.removed.update(range(old_start, old_start + old_count))
            else:
                current.insertions.add(old_start)  # -U0: lines were added after old_start
            current.added.update(range(new_start, new_start + new_count))
    return diffs


def commit_diff(git_dir: Path, old: str, new: str, paths: list[str]) -> list[FileDiff]:
    text = git(git_dir, "diff", "-U0", "-M", "--no-color", "--no-ext-diff", old, new, "--", *paths)
    return parse_unified_diff(text)


def language_of_path(path: str) -> bool:
    """Whether astrag's frontends parse ``path`` (a task's new files are overlaid only then)."""
    from astrag.lang import language_of

    return language_of(path) is not None
