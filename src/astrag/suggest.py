""" "Did you mean": the indexed names closest to one that matched nothing.

Pure: the caller hands over the symbols; the ranking is by name similarity only (difflib's
ratio on case-folded names); a name that differs only in case is the one suggestion when it
exists, so ``userservice`` suggests ``UserService`` and not also ``UserServices``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from astrag.graph.facts import Symbol

CUTOFF = 0.6  # difflib's own default: below it, suggestions are noise


def close_symbols(query: str, symbols: Iterable[Symbol], limit: int = 5) -> list[str]:
    """Up to ``limit`` ways to write what ``query`` probably meant, best first: ids for an id
    (``path::Name``), qualified names otherwise (a plain name is compared with plain names,
    and each close one is offered as the qualified names it has)."""
    query = query.strip()
    if "::" in query:
        spelled = {s.id: [s.id] for s in symbols}
    elif "." in query:
        spelled = _group((s.qualname, s.qualname) for s in symbols if s.qualname)
    else:
        spelled = _group((s.name, s.qualname or s.name) for s in symbols if s.name)
    out: list[str] = []
    for key in close_keys(query, spelled):
        out.extend(q for q in spelled[key] if q not in out)
    return out[:limit]


def close_keys(query: str, keys: Iterable[str], limit: int = 5) -> list[str]:
    """The keys most like ``query``: the ones equal to it but for case if there are any (then
    nothing else is a likelier meaning), else the most similar."""
    folded: dict[str, list[str]] = {}
    for key in keys:
        folded.setdefault(key.casefold(), []).append(key)
    wanted = query.casefold()
    if wanted in folded:
        ranked = [wanted]
    else:
        ranked = difflib.get_close_matches(wanted, list(folded), n=limit, cutoff=CUTOFF)
    out: list[str] = []
    for f in ranked:
        out.extend(sorted(k for k in folded[f] if k != query))
    return out[:limit]


def _group(pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for key, spelling in pairs:
        bucket = grouped.setdefault(key, [])
        if spelling not in bucket:
            bucket.append(spelling)
    for bucket in grouped.values():
        bucket.sort()
    return grouped
