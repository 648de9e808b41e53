"""Who calls a symbol and what it calls: the graph's call edges, what those calls may dispatch
to, and the call sites the graph could not resolve that may reach the symbol.

The graph keeps the precise edge: ``Router.app`` calls ``BaseRoute.matches`` when its receiver
is typed ``BaseRoute``. At run time that call runs ``Route.matches`` or ``Mount.matches``, and a
person asking who calls ``Route.matches`` means ``Router.app`` too. Two relations are derived
here, at query time, and labelled so that neither is mistaken for an edge of the graph:

* **dispatch**: for callers, a call resolved to a method the symbol overrides or implements,
  transitively (``Router.app`` *via* ``BaseRoute.matches``); for callees, the overriders and
  implementers of a called method (a call of ``BaseRoute.matches`` may run ``Route.matches``).
* **candidate**: a call the resolver could not tie to a definition whose placeholder may denote
  the symbol: an unknown receiver calling the same member name (``unresolved::?.matches``), an
  unbound name for a top-level definition (``unresolved::matches``), or a class of the symbol's
  own hierarchy that lacks the member (``unresolved::BaseRoute.matches``: a base class calling a
  ``self.matches()`` it leaves to subclasses). Unverified; one per call site, the sites nearest
  the symbol first (its own file, files importing it, its directory, then the rest; tests,
  examples and other support files last).
  A function or method *used as a value* — passed as an argument, stored in an object or a
  variable, exported in one, rendered (``[asJsonSym]: asJson``, ``app.use(handler)``,
  ``<Button/>``) — may be called
  through that value, which the graph does not follow: each such read is a candidate too,
  ``through`` :data:`AS_VALUE`.

* **alias**: a call of a variable or field whose value is the symbol (``compat = real`` then
  ``compat()``; express's ``res.contentType = res.type = function contentType() {}`` then
  ``res.contentType(…)``), ``through`` the alias called; an alias of an alias too, a few hops
  deep (:data:`astrag.graph.facts.ALIAS`: the language rooms mark them). As certain as a
  direct call, unless an alias on the way is assigned again in its file (``REBOUND``): then
  each call of it is a candidate, ``through`` that alias, and what it holds is unverified.
  An alias's own read of the symbol is not listed as a value use when calls of it are.

A symbol reached directly is not listed again through dispatch. Candidates are looked up for
the asked symbol only, not at every level of a deeper walk: a guess about a guess is noise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from astrag.graph.facts import (
    ALIAS,
    CLASS_KINDS,
    FUNCTION_KINDS,
    REBOUND,
    DefKind,
    Edge,
    EdgeKind,
    PlaceholderKind,
    RefKind,
    Symbol,
)
from astrag.search.support import is_support
from astrag.store.base import GraphStore

DIRECT = "direct"
DISPATCH = "dispatch"
CANDIDATE = "candidate"
ALIASED = ALIAS  # a caller through an alias: link "alias"
LINKS = (DIRECT, DISPATCH, CANDIDATE, ALIASED)
AS_VALUE = "value"  # a CANDIDATE's ``through`` when the site reads the symbol as a value

_CALLS = (str(EdgeKind.CALLS),)
_READS = (str(EdgeKind.REFERENCES),)
_CONTAINS = (str(EdgeKind.CONTAINS),)
_HIERARCHY = (str(EdgeKind.OVERRIDES), str(EdgeKind.IMPLEMENTS))
_INHERITANCE = (str(EdgeKind.INHERITS), str(EdgeKind.IMPLEMENTS))
_MAX_HOPS = 50  # override chains and class hierarchies are short; a bad graph must not loop
_ALIAS_HOPS = 4  # ``a = b = c = fn``: aliases of aliases are few; more is a guess
_HOLDERS = frozenset({DefKind.VARIABLE, DefKind.FIELD})
SITES_IN_NOTE = 5
_CONSTRUCTOR = "constructor"  # the modifier every room gives a class's constructor
_SITE_KINDS = frozenset({RefKind.READ, RefKind.TYPE, RefKind.NEW})
# references into symbols, each with its site's kind (a RefKind; "" where the facts record
# none), by the symbol referenced: read once a query, since telling the kinds apart decodes
# the facts of every file they are in, and constructions, reads as a value and `references`
# all ask them of one class
Sites = dict[str, list[tuple[Edge, str]]]


@dataclass(frozen=True, slots=True)
class Related:
    """A symbol reached from another one over the call graph, and how."""

    symbol: Symbol
    depth: int
    edge: Edge  # the call that reached it: its site (for callers, the caller's call)
    link: str = DIRECT  # DIRECT, DISPATCH, ALIASED or CANDIDATE
    # DISPATCH: the method the call resolved to (callers: the base the symbol overrides;
    # callees: the called method the symbol overrides); ALIASED: the alias called (its id);
    # CANDIDATE: the placeholder called, AS_VALUE for a read of the symbol as a value, or
    # the id of an alias assigned again (:func:`via_alias`)
    through: str = ""


def callers(
    store: GraphStore, symbol: Symbol, depth: int = 1, known: Sites | None = None
) -> list[Related]:
    """Direct, dispatch and alias callers up to ``depth`` (site order, support files last, by
    level), then the unverified candidate call sites of ``symbol`` itself (calls of an
    unresolved name, its own or an alias's; calls of an alias assigned again), then its reads
    as a value. ``known``: the :data:`Sites` a caller has read already (:func:`referenced`)."""
    known = {} if known is None else known
    walked = _walk(store, symbol, depth, incoming=True, known=known)
    found = aliases(store, [symbol.id]) if symbol.path else {}
    unresolved = list(_candidate_edges(store, symbol, _CALLS))
    # an alias's read of the symbol is its definition: told by the calls of it, when any
    called: set[str] = set()  # the first alias on the way to each called one
    for held, first, _ in found.values():
        named = _candidate_edges(store, held, _CALLS)
        unresolved += named
        if named:
            called.add(first)
    if found:  # an alias of the same name (``export const describe = core.describe``)
        unresolved = list(dict.fromkeys(unresolved))
    rebound = [a for a, (_, _, certain) in found.items() if not certain]
    unsure = store.edges_to(rebound, _CALLS) if rebound else []
    resolved = store.edges_to(list(found), _CALLS) if found else []
    called |= {found[e.target][1] for e in resolved}
    values = [e for e in _value_reads(store, symbol, known) if e.source not in called]
    groups = ((unresolved, ""), (unsure, ""), (values, AS_VALUE))
    return walked + _nearest_first(store, symbol, *groups)


def callees(store: GraphStore, symbol: Symbol, depth: int = 1) -> list[Related]:
    """What ``symbol`` calls up to ``depth`` (placeholders included: they say what is unknown),
    each level's direct callees in site order, then the overriders they may dispatch to."""
    return _walk(store, symbol, depth, incoming=False)


_Link = tuple[str, Edge, str, str]  # (the other end, the edge, link, through)


def _walk(
    store: GraphStore, start: Symbol, depth: int, *, incoming: bool, known: Sites | None = None
) -> list[Related]:
    seen = {start.id}
    frontier = {start.id: start}
    out: list[Related] = []
    for level in range(1, max(depth, 1) + 1):
        ids = list(frontier)
        fetch = store.edges_to if incoming else store.edges_from
        found = fetch(ids, _CALLS)
        if incoming:
            found += _constructions(store, frontier, {} if known is None else known)
        direct = _by_site(found)
        links: list[_Link] = [(e.source if incoming else e.target, e, DIRECT, "") for e in direct]
        if incoming:
            links += _dispatching_callers(store, frontier)
            links += _aliased_callers(store, frontier)
        else:
            links += _held_callees(store, direct)
            links += _dispatched_callees(store, direct)
        symbols = store.get_symbols(other for other, *_ in links if other not in seen)
        frontier = {}
        for other, edge, link, through in links:
            s = symbols.get(other)
            if other in seen or s is None or (link == DISPATCH and s.kind in CLASS_KINDS):
                continue
            seen.add(other)
            out.append(Related(s, level, edge, link, through))
            frontier[other] = s
        if not frontier:
            break
    return out


def _by_site(edges: Iterable[Edge]) -> list[Edge]:
    """Calls in site order, those made from tests, examples, benchmarks and docs sites after the
    rest: a hundred tests (or valtio's ``examples/``, sorted before ``src/``) calling a method
    must not hide the places the code itself calls it."""
    return sorted(edges, key=lambda e: (is_support(e.path), *site_key(e)))


def _constructions(store: GraphStore, frontier: dict[str, Symbol], known: Sites) -> list[Edge]:
    """The sites that construct the frontier's classes: constructing a class calls it. A call
    of the class itself (Python's ``C(…)``) is a calls edge to it already; ``new C(…)`` is a
    call of the constructor the class declares (a member marked ``constructor``: Java's,
    TypeScript's), and, in a room that records it so, a reference of kind NEW to the class
    (TypeScript's, with or without a constructor). Without these a class constructed in plain
    sight had "no callers"."""
    classes = [sid for sid, s in frontier.items() if s.path and s.kind in CLASS_KINDS]
    if not classes:
        return []
    members = store.get_symbols(e.target for e in store.edges_from(classes, _CONTAINS))
    made = [m.id for m in members.values() if _CONSTRUCTOR in m.modifiers]
    inits = store.edges_to(made, _CALLS) if made else []
    # a constructor calling one (``super().__init__()``, Java's ``super(…)``/``this(…)``)
    # initialises an instance another construction made: it constructs nothing
    by = store.get_symbols({e.source for e in inits})
    inits = [e for e in inits if e.source in by and _CONSTRUCTOR not in by[e.source].modifiers]
    news = [e for e, kind in referenced(store, classes, known) if kind == RefKind.NEW]
    return inits + news


def referenced(store: GraphStore, ids: Sequence[str], known: Sites) -> list[tuple[Edge, str]]:
    """The ``references`` edges into ``ids``, each with its site's kind, by id in the order
    given; read once a query: ``known`` keeps them for the next ask."""
    missing = [i for i in dict.fromkeys(ids) if i not in known]
    if missing:
        refs = store.edges_to(missing, _READS)
        kinds = _reference_kinds(store, refs)
        for i in missing:
            known[i] = []
        for e in refs:
            known[e.target].append((e, kinds.get((e.path, e.line, e.column), "")))
    return [site for i in ids for site in known[i]]


def _reference_kinds(store: GraphStore, edges: Iterable[Edge]) -> dict[tuple[str, int, int], str]:
    """What each ``references`` edge's site is — a read, a type or a ``new`` (the RefKind) —
    from its file's facts: the edge does not say, the reference recorded at its line and
    column does. A site that holds a NEW and the read of its class's name is a NEW."""
    by_path: dict[str, set[tuple[int, int]]] = {}
    for e in edges:
        by_path.setdefault(e.path, set()).add((e.line, e.column))
    facts = store.lazy_facts(by_path)
    out: dict[tuple[str, int, int], str] = {}
    for path, sites in by_path.items():
        if path not in facts:
            continue
        for ref in facts[path].references:
            if ref.kind in _SITE_KINDS and (ref.line, ref.column) in sites:
                key = (path, ref.line, ref.column)
                if out.get(key) != RefKind.NEW:
                    out[key] = ref.kind
    return out


def _dispatching_callers(store: GraphStore, frontier: dict[str, Symbol]) -> list[_Link]:
    """Calls of the methods the frontier overrides or implements: they may run the frontier."""
    methods = [sid for sid, s in frontier.items() if s.path and s.kind not in CLASS_KINDS]
    bases = _hierarchy(store, methods, incoming=False)
    edges = _by_site(store.edges_to(list(bases), _CALLS)) if bases else []
    return [(e.source, e, DISPATCH, e.target) for e in edges]


def aliases(store: GraphStore, ids: list[str]) -> dict[str, tuple[Symbol, str, bool]]:
    """The aliases of ``ids`` (:data:`ALIAS` variables and fields whose own read is of one of
    them) and of those aliases, up to :data:`_ALIAS_HOPS` deep, breadth-first in site order:
    each alias's id -> (the alias, the id of the first alias on its way, whether it is
    certain: no alias on the way is :data:`REBOUND`)."""
    out: dict[str, tuple[Symbol, str, bool]] = {}
    frontier = list(ids)
    for _ in range(_ALIAS_HOPS):
        if not frontier:
            break
        reads = sorted(store.edges_to(frontier, _READS), key=site_key)
        holders = store.get_symbols({e.source for e in reads} - out.keys() - set(ids))
        reached: list[str] = []
        for e in reads:
            s = holders.get(e.source)
            if s is None or e.source in out or s.kind not in _HOLDERS or ALIAS not in s.modifiers:
                continue
            before = out.get(e.target)
            first = before[1] if before else e.source
            certain = (before[2] if before else True) and REBOUND not in s.modifiers
            out[e.source] = (s, first, certain)
            reached.append(e.source)
        frontier = reached
    return out


def _aliased_callers(store: GraphStore, frontier: dict[str, Symbol]) -> list[_Link]:
    """Calls of the frontier's aliases assigned once: calls of what they hold."""
    held = [sid for sid, s in frontier.items() if s.path]
    found = aliases(store, held) if held else {}
    certain = [a for a, (_, _, sure) in found.items() if sure]
    edges = _by_site(store.edges_to(certain, _CALLS)) if certain else []
    return [(e.source, e, ALIASED, e.target) for e in edges]


def _held_callees(store: GraphStore, direct: Sequence[Edge]) -> list[_Link]:
    """What each called alias assigned once holds (``compat_fn(x)`` runs ``real_fn``), through
    aliases of aliases up to :data:`_ALIAS_HOPS`, reached through the first call of the alias;
    an alias its file assigns again stays only the callee it is (what it holds is not known)."""
    first: dict[str, Edge] = {}
    for e in direct:
        first.setdefault(e.target, e)
    holders = store.get_symbols(first)
    frontier = {sid: sid for sid, s in holders.items() if _certain_alias(s)}
    links: list[_Link] = []
    for _ in range(_ALIAS_HOPS):
        if not frontier:
            break
        reads = sorted(store.edges_from(list(frontier), _READS), key=site_key)
        held = store.get_symbols({e.target for e in reads})
        reached: dict[str, str] = {}
        for e in reads:
            s = held.get(e.target)
            if s is None or not s.path or e.target in reached:
                continue
            called = frontier[e.source]
            if _certain_alias(s):
                reached[e.target] = called  # an alias of an alias: on to what it holds
            elif s.kind in FUNCTION_KINDS or s.kind in CLASS_KINDS:
                links.append((e.target, first[called], ALIASED, called))
        frontier = reached
    return links


def _certain_alias(s: Symbol) -> bool:
    return s.kind in _HOLDERS and ALIAS in s.modifiers and REBOUND not in s.modifiers


def via_alias(r: Related) -> bool:
    """Whether a candidate is a call of an alias assigned again (``through`` the alias)."""
    return (
        r.link == CANDIDATE
        and r.through != AS_VALUE
        and "::" in r.through
        and (not r.through.startswith(("unresolved::", "external::")))
    )


def _dispatched_callees(store: GraphStore, direct: Sequence[Edge]) -> list[_Link]:
    """The overriders and implementers of each called method, reached through the first call
    of the method they override."""
    first: dict[str, Edge] = {}
    for e in direct:
        first.setdefault(e.target, e)
    overriders = _hierarchy(store, list(first), incoming=True)
    links = [(o, first[called], DISPATCH, called) for o, called in overriders.items()]
    # by call site, then nearest overrider first (the hierarchy's breadth-first order)
    position = {o: i for i, o in enumerate(overriders)}
    return sorted(links, key=lambda link: (site_key(link[1]), position[link[0]]))


def site_key(e: Edge) -> tuple[str, int, int, str, str]:
    """Edges in site order: file, line, column, then the ends (a total, stable order)."""
    return (e.path, e.line, e.column, e.source, e.target)


def _hierarchy(store: GraphStore, ids: list[str], *, incoming: bool) -> dict[str, str]:
    """Methods reached from ``ids`` over overrides/implements edges, transitively (outgoing:
    what they override; incoming: what overrides them), each mapped to the id of ``ids`` it
    came from; breadth-first, each level in id order."""
    origin: dict[str, str] = {}
    frontier = {i: i for i in ids}
    for _ in range(_MAX_HOPS):
        if not frontier:
            break
        fetch = store.edges_to if incoming else store.edges_from
        reached: dict[str, str] = {}
        for e in sorted(fetch(list(frontier), _HIERARCHY), key=site_key):
            here, there = (e.target, e.source) if incoming else (e.source, e.target)
            if there not in origin and there not in frontier and there not in ids:
                reached[there] = frontier[here]
        for there in sorted(reached):  # breadth-first, each level in id order
            origin[there] = reached[there]
        frontier = reached
    return origin


# ---------------------------------------------------------------------------------- candidates


def caller_candidates(
    store: GraphStore, symbol: Symbol, kinds: Sequence[str] = _CALLS
) -> list[Related]:
    """Unresolved call sites (edges of ``kinds``) whose placeholder may denote ``symbol``, one
    per site, nearest first."""
    return _nearest_first(store, symbol, (_candidate_edges(store, symbol, kinds), ""))


def _candidate_edges(store: GraphStore, symbol: Symbol, kinds: Sequence[str]) -> list[Edge]:
    placeholders = candidate_placeholders(store, symbol)
    return store.edges_to([p.id for p in placeholders], kinds) if placeholders else []


def _value_reads(store: GraphStore, symbol: Symbol, known: Sites) -> list[Edge]:
    """The sites that read a function, method or class as a value (``references`` edges to
    it: it is passed, stored, returned or exported there, not called): what may be called
    through it (``Storage = RedisStorage; Storage(name)``). A class's type annotations and
    constructions are not reads, nor its own members' (``super(C, self)``)."""
    if not symbol.path or symbol.kind not in FUNCTION_KINDS | CLASS_KINDS:
        return []
    if symbol.kind not in CLASS_KINDS:
        return [e for e in store.edges_to([symbol.id], _READS) if e.source != symbol.id]
    own = symbol.id + "."
    return [
        e
        for e, kind in referenced(store, [symbol.id], known)
        if kind == RefKind.READ and e.source != symbol.id and not e.source.startswith(own)
    ]


def _nearest_first(
    store: GraphStore, symbol: Symbol, *groups: tuple[list[Edge], str]
) -> list[Related]:
    """Each group's sites as candidates, group after group, each group's nearest ``symbol``
    first (:func:`nearness`), ``through`` the group's label or, without one, the placeholder
    the edge points at; the nearness and the sites' definitions are read once for all."""
    if not any(edges for edges, _ in groups):
        return []
    near = nearness(store, symbol.path)
    sources = store.get_symbols({e.source for edges, _ in groups for e in edges})
    return [
        Related(sources[e.source], 1, e, CANDIDATE, through or e.target)
        for edges, through in groups
        for e in sorted(edges, key=lambda e: (near(e.path), *site_key(e)))
        if e.source in sources
    ]


def candidate_placeholders(store: GraphStore, symbol: Symbol) -> list[Symbol]:
    """The ``unresolved::`` placeholders of ``symbol``'s name that may stand for it."""
    if not symbol.path or symbol.kind == "module":
        return []
    named = [p for p in store.symbols_named(symbol.name) if p.kind == PlaceholderKind.UNRESOLVED]
    if not named:
        return []
    classes: set[str] | None = None
    top_level = symbol.parent == symbol.path
    out = []
    for p in named:
        receiver = p.qualname.rpartition(".")[0]
        if receiver == "?":
            out.append(p)
        elif not receiver:
            if top_level:  # a bare call cannot reach a member
                out.append(p)
        else:
            if classes is None:
                classes = _class_names(store, symbol)
            if receiver in classes:
                out.append(p)
    return out


def _class_names(store: GraphStore, symbol: Symbol) -> set[str]:
    """The qualnames of the class holding ``symbol`` and of all its bases (what a placeholder
    ``unresolved::Class.member`` names when ``Class`` lacks the member)."""
    owner = store.get_symbol(symbol.parent) if symbol.parent else None
    if owner is None or owner.kind not in CLASS_KINDS:
        return set()
    names = {owner.qualname}
    seen = {owner.id}
    frontier = [owner.id]
    for _ in range(_MAX_HOPS):
        if not frontier:
            break
        bases = {e.target for e in store.edges_from(frontier, _INHERITANCE)} - seen
        seen |= bases
        found = store.get_symbols(bases)
        names |= {s.qualname for s in found.values() if s.path}
        frontier = [b for b in bases if b in found and found[b].path]
    return names


def nearness(store: GraphStore, home: str) -> Callable[[str], int]:
    """A sort key for paths by how close they are to the file ``home``: the file itself, files
    that import from it, its directory, the rest; support files (tests, examples, benchmarks,
    docs sites) after all of those."""
    ids = [s.id for s in store.symbols_in_file(home)]
    importers = {e.path for e in store.edges_to(ids, (str(EdgeKind.IMPORTS),))} if ids else set()
    folder = home.rpartition("/")[0]

    def key(path: str) -> int:
        if path == home:
            rank = 0
        elif path in importers:
            rank = 1
        elif path.rpartition("/")[0] == folder:
            rank = 2
        else:
            rank = 3
        return rank + (4 if is_support(path) else 0)

    return key


# ---------------------------------------------------------------------------------- notes


def notes(symbol: Symbol, relation: str, found: Sequence[Related]) -> list[str]:
    """What a listing of ``found`` cannot say by itself, in sentences for a person or a model:
    that nothing was resolved, and which unresolved call sites may be what was asked for."""
    label = symbol.qualname or symbol.path
    if relation == "callers":
        return _caller_notes(symbol, label, found)
    if relation == "callees":
        return _callee_notes(label, found)
    return []


def _caller_notes(symbol: Symbol, label: str, found: Sequence[Related]) -> list[str]:
    resolved = [r for r in found if r.link != CANDIDATE]
    rebound = [r for r in found if via_alias(r)]
    candidates = [
        r for r in found if r.link == CANDIDATE and r.through != AS_VALUE and not via_alias(r)
    ]
    values = [r for r in found if r.link == CANDIDATE and r.through == AS_VALUE]
    lines: list[str] = []
    if not resolved and not candidates and not values and not rebound:
        lines.append(
            f"no callers of {label} in the index, and no unresolved call of `{symbol.name}` "
            "that could be one"
        )
        return lines
    if not resolved:
        lines.append(f"no resolved callers of {label}")
    by_placeholder: dict[str, list[Related]] = {}
    for r in candidates:
        by_placeholder.setdefault(r.through, []).append(r)
    more = " more" if resolved else ""
    if values:
        one = len(values) == 1
        lines.append(
            f"{label} is used as a value at {len(values)} site{'' if one else 's'} (passed, "
            "stored, exported or rendered, not called there; calls through "
            f"{'it' if one else 'them'} are not traced, unverified): {_sites(values)}"
        )
    by_alias: dict[str, list[Related]] = {}
    for r in rebound:
        by_alias.setdefault(r.through, []).append(r)
    for alias, sites in by_alias.items():
        one = len(sites) == 1
        name = alias.rpartition("::")[2]
        lines.append(
            f"{len(sites)}{more} call site{'' if one else 's'} {'calls' if one else 'call'} "
            f"`{name}`, an alias of {label} that its file assigns again (what it holds when "
            f"called is unverified): {_sites(sites)}"
        )
    for placeholder, sites in by_placeholder.items():
        receiver, _, name = placeholder.removeprefix("unresolved::").rpartition(".")
        one = len(sites) == 1
        count = f"{len(sites)}{more} call site{'' if one else 's'}"
        call = "calls" if one else "call"
        if receiver == "?":
            what = f"{count} with an unknown receiver {call} `.{name}(`"
        elif not receiver:
            what = f"{count} {call} `{name}(`, a name the resolver could not bind"
        else:
            what = f"{count} {call} `.{name}(` on `{receiver}`, which has no `{name}` of its own"
        if name != symbol.name:  # a name one of its aliases has (``res.contentType``)
            what += f" (`{name}` is an alias of {label})"
        lines.append(f"{what} (unverified): {_sites(sites)}")
    return lines


def _callee_notes(label: str, found: Sequence[Related]) -> list[str]:
    if not found:
        return [f"{label} calls nothing in the index"]
    unknown = [r for r in found if r.depth == 1 and r.symbol.qualname.startswith("?.")]
    if not unknown:
        return []
    names = ", ".join(f"`.{r.symbol.name}(`" for r in unknown[:8])
    names += ", …" if len(unknown) > 8 else ""
    return [f"calls on an unknown receiver ({names}): what they run is not known"]


def _sites(found: Sequence[Related]) -> str:
    shown = ", ".join(f"{r.edge.path}:{r.edge.line}" for r in found[:SITES_IN_NOTE])
    rest = len(found) - SITES_IN_NOTE
    return shown + (f" and {rest} more" if rest > 0 else "")
