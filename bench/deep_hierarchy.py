"""Resolution time on one long inheritance chain, in Python and TypeScript.

Each size writes one file of N classes, each extending the one before it and each with one
method that calls a method of the chain's root through ``self``/``this``, then indexes it cold
in a fresh process (``astrag index --rebuild --no-embed --jobs 1``). Reported per language and
size: CPU seconds of the index process, its resolve phase (astrag's own timing), and how the
CPU grows from one size to the next as an exponent (1 linear, 2 quadratic, 3 cubic). The MRO
of the last class is the whole chain, so a linearisation or a lookup that rescans it at every
class shows up as an exponent near 3; the edges are checked too (N-1 inherits, N-1 calls).

    python bench/deep_hierarchy.py [--sizes 1000,2000,5000] [--json out.json]

Machine load inflates every figure; the exponent is a ratio of two runs and suffers less.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from speed import measure  # noqa: E402  (bench/ is not a package)


def chain_source(language: str, n: int) -> tuple[str, str]:
    """(file name, text) of an n-class chain."""
    if language == "python":
        parts = ["class C0:\n    def m0(self):\n        return 0\n"]
        parts += [
            f"class C{i}(C{i - 1}):\n    def m{i}(self):\n        return self.m0()\n"
            for i in range(1, n)
        ]
        return "chain.py", "\n\n".join(parts)
    parts = ["export class C0 {\n  m0(): number { return 0; }\n}\n"]
    parts += [
        f"export class C{i} extends C{i - 1} {{\n  m{i}(): number {{ return this.m0(); }}\n}}\n"
        for i in range(1, n)
    ]
    return "chain.ts", "".join(parts)


def run(language: str, n: int, work: Path) -> dict:
    root = work / f"{language}-{n}"
    root.mkdir()
    name, text = chain_source(language, n)
    (root / name).write_text(text)
    cmd = ["astrag", "index", "--rebuild", "--no-embed", "--jobs", "1", "--format", "json"]
    r = measure([*cmd, str(root)])
    edges = r.output.get("edges", {})
    if edges.get("inherits") != n - 1 or r.output.get("calls", {}).get("resolved") != n - 1:
        raise SystemExit(f"deep_hierarchy: {language} {n}: unexpected edges {edges}")
    timings = r.output.get("timings", {})
    return {
        "language": language,
        "classes": n,
        "cpu_seconds": r.cpu_seconds,
        "wall_seconds": r.wall_seconds,
        "resolve_seconds": timings.get("resolve+write"),
        "peak_rss_mb": r.peak_rss_mb,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,2000,5000")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory(prefix="astrag-chain-") as tmp:
        for language in ("python", "typescript"):
            previous = None
            for n in sizes:
                row = run(language, n, Path(tmp))
                if previous is not None:
                    growth = row["cpu_seconds"] / previous["cpu_seconds"]
                    row["exponent"] = round(math.log(growth) / math.log(n / previous["classes"]), 2)
                rows.append(row)
                previous = row
                print(
                    f"{language:10} {n:6} classes  {row['cpu_seconds']:7.2f} CPU s  "
                    f"resolve {row['resolve_seconds']} s  {row['peak_rss_mb']} MB"
                    + (f"  exponent {row['exponent']}" if "exponent" in row else ""),
                    flush=True,
                )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
