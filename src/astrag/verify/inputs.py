"""What ``astrag check`` is given, turned into new file versions: a unified diff applied to
the repository's files, a whole file, or a snippet placed at the end of a target file.

Pure functions over text; the caller reads the old file contents (``read_old``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from astrag.errors import AstragError

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class InputError(AstragError):
    """The code to check cannot be read: a malformed diff, a path outside the repository."""


@dataclass(frozen=True, slots=True)
class ChangedFile:
    """A file as it would be after the change, and which of its lines the change wrote."""

    path: str
    text: str
    lines: frozenset[int] | None  # None: every line counts
    line_offset: int = 0  # reported line = line - offset (a snippet placed after a file)


@dataclass(slots=True)
class _Hunk:
    old_start: int
    new_start: int
    lines: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _FilePatch:
    old_path: str | None
    new_path: str | None
    hunks: list[_Hunk] = field(default_factory=list)


def looks_like_diff(text: str) -> bool:
    return bool(re.search(r"^(--- .+\n\+\+\+ .+|diff --git .+)$", text, re.MULTILINE))


def safe_path(path: str) -> str:
    """A repository-relative path with ``/``; refuses absolute paths and ``..``."""
    cleaned = path.strip().replace("\\", "/")
    if not cleaned or cleaned.startswith("/") or re.match(r"^[A-Za-z]:/", cleaned):
        raise InputError(f"{path!r} is not a path inside the repository", "use a relative path")
    normal = posixpath.normpath(cleaned)
    if normal == ".." or normal.startswith("../"):
        raise InputError(f"{path!r} points outside the repository", "use a path inside it")
    return normal


def _diff_path(raw: str) -> str | None:
    name = raw.split("\t", 1)[0].strip()
    if name == "/dev/null":
        return None
    if name.startswith(("a/", "b/")):
        name = name[2:]
    return safe_path(name)


def parse_unified_diff(text: str) -> list[_FilePatch]:
    patches: list[_FilePatch] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            patches.append(_FilePatch(_diff_path(line[4:]), _diff_path(lines[i + 1][4:])))
            i += 2
            continue
        match = _HUNK.match(line)
        if match:
            if not patches:
                raise InputError("a diff hunk comes before any file header", _DIFF_HINT)
            hunk = _Hunk(int(match.group(1)), int(match.group(3)))
            old_left = int(match.group(2) or "1")
            new_left = int(match.group(4) or "1")
            i += 1
            while i < len(lines) and (old_left > 0 or new_left > 0):
                body = lines[i]
                tag = body[:1] or " "  # an empty context line lost its leading space
                if tag == "\\":  # "\ No newline at end of file"
                    i += 1
                    continue
                if tag not in " -+":
                    break
                hunk.lines.append(tag + body[1:])
                old_left -= tag in " -"
                new_left -= tag in " +"
                i += 1
            patches[-1].hunks.append(hunk)
            continue
        i += 1
    if not patches:
        raise InputError("no file headers (--- / +++) found in the diff", _DIFF_HINT)
    return patches


_DIFF_HINT = "pass a unified diff as `git diff` writes it, or a whole file without --diff"


def _apply(old: str, patch: _FilePatch) -> tuple[str, frozenset[int]]:
    """The new text and the 1-based lines in it that the patch added."""
    old_lines = old.splitlines()
    out: list[str] = []
    added: set[int] = set()
    cursor = 0  # index into old_lines
    for number, hunk in enumerate(patch.hunks, 1):
        start = max(hunk.old_start - 1, 0) if hunk.lines else hunk.old_start
        if start < cursor or start > len(old_lines):
            raise InputError(f"hunk {number} of {patch.new_path} does not apply", _DIFF_HINT)
        out.extend(old_lines[cursor:start])
        cursor = start
        for body in hunk.lines:
            tag, content = body[0], body[1:]
            if tag == "+":
                out.append(content)
                added.add(len(out))
                continue
            if cursor >= len(old_lines) or old_lines[cursor].rstrip() != content.rstrip():
                raise InputError(
                    f"hunk {number} of {patch.new_path} does not match the file at line "
                    f"{cursor + 1}",
                    "regenerate the diff against the current files",
                )
            if tag == " ":
                out.append(old_lines[cursor])
            cursor += 1
    out.extend(old_lines[cursor:])
    return "\n".join(out) + "\n", frozenset(added)


def changes_from_diff(
    text: str, read_old: Callable[[str], str | None]
) -> tuple[list[ChangedFile], list[str]]:
    """New versions of the files a diff touches, and the files it deletes."""
    changed: list[ChangedFile] = []
    deleted: list[str] = []
    for patch in parse_unified_diff(text):
        if patch.new_path is None:
            if patch.old_path is not None:
                deleted.append(patch.old_path)
            continue
        old = "" if patch.old_path is None else read_old(patch.old_path)
        if old is None:
            raise InputError(
                f"the diff changes {patch.old_path}, which does not exist in the repository",
                "diff against the repository's current files",
            )
        new_text, added = _apply(old, patch)
        changed.append(ChangedFile(patch.new_path, new_text, added))
        if patch.old_path is not None and patch.old_path != patch.new_path:
            deleted.append(patch.old_path)  # a rename: the old path is gone
    return changed, deleted


def change_from_snippet(snippet: str, target: str, existing: str | None) -> ChangedFile:
    """A snippet goes at the end of its target file, so that file's imports and module scope
    apply to it; findings are reported in the snippet's own line numbers."""
    base = existing or ""
    if base and not base.endswith("\n"):
        base += "\n"
    offset = len(base.splitlines())
    text = base + snippet + ("" if snippet.endswith("\n") else "\n")
    lines = frozenset(range(offset + 1, offset + len(snippet.splitlines()) + 1))
    return ChangedFile(target, text, lines, line_offset=offset)
