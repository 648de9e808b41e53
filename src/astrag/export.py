"""Serialise the symbol graph: JSON Lines, GraphML, or Cypher for Neo4j / Memgraph.

Pure functions from symbols and edges to lines of text; the caller decides where they go.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from xml.sax.saxutils import quoteattr

from astrag.graph.facts import Edge, Symbol

FORMATS = ("jsonl", "graphml", "cypher")


def node_record(s: Symbol) -> dict[str, object]:
    return {
        "type": "node",
        "id": s.id,
        "kind": s.kind,
        "name": s.name,
        "qualname": s.qualname,
        "path": s.path,
        "start_line": s.start_line,
        "end_line": s.end_line,
    }


def edge_record(e: Edge) -> dict[str, object]:
    return {
        "type": "edge",
        "source": e.source,
        "target": e.target,
        "kind": str(e.kind),
        "path": e.path,
        "line": e.line,
        "column": e.column,
    }


def to_jsonl(symbols: Iterable[Symbol], edges: Iterable[Edge]) -> Iterator[str]:
    for s in symbols:
        yield json.dumps(node_record(s), ensure_ascii=False)
    for e in edges:
        yield json.dumps(edge_record(e), ensure_ascii=False)


def to_graphml(symbols: Iterable[Symbol], edges: Iterable[Edge]) -> Iterator[str]:
    yield '<?xml version="1.0" encoding="UTF-8"?>'
    yield '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
    node_keys = ("kind", "name", "qualname", "path", "start_line", "end_line")
    for key in node_keys:
        kind = "int" if key.endswith("_line") else "string"
        yield f'  <key id="{key}" for="node" attr.name="{key}" attr.type="{kind}"/>'
    for key, kind in (("edge_kind", "string"), ("site_path", "string"), ("site_line", "int")):
        yield f'  <key id="{key}" for="edge" attr.name="{key}" attr.type="{kind}"/>'
    yield '  <graph id="astrag" edgedefault="directed">'
    for s in symbols:
        record = node_record(s)
        data = "".join(f"<data key={_attr(k)}>{_text(record[k])}</data>" for k in node_keys)
        yield f"    <node id={_attr(s.id)}>{data}</node>"
    for e in edges:
        yield (
            f"    <edge source={_attr(e.source)} target={_attr(e.target)}>"
            f'<data key="edge_kind">{_text(e.kind)}</data>'
            f'<data key="site_path">{_text(e.path)}</data>'
            f'<data key="site_line">{e.line}</data></edge>'
        )
    yield "  </graph>"
    yield "</graphml>"


def _text(value: object) -> str:
    return _attr(value)[1:-1]


def _attr(value: object) -> str:
    """``value`` as a quoted XML attribute, with what XML 1.0 cannot hold at all (control
    characters but tab and line breaks, lone surrogates, U+FFFE/U+FFFF; not even as
    ``&#1;``) written as ``\\uXXXX`` instead: names and paths may hold any of them."""
    return quoteattr(_NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", str(value)))


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def to_cypher(symbols: Iterable[Symbol], edges: Iterable[Edge]) -> Iterator[str]:
    """Idempotent MERGE statements: nodes labelled ``Symbol`` plus their kind, one
    relationship type per edge kind (``CALLS``, ``IMPORTS``...), with the site as properties."""
    yield "CREATE CONSTRAINT astrag_symbol_id IF NOT EXISTS FOR (s:Symbol) REQUIRE s.id IS UNIQUE;"
    for s in symbols:
        label = "".join(part.capitalize() for part in s.kind.split("_"))
        props = {k: v for k, v in node_record(s).items() if k not in ("type", "id")}
        yield f"MERGE (n:Symbol {{id: {_cypher(s.id)}}}) SET n:{label}, n += {_cypher_map(props)};"
    for e in edges:
        rel = str(e.kind).upper()
        site = _cypher_map({"path": e.path, "line": e.line, "column": e.column})
        yield (
            f"MATCH (a:Symbol {{id: {_cypher(e.source)}}}), (b:Symbol {{id: {_cypher(e.target)}}}) "
            f"MERGE (a)-[r:{rel} {site}]->(b);"
        )


def _cypher(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)  # JSON string escapes are valid Cypher


def _cypher_map(values: dict[str, object]) -> str:
    return "{" + ", ".join(f"{k}: {_cypher(v)}" for k, v in values.items()) + "}"


def render(fmt: str, symbols: Iterable[Symbol], edges: Iterable[Edge]) -> Iterator[str]:
    if fmt == "jsonl":
        return to_jsonl(symbols, edges)
    if fmt == "graphml":
        return to_graphml(symbols, edges)
    if fmt == "cypher":
        return to_cypher(symbols, edges)
    raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
