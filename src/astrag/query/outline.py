"""A file's definitions in order, nested: what ``astrag outline FILE`` shows instead of the
file's whole source.

Nesting follows the graph's ``parent`` of each symbol, not indentation: ``res.json = function
json() {}`` sits under the ``res`` it is assigned to even when hundreds of lines separate
them, and a method under its class. Siblings are in source order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from astrag.errors import AstragError
from astrag.graph.facts import Symbol
from astrag.store.base import GraphStore


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    symbol: Symbol
    depth: int  # 0 for a top-level definition


@dataclass(frozen=True, slots=True)
class Outline:
    module: Symbol  # the file's own symbol: its path, language, lines and docstring
    entries: tuple[OutlineEntry, ...]  # depth-first, siblings in source order


def outline(module: Symbol, symbols: Sequence[Symbol]) -> Outline:
    """The tree of ``symbols`` (a file's, module included or not) under ``module``."""
    children: dict[str, list[Symbol]] = {}
    members = [s for s in symbols if s.id != module.id]
    known = {s.id for s in members}
    for s in members:
        # a parent outside the file's symbols (should not happen) makes a top-level entry
        parent = s.parent if s.parent in known else module.id
        children.setdefault(parent, []).append(s)
    for group in children.values():
        group.sort(key=lambda s: (s.start_line, -s.end_line, s.id))
    entries: list[OutlineEntry] = []
    stack = [(s, 0) for s in reversed(children.get(module.id, []))]
    while stack:
        s, depth = stack.pop()
        entries.append(OutlineEntry(s, depth))
        stack.extend((c, depth + 1) for c in reversed(children.get(s.id, [])))
    return Outline(module, tuple(entries))


def file_module(store: GraphStore, path: str) -> Symbol:
    """The module symbol of the indexed file ``path`` (repository-relative, or a unique
    suffix of one); a clear error naming the near misses otherwise."""
    wanted = path.strip().replace("\\", "/").removeprefix("./").strip("/")
    if not wanted:
        raise AstragError("no file given", "pass a repository-relative path such as src/app.py")
    exact = store.get_symbol(wanted)
    if exact is not None and exact.kind == "module":
        return exact
    found = store.all_modules_ending(wanted)
    if len(found) == 1:
        return found[0]
    if found:
        shown = ", ".join(s.path for s in found[:10])
        raise AstragError(
            f"{len(found)} indexed files end with {wanted}: {shown}",
            "pass the whole repository-relative path",
        )
    name = wanted.rsplit("/", 1)[-1]
    similar = store.all_modules_ending(name) if name != wanted else []
    hint = (
        f"did you mean {', '.join(s.path for s in similar[:5])}?"
        if similar
        else "paths are relative to the repository root; run `astrag index` if the file is new"
    )
    raise AstragError(f"no indexed file {wanted}", hint)
