"""The code in an LLM's answer: fenced blocks, the file each one goes into, and the one set of
new file versions they make together.

All blocks of an answer are laid over the repository as a single change, because an answer
that adds ``find_by_email`` in one block and calls it in the next is right, and checking the
blocks one by one would call it a hallucination. Every written line remembers the block and the
line it came from, so findings can be reported where the model wrote them.

Pure functions over text; the caller supplies the repository's current files (``read``).
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field

from astrag.errors import AstragError
from astrag.lang import language_of
from astrag.verify.inputs import (
    ChangedFile,
    InputError,
    changes_from_diff,
    looks_like_diff,
    safe_path,
)

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_PATH_KEYS = ("path", "file", "filename", "title", "name")
# a first line that names the file: "# path: src/x.py", "// src/x.ts"
_PATH_COMMENT = re.compile(r"^\s*(?:#|//)\s*(?:(?:path|file|filename)\s*:\s*)?(\S+\.\w+)\s*$")
_LANG_EXTENSIONS = {
    "python": ".py", "py": ".py", "python3": ".py", "py3": ".py",
    "typescript": ".ts", "ts": ".ts", "tsx": ".tsx",
    "javascript": ".js", "js": ".js", "jsx": ".jsx", "mjs": ".mjs", "cjs": ".cjs", "node": ".js",
}  # fmt: skip
_DIFF_LANGS = ("diff", "patch", "udiff")
_HUNK_HEADER = re.compile(r"^@@.*$")
Reader = Callable[[str], str | None]  # a repository path -> its current text, or None


@dataclass(frozen=True, slots=True)
class CodeBlock:
    index: int  # 1-based, in the order of the answer
    lang: str  # the fence's language, lowercased; "" when none
    path: str | None  # the file it names (fence info line or a first-line comment)
    text: str
    answer_line: int  # the answer's line where the code starts

    @property
    def is_diff(self) -> bool:
        return self.lang in _DIFF_LANGS or looks_like_diff(self.text)


def extract_blocks(answer: str) -> list[CodeBlock]:
    """Fenced code blocks (``` or ~~~, CommonMark closing rules); an unclosed last fence —
    an answer cut at max_tokens — runs to the end."""
    lines = answer.splitlines()
    blocks: list[CodeBlock] = []
    i = 0
    while i < len(lines):
        opened = _FENCE.match(lines[i])
        if not opened or (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            i += 1  # not a fence (``` inside the info string makes it inline code)
            continue
        fence = opened.group(1)
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            closing = _FENCE.match(lines[j])
            if (
                closing
                and not closing.group(2).strip()
                and closing.group(1)[0] == fence[0]
                and len(closing.group(1)) >= len(fence)
            ):
                break
            body.append(lines[j])
            j += 1
        lang, path = parse_info(opened.group(2))
        if path is None and body:
            named = _PATH_COMMENT.match(body[0])
            if named and language_of(named.group(1)):
                path = named.group(1)
        text = "\n".join(body) + "\n" if body else ""
        blocks.append(CodeBlock(len(blocks) + 1, lang, path, text, i + 2))
        i = j + 1
    return blocks


def parse_info(info: str) -> tuple[str, str | None]:
    """The language and the path on a fence's info line: ``python path=src/x.py``,
    ``python title="src/x.py"``, ``python:src/x.py``, ``src/x.py``, ``python src/x.py``."""
    try:
        tokens = shlex.split(info)
    except ValueError:  # an unbalanced quote
        tokens = info.split()
    lang = ""
    path: str | None = None
    for position, token in enumerate(tokens):
        key, sep, value = token.partition("=")
        if sep and key.lower() in _PATH_KEYS:
            path = value.strip("\"'") or path
            continue
        if sep:
            continue  # another attribute (linenums=1, ...)
        if position == 0:
            name, colon, rest = token.partition(":")
            if colon and rest:
                lang, path = name.lower(), rest
            elif "/" in token or language_of(token):
                path = token
            else:
                lang = token.lower().lstrip(".{").rstrip("}")
        elif path is None and ("/" in token or language_of(token)):
            path = token
    return lang, path


# ------------------------------------------------------------------ diffs as models write them


