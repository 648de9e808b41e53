"""Which constructs cost astrag the sites and edges it misses or gets wrong, on one corpus.

Runs graph_accuracy's comparison of an oracle output with astrag's export and sorts every
missed site, wrong site and missed definition-level edge into a construct, by the callee's
shape and the receiver text read from the source line (``this.repo.find()``: a field-typed
receiver; ``make().run()``: a call's result; ``items[0].go()``: an element; ``opts.x()``: an
identifier, i.e. a parameter, local or import). Prints counts, largest first, with examples.
``--bindings`` (TypeScript/JavaScript) splits the identifier group by what the identifier is
bound to (``ts_bindings.py``: a union-typed parameter, an untyped callback parameter, a local
``= new X()`` ...) and sorts the missed definition-level edges by the construct of their site.

    python3 bench/constructs.py CORPUS_DIR ORACLE.jsonl EXPORT.jsonl [--examples 3] [--json F]
        [--bindings]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import graph_accuracy
from ts_bindings import Bindings

OPENERS = {")": "(", "]": "["}


def receiver_text(line: str, column: int) -> str:
    """The receiver expression before the callee name at 1-based ``column`` ('' for f())."""
    before = line[: column - 1].rstrip()
    if before.endswith("?."):
        before = before[:-2]
    elif before.endswith("."):
        before = before[:-1]
    else:
        return ""
    i, depth = len(before), []
    while i > 0:
        ch = before[i - 1]
        if depth:
            if ch in OPENERS:
                depth.append(OPENERS[ch])
            elif ch == depth[-1]:
                depth.pop()
            i -= 1
            continue
        if ch in OPENERS:
            depth.append(OPENERS[ch])
        elif not (ch.isalnum() or ch in "_$.?!"):
            break
        i -= 1
    return before[i:].strip().lstrip(".?!")  # `...spread.m()`: the dots are no receiver


def construct(shape: str, receiver: str, targets: list[str] = ()) -> str:
    if shape == "new":
        return "new X()"
    if shape == "super":
        return "super.m() / super().m()"
    if shape == "name":
        return "plain call f()"
    if shape == "self":
        return "this.m() / self.m()"
    head = receiver.split(".", 1)[0].split("(", 1)[0]
    if receiver.endswith(")"):
        return "x.f().m(): receiver is a call's result"
    if receiver.endswith("]"):
        return "x[i].m(): receiver is an element"
    if head in ("this", "self", "cls") and "." in receiver:
        return "this.field.m() / self.field.m()"
    # `util.f()` / `api.get()` where the target is a member of that namespace or object.
    if any(t.split("::", 1)[-1].startswith(head + ".") for t in targets):
        return "ns.f(): member of a namespace, object or class named at the call"
    if "." in receiver:
        return "a.b.m(): receiver is a member chain"
    return "x.m(): receiver is an identifier (parameter, local, import)"


class Source:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._lines: dict[str, list[str]] = {}

    def line(self, path: str, number: int) -> str:
        if path not in self._lines:
            try:
                text = (self.root / path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            self._lines[path] = text.splitlines()
        lines = self._lines[path]
        return lines[number - 1] if 0 < number <= len(lines) else ""


IDENTIFIER = "x.m(): receiver is an identifier (parameter, local, import)"


def site_construct(
    site: str, shape: str, targets: list[str], source: Source, bindings: Bindings | None
) -> tuple[str, str]:
    """(construct, source line) of the call site ``path:line:column``."""
    path, line, column = site.rsplit(":", 2)
    text = source.line(path, int(line))
    kind = construct(shape, receiver_text(text, int(column)), targets)
    if bindings is not None and kind == IDENTIFIER:
        binding, detail = bindings.kind(path, int(line), int(column))
        kind = f"x.m(), x is {binding}" + (f" [{detail}]" if detail and _detailed(binding) else "")
    return kind, text.strip()[:120]


def _detailed(binding: str) -> bool:
    """Bindings whose detail (callee, initialiser) is worth a group of its own."""
    return binding.startswith(("parameter: untyped, callback", "local: = "))


def classify(
    items: list[dict], source: Source, bindings: Bindings | None = None
) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for item in items:
        targets = item.get("oracle_ids", [])
        kind, code = site_construct(item["site"], item["shape"], targets, source, bindings)
        groups[kind].append(item | {"code": code})
    return groups


def classify_edges(
    report: graph_accuracy.Report, source: Source, bindings: Bindings | None = None
) -> dict[str, list[dict]]:
    """Missed edges by miss reason, or with ``bindings`` by the construct of their first site."""
    groups: dict[str, list[dict]] = defaultdict(list)
    if report.edges is None:
        return groups
    for item in report.edges.misses:
        if bindings is None or not item["site"]:
            groups[item["reason"]].append(item)
            continue
        position, rest = item["site"].split(" ", 1)
        shape = rest.rsplit("(", 1)[-1].rstrip(")")
        kind, _ = site_construct(position, shape, [item["target"]], source, bindings)
        groups[kind].append(item)
    return groups


def render(title: str, groups: dict[str, list[dict]], examples: int) -> list[str]:
    rows = [f"{title}:"]
    for kind, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        rows.append(f"  {len(items):>6}  {kind}")
        for item in items[:examples]:
            if "code" in item:
                rows.append(f"            {item['site']}  {item['code']}")
            else:
                rows.append(f"            {item['source']} -> {item['target']}  at {item['site']}")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="the corpus directory (to read source lines)")
    parser.add_argument("oracle", type=Path)
    parser.add_argument("export", type=Path)
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write counts and examples as JSON here")
    parser.add_argument(
        "--bindings", action="store_true", help="split x.m() by what x is bound to (TS/JS)"
    )
    args = parser.parse_args(argv)
    with args.oracle.open(encoding="utf-8") as f:
        oracle = graph_accuracy.read_oracle(f)
    with args.export.open(encoding="utf-8") as f:
        graph = graph_accuracy.load_graph(f)
    report = graph_accuracy.compare(oracle, graph)
    source = Source(args.root)
    bindings = Bindings(args.root) if args.bindings else None
    sections = {
        "missed sites": classify(report.misses, source, bindings),
        "wrong sites": classify(report.false_positives, source, bindings),
        "missed edges (definition granularity)": classify_edges(report, source, bindings),
    }
    for title, groups in sections.items():
        print("\n".join(render(title, groups, args.examples)))
    if args.json:
        data = {
            title: {k: {"count": len(v), "examples": v[: args.examples]} for k, v in g.items()}
            for title, g in sections.items()
        }
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
