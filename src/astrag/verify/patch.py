"""Applying a file patch forwards (old side -> new) or backwards (new side -> old), the way
``git apply`` places hunks: each hunk's lines must match the file exactly, at the line its
header names or shifted by the offset the previous hunks drifted, searching outwards from
there; hunks never overlap. Pure functions over text.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from astrag.verify.diffs import FilePatch, Hunk, InputError, split_lines


@dataclass(frozen=True, slots=True)
class Placed:
    """The other side of a patched file, and which lines of the *new* side the patch wrote."""

    text: str
    added: frozenset[int]  # 1-based lines in the new version
    shift: int = 0  # lines the hunks sat away from where their headers said, all told


class NoMatch(InputError):
    """A hunk's lines are not in the file: the patch was made against other contents."""


def apply_forward(old: str, steps: list[FilePatch]) -> Placed:
    """The new version of ``old`` after the file's patches, applied in order; added lines
    numbered in it."""
    lines = split_lines(old)
    added: set[int] = set()
    shift = 0
    for patch in steps:
        lines, added, moved = _splice(lines, patch, reverse=False)
        shift += moved
    new = _join(lines)
    return Placed(new, frozenset(added) if len(steps) == 1 else _written(old, new), shift)


def apply_reverse(new: str, steps: list[FilePatch]) -> Placed:
    """The old version of ``new``, a file its patches have already been applied to; added
    lines numbered in ``new``."""
    lines = split_lines(new)
    added: set[int] = set()
    shift = 0
    for patch in reversed(steps):
        lines, added, moved = _splice(lines, patch, reverse=True)
        shift += moved
    old = _join(lines)
    return Placed(old, frozenset(added) if len(steps) == 1 else _written(old, new), shift)


def _written(old: str, new: str) -> frozenset[int]:
    """Lines of ``new`` that are not kept from ``old`` (several patches of one file: their
    own numbering no longer says which lines of the end result they wrote)."""
    matcher = difflib.SequenceMatcher(None, split_lines(old), split_lines(new), autojunk=False)
    return frozenset(
        line + 1
        for tag, _i1, _i2, j1, j2 in matcher.get_opcodes()
        if tag in ("insert", "replace")
        for line in range(j1, j2)
    )


def _join(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _splice(
    source: list[str], patch: FilePatch, *, reverse: bool
) -> tuple[list[str], set[int], int]:
    out: list[str] = []
    added: set[int] = set()  # new-side line numbers of "+" lines
    cursor = 0  # next unconsumed line of source
    drift = 0  # how far the previous hunk sat from where its header said
    shift = 0  # the drifts added up
    for number, hunk in enumerate(patch.hunks, 1):
        wanted = hunk.new_lines() if reverse else hunk.old_lines()
        position = _locate(source, wanted, _expected(hunk, reverse) + drift, cursor)
        if position is None:
            raise NoMatch(
                f"hunk {number} of {patch.name} does not match the file at line "
                f"{_expected(hunk, reverse) + 1}",
                "regenerate the diff against the current files",
            )
        drift = position - _expected(hunk, reverse)
        shift += abs(drift)
        out.extend(source[cursor:position])
        cursor = position
        for body in hunk.lines:
            tag, text = body[0], body[1:]
            if tag == " ":
                out.append(source[cursor])
                cursor += 1
            elif (tag == "+") == reverse:  # present in source: dropped from out
                if reverse:
                    added.add(cursor + 1)
                cursor += 1
            else:  # present only on the side being built
                out.append(text)
                if not reverse:
                    added.add(len(out))
    out.extend(source[cursor:])
    return out, added, shift


def _expected(hunk: Hunk, reverse: bool) -> int:
    """0-based index where the hunk's matched lines start, as its header says; a hunk with
    no lines on that side (``-5,0``) goes *after* the named line."""
    start, count = (hunk.new_start, hunk.new_count) if reverse else (hunk.old_start, hunk.old_count)
    return start if count == 0 else max(start - 1, 0)


def _locate(source: list[str], wanted: list[str], expected: int, floor: int) -> int | None:
    """Where ``wanted`` occurs in ``source`` at or after ``floor``, nearest ``expected``."""
    last = len(source) - len(wanted)
    if last < floor:
        return None
    expected = min(max(expected, floor), last)
    for distance in range(max(expected - floor, last - expected) + 1):
        for position in (expected - distance, expected + distance):
            if floor <= position <= last and source[position : position + len(wanted)] == wanted:
                return position
    return None
