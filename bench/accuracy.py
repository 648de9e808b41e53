"""Score astrag on the accuracy corpora of one half: index, export, graph_accuracy.py each.

For each corpus of the chosen half that get_data.sh fetched and whose oracle output exists in
bench/data/oracle/ (run_baselines.sh writes them), index the corpus in place (its own root, so
paths line up with the oracle's; ``--no-embed``), export the graph to
bench/data/accuracy/NAME.astrag.jsonl, score it against its oracle output and write the full
report to bench/data/accuracy/ORACLE.json. Prints one markdown row per (corpus, oracle):
edges at definition granularity, sites, constructor calls, the naive name-matching baseline
and the calls to locals/parameters left out of scoring.

Halves (docs/BENCHMARKS.md section 1): ``tune`` may be looked at while tuning the resolver;
``heldout`` is scored once, at the end, by whoever owns the split; ``tuned`` is the group
astrag was tuned on before the split; ``all`` is every corpus.

    python3 bench/accuracy.py [--half tune|heldout|tuned|all] [--corpus NAME] [--rebuild]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
DATA = BENCH / "data"
sys.path.insert(0, str(BENCH))
import graph_accuracy  # noqa: E402  (bench/ is not a package)


@dataclass(frozen=True)
class Corpus:
    dir: str  # under bench/data
    half: str  # tune | heldout | tuned
    style: str
    oracles: tuple[str, ...]  # outputs in bench/data/oracle/, without .jsonl


def _acc(name: str, half: str, style: str, ts: bool) -> Corpus:
    return Corpus(f"acc/{name}", half, style, (f"acc-{name}+new" if ts else f"acc-{name}",))


def _java(name: str, half: str, style: str) -> Corpus:
    return Corpus(f"java-acc/{name}", half, style, (f"java-acc-{name}",))


CORPORA: tuple[Corpus, ...] = (
    _acc("vendure", "tune", "TS, dependency-injected services", ts=True),
    _acc("zod", "tune", "TS, generic-heavy library", ts=True),
    _acc("express", "tune", "JS, CommonJS library", ts=True),
    _acc("requests", "tune", "Python, dynamic untyped", ts=False),
    _acc("starlette", "tune", "Python, web framework", ts=False),
    _acc("click", "tune", "Python, CLI", ts=False),
    _acc("hono", "heldout", "TS, functional middleware", ts=True),
    _acc("lexical", "heldout", "TS, workspace monorepo (paths)", ts=True),
    _acc("headlessui", "heldout", "TSX, React components", ts=True),
    _acc("httpx", "heldout", "Python, typed library", ts=False),
    _acc("pytest", "heldout", "Python, plugin hooks", ts=False),
    _acc("networkx", "heldout", "Python, scientific", ts=False),
    # fresh held-out corpora, added before astrag was ever run on them (BENCHMARKS section 1)
    _acc("h3", "heldout", "TS, functional HTTP framework", ts=True),
    _acc("query-core", "heldout", "TS, generic-heavy classes", ts=True),
    # two more, added at issue 12's second stop before astrag was run on them
    _acc("unstorage", "heldout", "TS, function factories (drivers)", ts=True),
    _acc("elysia", "heldout", "TS, fluent generic framework class", ts=True),
    # and two at its third stop, before astrag was run on them
    _acc("kysely", "heldout", "TS, fluent query builder, frozen node literals", ts=True),
    _acc("anyio", "heldout", "Python, typed async library (ABCs, TypeVars)", ts=False),
    # and two at its fourth stop, before astrag was run on them
    _acc("superstruct", "heldout", "TS, validation structs, mapped/utility types", ts=True),
    _acc("tortoise", "heldout", "Python, ORM (classmethods, type[Model])", ts=False),
    _java("commons-io", "tune", "Java, static utilities, overloads"),
    _java("gson", "tune", "Java, object model, anonymous classes"),
    _java("algorithms", "tune", "Java 21, many small classes, records"),
    _java("commons-lang", "heldout", "Java, static utilities, overloads"),
    _java("jsoup", "heldout", "Java, parser/DOM, enum state machine"),
    _java("commons-collections", "heldout", "Java, generic collections, decorators"),
    Corpus(
        "ts-di/nestjs-graphql",
        "tuned",
        "TS, DI services, decorators",
        ("ts-di-nestjs-graphql", "ts-di-nestjs-graphql+new"),
    ),
    Corpus("ts-classes/rxjs", "tuned", "TS, classes", ("ts-classes-rxjs", "ts-classes-rxjs+new")),
    Corpus("py-acc/rich", "tuned", "Python, typed, classes", ("py-acc-rich",)),
    # Go (oracle: go/types, bench/oracles/go_calls.go); split in docs/BENCHMARKS.md section 1
    Corpus("go-acc/mux", "tune", "Go, HTTP router", ("go-acc-mux",)),
    Corpus("go-acc/toml", "tune", "Go, parser/encoder, reflection", ("go-acc-toml",)),
    Corpus("go-acc/gods", "tune", "Go, generic containers", ("go-acc-gods",)),
    Corpus("go-acc/chi", "heldout", "Go, router + middleware closures", ("go-acc-chi",)),
    Corpus("go-acc/goldmark", "heldout", "Go, AST interfaces, embedding", ("go-acc-goldmark",)),
    Corpus("go-acc/golang-lru", "heldout", "Go, generic caches", ("go-acc-golang-lru",)),
)
HALVES = ("tune", "heldout", "tuned", "all")
HEADER = (
    "| corpus | style | edge P | edge R | site P | site R | new X() R | naive edge P / R "
    "| naive site P / R | locals |\n"
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def index_and_export(corpus: Path, out: Path, rebuild: bool) -> None:
    cmd = ["astrag", "index", "--no-embed", "--format", "json", str(corpus)]
    if rebuild:
        cmd.insert(2, "--rebuild")
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["astrag", "export", "--repo", str(corpus), "-o", str(out)], check=True)


def score(oracle_path: Path, export: Path) -> graph_accuracy.Report:
    with oracle_path.open(encoding="utf-8") as f:
        oracle = graph_accuracy.read_oracle(f)
    with export.open(encoding="utf-8") as f:
        graph = graph_accuracy.load_graph(f)
    return graph_accuracy.compare(oracle, graph)


def _pct(num: int, den: int) -> str:
    return f"{100 * num / den:.1f} % ({num:,}/{den:,})" if den else "n/a"


def _short(num: int, den: int) -> str:
    return f"{100 * num / den:.1f} %" if den else "n/a"


def summary_row(name: str, style: str, report: graph_accuracy.Report) -> str:
    o, c = report.overall, report.constructor
    cells = [name, style]
    if report.edges is not None:
        e = report.edges.outcome
        cells += [_pct(e.correct, e.judged), _pct(e.found, e.expected)]
    else:
        cells += ["n/a", "n/a"]
    cells += [_pct(o.correct, o.judged), _pct(o.found, o.expected), _pct(c.found, c.expected)]
    if report.baseline_edges is not None and report.baseline_sites is not None:
        b, bs = report.baseline_edges, report.baseline_sites
        cells.append(f"{_short(b.correct, b.judged)} / {_short(b.found, b.expected)}")
        cells.append(f"{_short(bs.correct, bs.judged)} / {_short(bs.found, bs.expected)}")
    else:
        cells += ["n/a", "n/a"]
    cells.append(f"{sum(report.local_calls.values()):,}")
    return "| " + " | ".join(cells) + " |"


def selected(half: str, names: list[str]) -> list[Corpus]:
    chosen = [c for c in CORPORA if half == "all" or c.half == half]
    if names:
        chosen = [c for c in CORPORA if c.dir in names or c.dir.rsplit("/", 1)[-1] in names]
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=HALVES, default="tune", help="which corpora")
    parser.add_argument(
        "--corpus", action="append", default=[], help="only this corpus (dir or name)"
    )
    parser.add_argument("--rebuild", action="store_true", help="index from scratch")
    parser.add_argument("--examples", type=int, default=20, help="examples kept in each JSON")
    args = parser.parse_args(argv)

    chosen = selected(args.half, args.corpus)
    if any(c.half == "heldout" for c in chosen):
        print("accuracy: scoring held-out corpora (not for tuning)", file=sys.stderr)
    out_dir = DATA / "accuracy"
    out_dir.mkdir(parents=True, exist_ok=True)
    print(HEADER)
    for corpus in chosen:
        root = DATA / corpus.dir
        present = [o for o in corpus.oracles if (DATA / "oracle" / f"{o}.jsonl").is_file()]
        if not (root / ".stamp").is_file() or not present:
            print(f"accuracy: skipping {corpus.dir} (no corpus or oracle output)", file=sys.stderr)
            continue
        export = out_dir / f"{corpus.dir.replace('/', '-')}.astrag.jsonl"
        index_and_export(root, export, args.rebuild)
        for oracle in present:
            report = score(DATA / "oracle" / f"{oracle}.jsonl", export)
            full = json.dumps(report.as_dict(args.examples), indent=2)
            (out_dir / f"{oracle}.json").write_text(full + "\n")
            name = corpus.dir + (" (+new)" if oracle.endswith("+new") else "")
            print(summary_row(name, corpus.style, report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
