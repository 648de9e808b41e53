"""Incremental = clean: random edit sequences on real repositories, each followed by an
incremental index run, then compared with a from-scratch index of the same tree.

An edit is one of: a body change, a new function that calls into another module (a new import
with it), a new import line, a file added (a copy under a new name), deleted, renamed, or a
deleted one restored. Sequences run one after another on the same working copy, so history
accumulates; each incremental run and each clean index picks ``--jobs`` 1 or 2 at random, so
neither the history nor the worker count may change the graph. Reported per repository: edges
and symbols that differ (expected 0), with the first differences to diagnose.

    python bench/incremental_clean.py --sequences 50 [--seed 1] [--json out.json]

Corpora (bench/get_data.sh): rich (Python), pydantic (Python, re-exports everything from
its ``__init__``), nestjs-graphql (TypeScript).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from astrag import api

DATA = Path(__file__).resolve().parent / "data"
REPOS = {
    "rich": DATA / "py-acc" / "rich",
    "pydantic": DATA / "py-incr" / "pydantic",
    "nestjs-graphql": DATA / "ts-di" / "nestjs-graphql",
}
SOURCE_SUFFIXES = (".py", ".ts")
_IGNORE = shutil.ignore_patterns(".astrag", ".git", "node_modules")

Graph = tuple[set[tuple[object, ...]], set[tuple[object, ...]]]


def graph(repo: Path) -> Graph:
    with api.open_index(repo) as idx:
        symbols, edges = idx.graph()
    return (
        {(s.id, s.kind, s.start_line, s.end_line, s.signature) for s in symbols},
        {(e.source, e.target, str(e.kind), e.path, e.line, e.column) for e in edges},
    )


def sources(root: Path) -> list[Path]:
    return sorted(
        p
        for p in root.rglob("*")
        if p.suffix in SOURCE_SUFFIXES and p.is_file() and "node_modules" not in p.parts
        and ".astrag" not in p.parts and not p.name.endswith(".d.ts")
    )  # fmt: skip


def module_ref(root: Path, importer: Path, target: Path) -> str:
    """An import line in ``importer``'s language that names ``target``."""
    if importer.suffix == ".py":
        rel = target.relative_to(root).with_suffix("")
        return f"from {'.'.join(rel.parts)} import *  # bench edit"
    rel = Path(*([".."] * (len(importer.relative_to(root).parts) - 1)), target.relative_to(root))
    spec = rel.with_suffix("").as_posix()
    return f"import * as benchEdit from '{spec if spec.startswith('.') else './' + spec}';"


def edit(root: Path, rng: random.Random, deleted: list[tuple[Path, bytes]]) -> str:
    files = sources(root)
    target = rng.choice(files)
    other = rng.choice(files)
    kind = rng.choice(["body", "function", "import", "add", "delete", "rename", "restore"])
    text = target.read_text("utf-8", errors="replace")
    if kind == "body":
        target.write_text(text.replace("return", "return ", 1) + "\n")
    elif kind == "function":
        name = f"bench_fn_{rng.randrange(10**6)}"
        if target.suffix == ".py":
            body = f"\n\ndef {name}():\n    return {name}()\n"
        else:
            body = f"\nexport function {name}() {{ return {name}(); }}\n"
        target.write_text(module_ref(root, target, other) + "\n" + text + body)
    elif kind == "import":
        target.write_text(module_ref(root, target, other) + "\n" + text)
    elif kind == "add":
        copy = target.with_name(f"bench_copy_{rng.randrange(10**6)}{target.suffix}")
        copy.write_text(text)
    elif kind == "delete" and len(files) > 10:
        deleted.append((target, target.read_bytes()))
        target.unlink()
    elif kind == "rename":
        target.rename(target.with_name(f"bench_renamed_{rng.randrange(10**6)}{target.suffix}"))
    elif kind == "restore" and deleted:
        path, data = deleted.pop(rng.randrange(len(deleted)))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return kind


def run_repo(name: str, source: Path, sequences: int, rng: random.Random) -> dict[str, object]:
    work = Path(tempfile.mkdtemp(prefix=f"incr-{name}-")) / name
    shutil.copytree(source, work, ignore=_IGNORE)
    api.index(work, embedder="none", jobs=rng.choice((1, 2)))
    deleted: list[tuple[Path, bytes]] = []
    out: dict[str, object] = {"sequences": sequences, "edits": 0, "edge_diffs": 0}
    out["symbol_diffs"], examples = 0, []
    started = time.perf_counter()
    for _ in range(sequences):
        for _ in range(rng.randint(1, 4)):
            edit(work, rng, deleted)
            out["edits"] = int(out["edits"]) + 1  # type: ignore[call-overload]
            api.index(work, embedder="none", jobs=rng.choice((1, 2)))
        clean = work.parent / "clean"
        shutil.rmtree(clean, ignore_errors=True)
        shutil.copytree(work, clean, ignore=_IGNORE)
        api.index(clean, embedder="none", jobs=rng.choice((1, 2)))
        (s1, e1), (s2, e2) = graph(work), graph(clean)
        out["edge_diffs"] = int(out["edge_diffs"]) + len(e1 ^ e2)  # type: ignore[call-overload]
        out["symbol_diffs"] = int(out["symbol_diffs"]) + len(s1 ^ s2)  # type: ignore[call-overload]
        if (e1 ^ e2) and len(examples) < 5:
            examples.append({"incremental only": sorted(map(str, e1 - e2))[:3],
                             "clean only": sorted(map(str, e2 - e1))[:3]})  # fmt: skip
    out["examples"] = examples
    out["seconds"] = round(time.perf_counter() - started, 1)
    shutil.rmtree(work.parent, ignore_errors=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sequences", type=int, default=50, help="in all, split over repos")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repos", default=",".join(REPOS))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    names = [n for n in args.repos.split(",") if n]
    missing = [n for n in names if not REPOS[n].is_dir()]
    if missing:
        print(f"missing corpora: {', '.join(missing)} (bench/get_data.sh)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    results = {}
    for i, name in enumerate(names):
        share = args.sequences // len(names) + (1 if i < args.sequences % len(names) else 0)
        results[name] = run_repo(name, REPOS[name], share, rng)
        r = results[name]
        print(
            f"{name:16} {r['sequences']:3} sequences {r['edits']:4} edits  "
            f"differing edges {r['edge_diffs']}  symbols {r['symbol_diffs']}  ({r['seconds']} s)",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    clean = all(r["edge_diffs"] == 0 and r["symbol_diffs"] == 0 for r in results.values())
    return 0 if clean else 1


if __name__ == "__main__":
    raise SystemExit(main())
