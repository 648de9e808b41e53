"""Unified diffs read as strictly as ``git apply --check`` reads them.

A hunk's body must hold exactly the number of old and new lines its header announces, and a
line that looks like hunk body after a complete hunk is corruption, not something to skip: a
diff git would refuse is refused here, with the reason, instead of being checked as something
it is not. Pure functions over text.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from astrag.errors import AstragError

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
DIFF_HINT = "pass a unified diff as `git diff` writes it, or a whole file without --diff"


class InputError(AstragError):
    """The code to check cannot be read: a malformed diff, a path outside the repository."""


@dataclass(slots=True)
class Hunk:
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    lines: list[str] = field(default_factory=list)  # each "<tag><text>", tag in " -+"

    def old_lines(self) -> list[str]:
        return [body[1:] for body in self.lines if body[0] != "+"]

    def new_lines(self) -> list[str]:
        return [body[1:] for body in self.lines if body[0] != "-"]


@dataclass(slots=True)
class FilePatch:
    old_path: str | None  # None: the diff creates the file
    new_path: str | None  # None: the diff deletes the file
    hunks: list[Hunk] = field(default_factory=list)
    header_line: int = 0  # 1-based line of the ``---`` header, for messages

    @property
    def name(self) -> str:
        return self.new_path or self.old_path or "?"


def split_lines(text: str) -> list[str]:
    """Lines as git counts them: split at ``\\n`` only (a form feed or U+2028 is part of a
    line), without their ``\\n`` / ``\\r\\n`` endings."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def looks_like_diff(text: str) -> bool:
    return bool(re.search(r"^(--- .+\n\+\+\+ .+|diff --git .+)$", text, re.MULTILINE))


def safe_path(path: str) -> str:
    """A repository-relative path with ``/``; refuses absolute paths and ``..``."""
    cleaned = path.strip().replace("\\", "/")
    if not cleaned or cleaned.startswith("/") or re.match(r"^[A-Za-z]:/", cleaned):
        raise InputError(f"{path!r} is not a path inside the repository", "use a relative path")
    if "\x00" in cleaned:
        raise InputError(f"{path!r} holds a NUL byte", "use a plain relative path")
    normal = posixpath.normpath(cleaned)
    if normal == ".." or normal.startswith("../"):
        raise InputError(f"{path!r} points outside the repository", "use a path inside it")
    return normal


def _diff_path(raw: str) -> str | None:
    name = raw.split("\t", 1)[0].strip()
    if name == "/dev/null":
        return None
    if len(name) > 1 and name[0] == name[-1] == '"':  # git quotes unusual names
        name = name[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
    if name.startswith(("a/", "b/")):
        name = name[2:]
    return safe_path(name)


def parse_unified_diff(text: str) -> list[FilePatch]:
    """Every file patch of a unified diff; :class:`InputError` for anything git would refuse."""
    patches: list[FilePatch] = []
    lines = split_lines(text)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            patches.append(FilePatch(_diff_path(line[4:]), _diff_path(lines[i + 1][4:]), [], i + 1))
            i += 2
            continue
        if _HUNK.match(line):
            if not patches:
                raise InputError("a diff hunk comes before any file header", DIFF_HINT)
            hunk, i = _read_hunk(lines, i, patches[-1])
            patches[-1].hunks.append(hunk)
            if i < len(lines) and lines[i][:1] in ("+", "-") and not _is_header(lines, i):
                raise InputError(
                    f"corrupt diff at line {i + 1}: hunk {len(patches[-1].hunks)} of "
                    f"{patches[-1].name} has more lines than its header "
                    f"(-{hunk.old_count} +{hunk.new_count}) says",
                    "fix the @@ counts, or regenerate the diff with `git diff`",
                )
            continue
        i += 1
    if not patches:
        raise InputError("no file headers (--- / +++) found in the diff", DIFF_HINT)
    return patches


def _is_header(lines: list[str], i: int) -> bool:
    return lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")


def _read_hunk(lines: list[str], i: int, patch: FilePatch) -> tuple[Hunk, int]:
    """The hunk whose header is line ``i`` and the index of the line after it."""
    match = _HUNK.match(lines[i])
    assert match is not None
    old_count = int(match.group(2) if match.group(2) is not None else "1")
    new_count = int(match.group(4) if match.group(4) is not None else "1")
    hunk = Hunk(int(match.group(1)), old_count, int(match.group(3)), new_count)
    number, header = len(patch.hunks) + 1, i + 1
    old_left, new_left = old_count, new_count
    i += 1
    while i < len(lines) and (old_left > 0 or new_left > 0):
        body = lines[i]
        tag = body[:1] or " "  # git reads an empty line as an empty context line
        if tag == "\\":  # "\ No newline at end of file"
            i += 1
            continue
        if tag not in " -+" or (tag == " " and (old_left == 0 or new_left == 0)):
            break
        if (tag == "-" and old_left == 0) or (tag == "+" and new_left == 0):
            break
        hunk.lines.append(tag + body[1:])
        old_left -= tag in " -"
        new_left -= tag in " +"
        i += 1
    if old_left or new_left:
        raise InputError(
            f"corrupt diff: hunk {number} of {patch.name} (line {header}) "
            f"announces -{old_count} +{new_count} lines but has "
            f"-{old_count - old_left} +{new_count - new_left}",
            "fix the @@ counts, or regenerate the diff with `git diff`",
        )
    while i < len(lines) and lines[i].startswith("\\"):
        i += 1
    return hunk, i
