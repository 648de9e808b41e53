"""CPU seconds of each step a parser process runs per file, in one process.

A cold index forks parser processes that, per file, read it, hash it, redact it, parse and
extract its facts, encode the facts, build and encode its search documents and encode its
symbols (``indexer._parse_one``). This runs those steps over every file of a corpus, one step
at a time over all files, each ``--repeat`` times, and keeps the least CPU of each (other work
on a shared machine only ever adds to a run):

  read       read_source (stat, open, read, the generated-file and size checks)
  hash       content_hash
  redact     redact
  extract    extract_facts (tree-sitter parse + the room's extraction)
  facts      encode_facts
  docs       documents()
  docs_enc   encode_documents
  symbols    file_symbols + encode_symbols

``--digest`` prints two hashes of each encoded output (facts, documents, symbols), so that two
versions' outputs can be compared: of the bytes as encoded, and of the values they decode to
(``marshal`` refers back to an object it wrote before, so bytes differ where only the sharing
of equal strings does).

  python3 bench/parser_steps.py bench/data/go-speed/etcd [--repeat 3] [--digest]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import marshal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from astrag.config import load_config
from astrag.discover import content_hash, discover, read_source
from astrag.graph.symbols import file_symbols
from astrag.lang import extract_facts
from astrag.redact import redact
from astrag.search import documents as search_documents
from astrag.search import text
from astrag.search.documents import documents, encode_documents
from astrag.store.codec import encode_facts, encode_symbols

T = TypeVar("T")


def _clear_caches() -> None:
    """Empty the search modules' memo caches: a parser process starts with them empty, so a
    repeated run must too, or it times cache hits."""
    for module in (text, search_documents):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def least_cpu(run: Callable[[], T], repeat: int) -> tuple[float, T]:
    best = float("inf")
    for _ in range(max(repeat, 1)):
        _clear_caches()
        start = time.process_time()
        result = run()
        best = min(best, time.process_time() - start)
    return best, result


def measure(
    root: Path, repeat: int, only: set[str] | None = None, keep_gc: bool = False
) -> tuple[dict, dict]:
    root = root.resolve()
    config = load_config(root)
    files = discover(root, config).files
    times: dict[str, float] = {}

    def step(name: str, run: Callable[[], T]) -> T:
        n = repeat if only is None or name in only else 1
        times[name], result = least_cpu(run, n)
        return result

    if not keep_gc:
        gc.disable()  # what a parser process would gain with the cyclic collector paused
    try:
        read = step(
            "read", lambda: [(sf, read_source(root, sf, config.max_file_bytes)) for sf in files]
        )
        read = [(sf, r.source) for sf, r in read if r.source is not None]
        step("hash", lambda: [content_hash(s) for _, s in read])
        sources = step("redact", lambda: [(sf.path, redact(s)[0]) for sf, s in read])
        facts = step("extract", lambda: [(extract_facts(p, s), s) for p, s in sources])
        fblobs = step("facts", lambda: [encode_facts(f) for f, _ in facts])
        docs = step("docs", lambda: [documents(f, s) for f, s in facts])
        dblobs = step("docs_enc", lambda: [encode_documents(d) for d in docs])
        sblobs = step("symbols", lambda: [encode_symbols(file_symbols(f)[0]) for f, _ in facts])
    finally:
        gc.enable()
    digests = {}
    for name, blobs in (("facts", fblobs), ("docs", dblobs), ("symbols", sblobs)):
        raw, values = hashlib.sha256(), hashlib.sha256()
        for b in blobs:
            raw.update(hashlib.sha256(b).digest())
            # marshal's version 2 writes no back-references, so equal values give equal bytes
            # however the encoder's objects were shared
            values.update(hashlib.sha256(marshal.dumps(marshal.loads(b), 2)).digest())
        digests[name] = raw.hexdigest()[:12]
        digests[f"{name}_values"] = values.hexdigest()[:12]
    return times, digests


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each step (least kept)")
    parser.add_argument("--only", help="comma-separated steps to repeat (the rest run once)")
    parser.add_argument(
        "--gc", action="store_true", help="keep the cyclic collector on, as a parser process runs"
    )
    parser.add_argument("--digest", action="store_true", help="print a hash of each output")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    times, digests = measure(args.root, args.repeat, only, args.gc)
    total = sum(times.values())
    cells = " ".join(f"{k} {v:.3f}" for k, v in times.items())
    print(f"{args.root.name}: {cells} | total {total:.3f} CPU s")
    if args.digest:
        print(" ".join(f"{k}={v}" for k, v in digests.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
