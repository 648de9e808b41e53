"""What the working tree changed, as the checker's input: ``astrag check --changed``.

The natural call after an agent edits files needs no diff at all: git already knows what
changed. The tracked changes against ``HEAD`` (or a named base) come from ``git diff`` and go
through the same diff reader as any other diff (found already applied, so every file is checked
as it stands); new files git does not track yet are added whole. Reading files is left to the
caller's ``read_current``, which refuses what is not a regular file inside the repository.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from astrag.lang import language_of
from astrag.verify.diffs import InputError
from astrag.verify.inputs import ChangedFile, ChangeSet, changes_from_diff

_GIT_TIMEOUT = 60.0


def working_tree_changes(
    root: Path, base: str | None, read_current: Callable[[str], str | None]
) -> ChangeSet:
    """The source files the working tree under ``root`` changed against ``base`` (``HEAD``),
    and those it deleted."""
    ref = base or "HEAD"
    if ref.startswith("-") or "\x00" in ref:
        raise InputError(f"{ref!r} is not a git revision", "pass --base BRANCH, TAG or COMMIT")
    _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", what=f"revision {ref}")
    diff = _git(
        root, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames",
        "--relative", "-U3", ref, "--", ".", what="the working tree's diff",
    )  # fmt: skip
    found = changes_from_diff(diff, read_current) if diff.strip() else ChangeSet()
    found.changed = [c for c in found.changed if language_of(c.path) is not None]
    found.deleted = [d for d in found.deleted if language_of(d) is not None]
    untracked = _git(
        root, "ls-files", "--others", "--exclude-standard", "-z", "--", ".", what="new files"
    )
    for rel in sorted(p for p in untracked.split("\x00") if p and language_of(p) is not None):
        text = read_current(rel)
        if text is not None:
            found.changed.append(ChangedFile(rel, text, None, old=None))
    return found


def _git(root: Path, *args: str, what: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=_GIT_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        raise InputError("git is not installed", "install git, or pass the diff itself") from None
    except subprocess.TimeoutExpired:
        raise InputError(f"git took over {_GIT_TIMEOUT:.0f} s to list {what}", "retry") from None
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = detail[-1] if detail else f"git exited {done.returncode}"
        if "not a git repository" in reason:
            raise InputError(
                f"{root} is not in a git work tree", "pass the diff itself instead of --changed"
            )
        if what.startswith("revision"):
            raise InputError(f"git knows no {what}", "pass --base BRANCH, TAG or COMMIT")
        raise InputError(f"cannot read {what}: {reason}", "check the revision and the repository")
    return done.stdout.decode("utf-8", "replace")