def normalise_diff(text: str, read: Callable[[str], str | None]) -> tuple[str, list[str]]:
    """A model's unified diff made appliable where that is unambiguous: hunk line counts
    recounted from the hunk bodies, and a hunk whose old lines are not at the line its header
    says moved to the one place in the file where they are (models rarely get line numbers
    right; ``patch`` does the same with its offset search). A hunk that matches nowhere, or in
    more than one place, is left alone, and said why in the second value: a line the model
    remembered wrongly is what it must be told to fix."""
    lines = text.splitlines()
    out: list[str] = []
    unplaced: list[str] = []
    old_lines: list[str] | None = None
    old_path = ""
    hunk_number = 0
    cursor = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            old_path, old_lines = _old_file(line[4:], read)
            cursor = hunk_number = 0
            out += [line, lines[i + 1]]
            i += 2
            continue
        if not _HUNK_HEADER.match(line):
            out.append(line)
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not _ends_hunk(lines, j):
            j += 1
        body = lines[i + 1 : j]
        while body and not body[-1].strip():
            body.pop()  # blank lines before the next header separate; they are not context
        body = [b if b[:1] in (" ", "-", "+", "\\") else " " + b for b in body]
        old = [b[1:] for b in body if b[:1] in (" ", "-")]
        new_count = sum(b[:1] in (" ", "+") for b in body)
        hunk_number += 1
        start = _hunk_start(line, old, old_lines, cursor)
        if old_lines is not None and old:
            if _matches(old_lines, start - 1, old):
                cursor = start - 1 + len(old)
            else:
                unplaced.append(_unplaced(old_path, hunk_number, old, old_lines))
        out.append(f"@@ -{start},{len(old)} +{max(start, 1)},{new_count} @@")
        out.extend(body)
        i = j
    return "\n".join(out) + "\n", unplaced


def _matches(file: list[str], start: int, old: list[str]) -> bool:
    window = file[start : start + len(old)] if start >= 0 else []
    return len(window) == len(old) and all(
        w.rstrip() == o.rstrip() for w, o in zip(window, old, strict=True)
    )


def _unplaced(path: str, number: int, old: list[str], file: list[str]) -> str:
    present = {line.strip() for line in file}
    missing = next((o for o in old if o.strip() not in present), None)
    if missing is not None:
        return f"hunk {number} of {path}: the line `{missing.strip()}` is not in the file"
    return (
        f"hunk {number} of {path}: its context and removed lines do not appear together, in "
        "that order, exactly once in the file"
    )


def _ends_hunk(lines: list[str], j: int) -> bool:
    line = lines[j]
    if _HUNK_HEADER.match(line) or line.startswith("diff --git "):
        return True
    return line.startswith("--- ") and j + 1 < len(lines) and lines[j + 1].startswith("+++ ")


def _old_file(header: str, read: Callable[[str], str | None]) -> tuple[str, list[str] | None]:
    name = header.split("\t", 1)[0].strip()
    if name == "/dev/null":
        return name, []
    name = name[2:] if name.startswith(("a/", "b/")) else name
    try:
        text = read(safe_path(name))
    except AstragError:
        return name, None
    return name, None if text is None else text.splitlines()


def _hunk_start(header: str, old: list[str], file: list[str] | None, cursor: int) -> int:
    """The 1-based line the hunk's old lines start at (0 for an insertion into an empty file)."""
    said = re.match(r"^@@ -(\d+)", header)
    stated = int(said.group(1)) if said else 0
    if file is None or not old:
        return stated if said else (0 if not file else len(file))
    if stated and _matches(file, stated - 1, old):
        return stated
    places = [s for s in range(cursor, len(file) - len(old) + 1) if _matches(file, s, old)]
    return places[0] + 1 if len(places) == 1 else stated or 1


# ------------------------------------------------------------------ the change set


@dataclass(frozen=True, slots=True)
class Origin:
    block: int
    line: int  # in the block's own numbering for snippets, in the new file's otherwise


@dataclass(frozen=True, slots=True)
class BlockProblem:
    """A block that could not be checked: a diff that does not apply, a path outside."""

    block: int
    path: str | None
    message: str


@dataclass(slots=True)
class ChangeSet:
    files: dict[str, str] = field(default_factory=dict)  # path -> new text
    written: dict[str, dict[int, Origin]] = field(default_factory=dict)  # new-file line ->
    deleted: set[str] = field(default_factory=set)
    problems: list[BlockProblem] = field(default_factory=list)
    checked: list[int] = field(default_factory=list)  # blocks laid over the repository
    skipped: list[int] = field(default_factory=list)  # blocks in languages astrag cannot check

    def changed_files(self) -> list[ChangedFile]:
        return [
            ChangedFile(path, text, frozenset(self.written.get(path, {})))
            for path, text in sorted(self.files.items())
        ]


