"""Reading the two sides of the accuracy benchmark: an oracle's JSONL and astrag's export.

Oracle JSONL (bench/oracles/ts_calls.mjs, jedi_calls.py, JavaCalls.java, go_calls.go): one
record per call site
``{"path", "line", "column", "name", "shape", "source", "targets": [{"path", "line", "kind",
"name", "id", "via"?, "local"?}], "external"?}`` and one ``{"kind": "definition", "id", "path",
"name", "line", "end_line", "source"}`` per named definition. ``source`` and ``id`` are
astrag-style symbol ids (``path::Outer.inner``, a module's id is its path); files written
before they existed load with empty ids, and only per-site scoring applies to them.

astrag's export (``astrag export``): ``{"type": "node", "id", "kind", "name", "qualname",
"path", "start_line", "end_line"}`` and ``{"type": "edge", "source", "target", "kind", "path",
"line", "column"}``; only ``calls`` edges with a site are read.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

CONSTRUCTOR_NAMES = {"constructor", "__init__", "__new__"}
# ("enum", "record": javac's kinds of a class whose implicit constructor a `new` runs)
CLASS_KINDS = {"class", "ClassDeclaration", "ClassExpression", "enum", "record"}
PLACEHOLDER_PREFIXES = ("external::", "unresolved::")

SiteKey = tuple[str, int, int]  # (path, line, column)


@dataclass(frozen=True)
class OracleTarget:
    path: str
    line: int
    kind: str = ""
    name: str | None = None
    local: bool = False  # a parameter or function-local variable: never a graph node
    id: str = ""  # astrag-style id of the definition (see the module docstring)
    via: str = ""  # "" for the compiler's own answer; "alias", "initializer", ... otherwise


@dataclass(frozen=True)
class OracleSite:
    path: str
    line: int
    column: int
    name: str
    targets: tuple[OracleTarget, ...]
    external: bool = False
    shape: str = "unknown"
    source: str = ""  # id of the innermost named definition around the call

    @property
    def key(self) -> SiteKey:
        return (self.path, self.line, self.column)

    @property
    def resolved(self) -> bool:
        return bool(self.targets) or self.external

    @property
    def calls_local(self) -> bool:
        """Every in-project target is a parameter or local: nothing the graph could point at."""
        return bool(self.targets) and all(t.local for t in self.targets)

    @property
    def judged(self) -> bool:
        """The oracle knows the answer and the graph could hold it."""
        return self.resolved and not self.calls_local


@dataclass(frozen=True)
class OracleDefinition:
    id: str
    path: str
    name: str
    line: int
    end_line: int
    source: bool = True  # a call can come from it (containers such as interfaces cannot)


@dataclass
class Oracle:
    sites: dict[SiteKey, OracleSite] = field(default_factory=dict)
    definitions: list[OracleDefinition] = field(default_factory=list)


@dataclass(frozen=True)
class Node:
    id: str
    kind: str
    name: str
    qualname: str
    path: str | None
    start_line: int
    end_line: int


@dataclass
class Graph:
    """astrag's export: nodes by id, call-edge target ids by call site, and each site's source."""

    nodes: dict[str, Node] = field(default_factory=dict)
    calls: dict[SiteKey, list[str]] = field(default_factory=lambda: defaultdict(list))
    sources: dict[SiteKey, str] = field(default_factory=dict)

    def in_repo(self, target_id: str) -> Node | None:
        if target_id.startswith(PLACEHOLDER_PREFIXES):
            return None
        node = self.nodes.get(target_id)
        return node if node is not None and node.path else None


def _jsonl(lines: Iterable[str]) -> Iterator[dict]:
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {number}: not JSON ({exc})") from exc


def _prefixed(prefix: str, symbol_id: str) -> str:
    return prefix + symbol_id if symbol_id else ""


def _target(rec: dict, prefix: str) -> OracleTarget:
    return OracleTarget(
        prefix + rec["path"],
        rec["line"],
        rec.get("kind", ""),
        rec.get("name"),
        bool(rec.get("local")),
        _prefixed(prefix, rec.get("id", "")),
        rec.get("via", ""),
    )


def read_oracle(lines: Iterable[str], path_prefix: str = "") -> Oracle:
    """Sites by key and definitions; ``path_prefix`` is prepended to every path and id."""
    oracle = Oracle()
    for rec in _jsonl(lines):
        if rec.get("kind") == "definition":
            oracle.definitions.append(
                OracleDefinition(
                    path_prefix + rec["id"],
                    path_prefix + rec["path"],
                    rec["name"],
                    rec["line"],
                    rec.get("end_line", rec["line"]),
                    bool(rec.get("source", True)),
                )
            )
            continue
        site = OracleSite(
            path=path_prefix + rec["path"],
            line=rec["line"],
            column=rec["column"],
            name=rec["name"],
            targets=tuple(_target(t, path_prefix) for t in rec.get("targets", [])),
            external=bool(rec.get("external")),
            shape=rec.get("shape", "unknown"),
            source=_prefixed(path_prefix, rec.get("source", "")),
        )
        oracle.sites[site.key] = site
    return oracle


def load_oracle(lines: Iterable[str], path_prefix: str = "") -> dict[SiteKey, OracleSite]:
    """Oracle sites by key (definitions skipped)."""
    return read_oracle(lines, path_prefix).sites


def load_graph(lines: Iterable[str]) -> Graph:
    graph = Graph()
    for rec in _jsonl(lines):
        if rec.get("type") == "node":
            graph.nodes[rec["id"]] = Node(
                id=rec["id"],
                kind=rec.get("kind", ""),
                name=rec.get("name", ""),
                qualname=rec.get("qualname", ""),
                path=rec.get("path"),
                start_line=rec.get("start_line", 0),
                end_line=rec.get("end_line", 0),
            )
        elif rec.get("type") == "edge" and rec.get("kind") == "calls":
            if rec.get("path") is None or rec.get("line") is None or rec.get("column") is None:
                continue  # a calls edge without a site cannot be scored
            key = (rec["path"], rec["line"], rec["column"])
            graph.calls[key].append(rec["target"])
            graph.sources.setdefault(key, rec.get("source", ""))
    return graph
