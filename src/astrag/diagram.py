"""Diagrams of a part of the graph: Mermaid (pastes into a pull request or Markdown docs) and
Graphviz DOT, plus the one palette the web view draws with too, so a kind of edge has one
colour wherever it is shown.

Pure functions from nodes and links to lines of text. Names from the indexed code are escaped
for each format (Mermaid entity codes, DOT string escapes): a name or path can never close a
label and inject markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from astrag.graph.facts import Edge, Symbol
from astrag.query.calls import ALIASED, CANDIDATE, DIRECT, DISPATCH
from astrag.query.neighbourhood import Link, Neighbourhood, Node

FORMATS = ("mermaid", "dot")

# edge kind -> colour (readable on white, told apart by people with common colour blindness
# as far as seven hues allow; the link style tells direct / dispatch / candidate apart)
EDGE_COLOURS = {
    "calls": "#2563eb",
    "references": "#0d9488",
    "imports": "#7c3aed",
    "inherits": "#dc2626",
    "implements": "#ea580c",
    "overrides": "#c026d3",
    "contains": "#9ca3af",
}
# symbol kind -> fill
NODE_FILLS = {
    "module": "#f3f4f6",
    "class": "#fee2e2",
    "interface": "#ffedd5",
    "function": "#dbeafe",
    "method": "#e0e7ff",
    "variable": "#ccfbf1",
    "type": "#fef9c3",
    "external": "#ffffff",
    "unresolved": "#ffffff",
}
DEFAULT_FILL = "#f9fafb"
# SVG stroke-dasharray; a call through an alias is drawn as one through a base method
LINK_DASHES = {DIRECT: "", DISPATCH: "6 3", CANDIDATE: "2 3", ALIASED: "6 3"}


def label(s: Symbol) -> str:
    """What a node is called: its qualified name, a module's path, a placeholder's id."""
    if not s.path:
        return s.id
    return s.qualname or s.path


def where(s: Symbol) -> str:
    """Where it is defined; "" for a placeholder (its id already says what it is)."""
    return f"{s.path}:{s.start_line}" if s.path else ""


def whole_graph(symbols: Iterable[Symbol], edges: Iterable[Edge]) -> tuple[list[Node], list[Link]]:
    """Every symbol and every edge (one link per kind between two symbols) as a diagram."""
    nodes = [Node(s, 0) for s in symbols]
    merged: dict[tuple[str, str, str], Link] = {}
    for e in edges:
        key = (e.source, e.target, str(e.kind))
        first = merged.get(key)
        sites = 1 if first is None else first.sites + 1
        merged[key] = Link(e.source, e.target, str(e.kind), DIRECT, sites, e.path, e.line)
    return nodes, list(merged.values())


def neighbourhood_note(n: Neighbourhood) -> str:
    shown = f"{len(n.nodes)} symbols within {n.depth} hops of {n.center.id}"
    return shown + (f"; {n.omitted} more not shown (raise --limit)" if n.omitted else "")


def to_mermaid(
    nodes: Sequence[Node], links: Sequence[Link], *, center: str = "", note: str = ""
) -> Iterator[str]:
    ids = {n.symbol.id: f"n{i}" for i, n in enumerate(nodes)}
    yield "flowchart LR"
    if note:
        yield f"  %% {_one_line(note)}"
    for n in nodes:
        second = f"{n.symbol.kind} {where(n.symbol)}".strip()
        text = f"{_mermaid(label(n.symbol))}<br/>{_mermaid(second)}"
        yield f'  {ids[n.symbol.id]}["{text}"]'
    drawn = [k for k in links if k.source in ids and k.target in ids]
    for k in drawn:
        arrow = "-->" if k.link == DIRECT else "-.->"
        yield f"  {ids[k.source]} {arrow}|{_mermaid(_edge_label(k))}| {ids[k.target]}"
    for i, k in enumerate(drawn):
        yield f"  linkStyle {i} stroke:{EDGE_COLOURS.get(k.kind, '#6b7280')}"
    kinds: dict[str, list[str]] = {}
    for n in nodes:
        kinds.setdefault(_class_name(n.symbol.kind), []).append(ids[n.symbol.id])
    for kind, members in sorted(kinds.items()):
        yield f"  classDef {kind} fill:{NODE_FILLS.get(kind, DEFAULT_FILL)},stroke:#374151"
        yield f"  class {','.join(members)} {kind}"
    if center in ids:
        yield f"  style {ids[center]} stroke-width:3px"


def to_dot(
    nodes: Sequence[Node], links: Sequence[Link], *, center: str = "", note: str = ""
) -> Iterator[str]:
    ids = {n.symbol.id: f"n{i}" for i, n in enumerate(nodes)}
    yield "digraph astrag {"
    if note:
        yield f"  // {_one_line(note)}"
    yield '  graph [rankdir=LR, fontname="Helvetica"];'
    yield '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];'
    yield '  edge [fontname="Helvetica", fontsize=9];'
    for n in nodes:
        s = n.symbol
        attrs = [
            f'label="{_dot(label(s))}\\n{_dot(f"{s.kind} {where(s)}".strip())}"',
            f'tooltip="{_dot(s.id)}"',
            f'fillcolor="{NODE_FILLS.get(s.kind, DEFAULT_FILL)}"',
        ]
        if s.id == center:
            attrs.append("penwidth=3")
        yield f"  {ids[s.id]} [{', '.join(attrs)}];"
    for k in links:
        if k.source not in ids or k.target not in ids:
            continue
        attrs = [
            f'label="{_dot(_edge_label(k))}"',
            f'color="{EDGE_COLOURS.get(k.kind, "#6b7280")}"',
        ]
        if k.link != DIRECT:
            attrs.append("style=dotted" if k.link == CANDIDATE else "style=dashed")
        yield f"  {ids[k.source]} -> {ids[k.target]} [{', '.join(attrs)}];"
    yield "}"


def render(
    fmt: str, nodes: Sequence[Node], links: Sequence[Link], *, center: str = "", note: str = ""
) -> Iterator[str]:
    if fmt == "mermaid":
        return to_mermaid(nodes, links, center=center, note=note)
    if fmt == "dot":
        return to_dot(nodes, links, center=center, note=note)
    raise ValueError(f"unknown diagram format {fmt!r}; choose one of {', '.join(FORMATS)}")


def _edge_label(k: Link) -> str:
    text = k.kind if k.sites == 1 else f"{k.kind} ×{k.sites}"
    if k.link == DISPATCH:
        return f"{text} via {k.through.rpartition('::')[2] or k.through}"
    if k.link == ALIASED:
        return f"{text} via alias {k.through.rpartition('::')[2] or k.through}"
    if k.link == CANDIDATE:
        return f"{text} unverified"
    return text


def _class_name(kind: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in kind) or "symbol"


def _mermaid(text: str) -> str:
    """Text safe inside a quoted Mermaid label or ``|edge label|``: entity codes for the
    characters that would end it or be read as markup (``#`` first: it starts the codes)."""
    out = _one_line(text).replace("#", "#35;")
    for ch, code in (('"', "#quot;"), ("<", "#lt;"), (">", "#gt;"), ("|", "#124;")):
        out = out.replace(ch, code)
    return out.replace("`", "#96;")  # a label in backticks would be read as Markdown


def _dot(text: str) -> str:
    return _one_line(text).replace("\\", "\\\\").replace('"', '\\"')


def _one_line(text: str) -> str:
    return " ".join(text.split())