def build_changes(blocks: list[CodeBlock], read: Callable[[str], str | None]) -> ChangeSet:
    """Lay every checkable block over the repository, in answer order."""
    changes = ChangeSet()

    def current(path: str) -> str | None:
        if path in changes.files:
            return changes.files[path]
        return None if path in changes.deleted else read(path)

    for block in blocks:
        try:
            if block.is_diff:
                _apply_diff(changes, block, current)
            elif not _apply_code(changes, block, current):
                changes.skipped.append(block.index)
                continue
            changes.checked.append(block.index)
        except AstragError as exc:
            changes.problems.append(BlockProblem(block.index, block.path, exc.message))
    return changes


def _apply_diff(changes: ChangeSet, block: CodeBlock, current: Reader) -> None:
    text, unplaced = normalise_diff(block.text, current)
    if unplaced:
        raise InputError("; ".join(unplaced), "copy the context lines exactly from the file")
    new_files, deleted = changes_from_diff(text, current)
    for changed in new_files:
        if language_of(changed.path) is None:
            continue  # a README or a config file in the same diff: not code astrag checks
        fresh = {line: Origin(block.index, line) for line in changed.lines or ()}
        _carry(changes, changed.path, changed.text, fresh)
    for path in deleted:
        changes.files.pop(path, None)
        changes.written.pop(path, None)
        changes.deleted.add(path)


def _apply_code(changes: ChangeSet, block: CodeBlock, current: Reader) -> bool:
    """Lay a code block over its file; False when astrag cannot check its language."""
    if block.path is not None:
        path = safe_path(block.path)
        if language_of(path) is None:
            return False
    else:
        ext = _LANG_EXTENSIONS.get(block.lang)
        if ext is None:
            return False
        path = f"<snippet>{ext}"  # blocks without a path: one scratch file per language
    existing = current(path) if not path.startswith("<") else changes.files.get(path)
    code = block.text.splitlines()
    if not existing or not existing.strip():
        fresh = {n: Origin(block.index, n) for n in range(1, len(code) + 1)}
        _carry(changes, path, block.text, fresh)
    elif _is_whole_file(block.text, existing):
        old = existing.splitlines()
        fresh = {n: Origin(block.index, n) for n in _new_lines(old, code)}
        _carry(changes, path, block.text, fresh)
    else:
        # a snippet: appended, so the file's imports and module scope apply to it
        base = existing if existing.endswith("\n") else existing + "\n"
        offset = len(base.splitlines())
        fresh = {offset + n: Origin(block.index, n) for n in range(1, len(code) + 1)}
        _carry(changes, path, base + block.text, fresh)
    return True


def _is_whole_file(code: str, existing: str) -> bool:
    """Whether a block is the file's whole new version rather than code to add to it: it
    starts like the file, or repeats most of the file's lines."""
    if code.startswith(existing[:200]):
        return True
    old = {line.strip() for line in existing.splitlines() if line.strip()}
    new = {line.strip() for line in code.splitlines() if line.strip()}
    return bool(old) and len(old & new) >= 0.6 * len(old)


def _new_lines(old: list[str], new: list[str]) -> list[int]:
    """1-based lines of ``new`` that are not unchanged lines of ``old``."""
    kept: set[int] = set()
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            kept.update(range(j1 + 1, j2 + 1))
    return [n for n in range(1, len(new) + 1) if n not in kept]


def _carry(changes: ChangeSet, path: str, text: str, fresh: dict[int, Origin]) -> None:
    """Record ``path``'s new text; lines earlier blocks wrote keep their origin where they
    survive (found through a line diff), and ``fresh`` lines belong to this block."""
    earlier = changes.written.get(path, {})
    moved: dict[int, Origin] = {}
    if earlier:
        old = changes.files[path].splitlines()
        matcher = difflib.SequenceMatcher(None, old, text.splitlines(), autojunk=False)
        for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
            if tag == "equal":
                for line in range(i1 + 1, i2 + 1):
                    if line in earlier:
                        moved[line - i1 + j1] = earlier[line]
    changes.files[path] = text
    changes.written[path] = {**moved, **fresh}
    changes.deleted.discard(path)
