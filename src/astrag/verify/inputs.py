"""What ``astrag check`` is given, turned into new file versions: a unified diff applied to
the repository's files (or recognised as already applied to them), a whole file, or a snippet
placed at the end of a target file.

Pure functions over text; the caller reads the current file contents (``read_current``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from astrag.verify.diffs import (
    FilePatch,
    InputError,
    looks_like_diff,
    parse_unified_diff,
    safe_path,
)
from astrag.verify.patch import NoMatch, Placed, apply_forward, apply_reverse

__all__ = [
    "ChangeSet",
    "ChangedFile",
    "InputError",
    "change_from_snippet",
    "changes_from_diff",
    "looks_like_diff",
    "safe_path",
]


@dataclass(frozen=True, slots=True)
class ChangedFile:
    """A file as it would be after the change, and which of its lines the change wrote."""

    path: str
    text: str
    lines: frozenset[int] | None  # None: every line counts
    line_offset: int = 0  # reported line = line - offset (a snippet placed after a file)
    old: str | None = None  # the version before the change; None: the change creates it
    old_path: str | None = None  # where the old version lived (a rename), default ``path``


@dataclass(slots=True)
class ChangeSet:
    """What a diff does: new versions of files, and the files it deletes (with what they
    held, from the diff's own lines). Unpacks as ``changed, deleted``."""

    changed: list[ChangedFile] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    deleted_texts: dict[str, str] = field(default_factory=dict)

    def __iter__(self) -> Iterator[list[ChangedFile] | list[str]]:
        yield self.changed
        yield self.deleted


def changes_from_diff(text: str, read_current: Callable[[str], str | None]) -> ChangeSet:
    """New versions of the files a diff touches, and the files it deletes.

    Each file patch is placed on the file as it is now: when its old side matches, the change
    is still to be made (the new version is computed); when instead its new side matches, the
    change was already made (an agent's ``git diff`` after editing) and the file is checked as
    it stands. Either way the same new text and written lines come out."""
    out = ChangeSet()
    for steps in _group_repeats(parse_unified_diff(text)):
        first, last = steps[0], steps[-1]
        if last.new_path is None:
            if first.old_path is not None:
                out.deleted.append(first.old_path)
                out.deleted_texts[first.old_path] = _deleted_text(steps, read_current)
            continue
        new, old = _place(steps, read_current)
        out.changed.append(ChangedFile(last.new_path, new.text, new.added, 0, old, first.old_path))
        if first.old_path is not None and first.old_path != last.new_path:
            out.deleted.append(first.old_path)  # a rename: the old path is gone
    return out


def _place(
    steps: list[FilePatch], read_current: Callable[[str], str | None]
) -> tuple[Placed, str | None]:
    """The new version (with written lines) and the old version of a patched file."""
    old_path, new_path = steps[0].old_path, steps[-1].new_path
    assert new_path is not None
    if old_path is None:  # the diff creates the file
        created = apply_forward("", steps)
        current = read_current(new_path)
        if current is None or _same_text(current, created.text):
            return Placed(created.text if current is None else current, created.added), None
        raise InputError(
            f"the diff creates {new_path}, which already exists with other contents",
            "diff against the repository's current files",
        )
    before = read_current(old_path)
    after = before if old_path == new_path else read_current(new_path)
    if before is None and after is None:
        raise InputError(
            f"the diff changes {old_path}, which does not exist in the repository",
            "diff against the repository's current files",
        )
    failure: NoMatch | None = None
    forward: Placed | None = None
    if before is not None:
        try:
            forward = apply_forward(before, steps)
        except NoMatch as e:
            failure = e
    if forward is not None and forward.shift == 0:
        return forward, before  # the old side sits where the headers say: not applied yet
    if after is not None:
        try:
            old = apply_reverse(after, steps)
        except NoMatch as e:
            failure = failure or e
        else:
            # both sides match somewhere (repeated code): the one nearer the headers decides
            if forward is None or old.shift < forward.shift:
                return Placed(after, old.added), old.text
    if forward is not None:
        return forward, before
    assert failure is not None
    raise failure


def _group_repeats(patches: list[FilePatch]) -> list[list[FilePatch]]:
    """The patches of each file, in order. A diff that patches a file twice means the second
    patch applies to the result of the first, as ``git apply`` reads it."""
    groups: list[list[FilePatch]] = []
    latest: dict[str, list[FilePatch]] = {}  # current path -> its group
    for patch in patches:
        group = latest.pop(patch.old_path, None) if patch.old_path else None
        if group is None:
            group = []
            groups.append(group)
        group.append(patch)
        if patch.new_path is not None:
            latest[patch.new_path] = group
    return groups


def _deleted_text(steps: list[FilePatch], read_current: Callable[[str], str | None]) -> str:
    """What a deleted file held. It must still hold what the diff deletes, or be gone
    already (the diff was applied); either way its lines are the diff's own."""
    path = steps[0].old_path
    current = read_current(path) if path is not None else None
    if current is not None and any(p.hunks for p in steps):
        apply_forward(current, steps)  # raises NoMatch when the contents differ
        return current
    return apply_reverse("", steps).text


def _same_text(a: str, b: str) -> bool:
    return a.replace("\r\n", "\n").rstrip("\n") == b.replace("\r\n", "\n").rstrip("\n")


def change_from_snippet(snippet: str, target: str, existing: str | None) -> ChangedFile:
    """A snippet goes at the end of its target file, so that file's imports and module scope
    apply to it; findings are reported in the snippet's own line numbers."""
    base = existing or ""
    if base and not base.endswith("\n"):
        base += "\n"
    offset = len(base.splitlines())
    text = base + snippet + ("" if snippet.endswith("\n") else "\n")
    lines = frozenset(range(offset + 1, offset + len(snippet.splitlines()) + 1))
    return ChangedFile(target, text, lines, line_offset=offset, old=existing)
