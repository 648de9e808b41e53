"""CPU seconds of the frontends and the resolver alone, in one process: where a speed ratio goes.

``speed.py`` times a whole index run (parser and resolver processes, search documents, the
store); this times the two stages a language room owns, on the files astrag would index:

  parse     tree-sitter parsing, every file
  extract   the rooms' frontends on those trees (``extract_facts``): the Python per capture
  resolve   ``resolve_all`` over every file's facts, tables included, in this process

Each phase runs ``--repeat`` times and the least CPU time is kept: on a shared machine other
work only ever adds to a run, so the minimum is the figure closest to the code's own cost.
Compare two versions by running this script with each one's ``src`` on ``PYTHONPATH``, runs
interleaved.

  python3 bench/phases.py bench/data/go-speed/etcd [--repeat 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from tree_sitter import Tree

from astrag.config import load_config
from astrag.discover import discover, read_source
from astrag.graph.run import resolve_all
from astrag.lang import extract_facts, parse_file
from astrag.project_layout import read_layout

T = TypeVar("T")


def least_cpu(run: Callable[[], T], repeat: int) -> tuple[float, T]:
    """The least CPU time of ``repeat`` runs (at least one), and what the last one returned."""
    best = float("inf")
    for _ in range(max(repeat, 1)):
        start = time.process_time()
        result = run()
        best = min(best, time.process_time() - start)
    return best, result


def measure(root: Path, repeat: int = 3) -> dict[str, object]:
    root = root.resolve()
    config = load_config(root)
    found = discover(root, config)
    # the files an index run reads (generated ones and those over the size limit are skipped)
    read = {sf.path: read_source(root, sf, config.max_file_bytes) for sf in found.files}
    sources = {path: r.source for path, r in read.items() if r.source is not None}

    def parse() -> dict[str, Tree]:
        trees = {p: parse_file(p, s) for p, s in sources.items()}
        return {p: t for p, t in trees.items() if t is not None}

    gc.disable()  # as the indexer runs (its objects are acyclic)
    try:
        parse_s, trees = least_cpu(parse, repeat)
        extract_s, facts = least_cpu(
            lambda: {p: extract_facts(p, sources[p], t) for p, t in trees.items()}, repeat
        )
        layout = read_layout(root, list(facts))
        resolve_s, (resolved, _) = least_cpu(lambda: resolve_all(facts, layout), repeat)
    finally:
        gc.enable()
    return {
        "root": str(root),
        "files": len(trees),
        "references": sum(len(f.references) for f in facts.values()),
        "edges": sum(len(r.edges) for r in resolved.values()),
        "parse_cpu_s": round(parse_s, 3),
        "extract_cpu_s": round(extract_s, 3),
        "resolve_cpu_s": round(resolve_s, 3),
        "extract_per_parse": round(extract_s / parse_s, 2) if parse_s else None,
        "resolve_per_parse": round(resolve_s / parse_s, 2) if parse_s else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each phase (least kept)")
    parser.add_argument("--json", type=Path, help="write the result as JSON here")
    args = parser.parse_args(argv)
    result = measure(args.root, args.repeat)
    print(
        f"{result['files']} files, {result['references']} references, {result['edges']} edges: "
        f"parse {result['parse_cpu_s']} s, extract {result['extract_cpu_s']} s "
        f"({result['extract_per_parse']}x), resolve {result['resolve_cpu_s']} s "
        f"({result['resolve_per_parse']}x) CPU"
    )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
