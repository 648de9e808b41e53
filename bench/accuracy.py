"""Score astrag on every accuracy corpus: index, export, graph_accuracy.py per oracle output.

For each corpus under bench/data that get_data.sh fetched and whose oracle output exists in
bench/data/oracle/ (run_baselines.sh writes them), index the corpus in place (its own root, so
paths line up with the oracle's), export the graph to bench/data/accuracy/NAME.astrag.jsonl and
score it against each oracle output, writing the full report to bench/data/accuracy/ORACLE.json.
Prints one markdown row per (corpus, oracle): site precision, edge precision, recall, the
oracle's site count and the calls to locals/parameters left out of scoring.

    python3 bench/accuracy.py [--rebuild] [--examples N]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
DATA = BENCH / "data"
sys.path.insert(0, str(BENCH))
import graph_accuracy  # noqa: E402  (bench/ is not a package)

# corpus dir under bench/data -> oracle outputs in bench/data/oracle (without .jsonl)
CORPORA: dict[str, tuple[str, ...]] = {
    "ts-di/nestjs-graphql": ("ts-di-nestjs-graphql", "ts-di-nestjs-graphql+new"),
    "ts-classes/rxjs": ("ts-classes-rxjs", "ts-classes-rxjs+new"),
    "py-acc/rich": ("py-acc-rich",),
}
HEADER = (
    "| corpus | oracle | precision | edge precision | recall | oracle sites "
    "| calls to locals (not scored) |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |"
)


def index_and_export(corpus: Path, out: Path, rebuild: bool) -> None:
    cmd = ["astrag", "index", "--format", "json", str(corpus)]
    if rebuild:
        cmd.insert(2, "--rebuild")
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["astrag", "export", "--repo", str(corpus), "-o", str(out)], check=True)


def score(oracle_path: Path, export: Path) -> tuple[graph_accuracy.Report, int]:
    with oracle_path.open(encoding="utf-8") as f:
        oracle = graph_accuracy.load_oracle(f)
    with export.open(encoding="utf-8") as f:
        graph = graph_accuracy.load_graph(f)
    return graph_accuracy.compare(oracle, graph), len(oracle)


def summary_row(corpus: str, oracle: str, report: graph_accuracy.Report, sites: int) -> str:
    o = report.overall

    def pct(num: int, den: int) -> str:
        return f"{100 * num / den:.1f} % ({num:,}/{den:,})" if den else "n/a"

    cells = [
        corpus,
        oracle,
        pct(o.correct, o.judged),
        pct(o.edges_correct, o.edges_judged),
        pct(o.found, o.expected),
        f"{sites:,}",
        f"{sum(report.local_calls.values()):,}",
    ]
    return "| " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rebuild", action="store_true", help="index from scratch")
    parser.add_argument("--examples", type=int, default=20, help="examples kept in each JSON")
    args = parser.parse_args(argv)

    out_dir = DATA / "accuracy"
    out_dir.mkdir(parents=True, exist_ok=True)
    print(HEADER)
    for corpus, oracles in CORPORA.items():
        root = DATA / corpus
        present = [o for o in oracles if (DATA / "oracle" / f"{o}.jsonl").is_file()]
        if not (root / ".stamp").is_file() or not present:
            print(f"accuracy: skipping {corpus} (no corpus or oracle output)", file=sys.stderr)
            continue
        export = out_dir / f"{corpus.replace('/', '-')}.astrag.jsonl"
        index_and_export(root, export, args.rebuild)
        for oracle in present:
            report, sites = score(DATA / "oracle" / f"{oracle}.jsonl", export)
            full = json.dumps(report.as_dict(args.examples), indent=2)
            (out_dir / f"{oracle}.json").write_text(full + "\n")
            print(summary_row(corpus, oracle, report, sites), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
