"""Aliases as the rooms record them (:data:`astrag.graph.facts.ALIAS`): a variable or field
whose value is another definition's name, and whether the file binds that name again.

Each room finds its own aliases (what an assignment of a whole name looks like, what else
binds a name in its language); marking the definitions it found is the same for all of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from astrag.graph.facts import ALIAS, REBOUND, Definition, DefKind

_HOLDERS = frozenset({DefKind.VARIABLE, DefKind.FIELD})


def marked(
    definitions: Iterable[Definition], aliases: set[str], rebound: set[str]
) -> list[Definition]:
    """``definitions`` with each variable or field whose qualname is in ``aliases`` marked
    :data:`ALIAS`, and :data:`REBOUND` too when it is in ``rebound``; the others as they are."""
    out = []
    for d in definitions:
        if d.kind in _HOLDERS and d.qualname in aliases and ALIAS not in d.modifiers:
            more = (ALIAS, REBOUND) if d.qualname in rebound else (ALIAS,)
            d = dataclasses.replace(d, modifiers=d.modifiers + more)
        out.append(d)
    return out
