"""What a user install costs: packages and megabytes in a fresh virtualenv, per requirement.

    python bench/install_footprint.py . semble codegraphcontext

Each argument is what ``pip install`` takes (a checkout, a wheel, a PyPI name, ``.[dev]``);
each goes into its own new venv (Python from ``--python``, default this one). Reported: the
packages pip installed beyond the fresh venv's own (pip, setuptools) and the megabytes the
venv grew by on disk, plus how long the install took (a network- and cache-bound figure, for
orientation only). The venvs are deleted afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def size_mb(root: Path) -> float:
    total = 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                total += os.path.getsize(path)
    return total / 1e6


def packages(python: Path) -> set[str]:
    listed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    )
    return {p["name"].lower() for p in json.loads(listed.stdout)}


def measure(requirement: str, interpreter: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="astrag-footprint-") as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([interpreter, "-m", "venv", str(venv)], check=True)
        python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
        before_packages, before_mb = packages(python), size_mb(venv)
        started = time.perf_counter()
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                requirement,
            ],
            check=True,
        )
        seconds = time.perf_counter() - started
        added = sorted(packages(python) - before_packages)
        return {
            "requirement": requirement,
            "packages": len(added),
            "mb": round(size_mb(venv) - before_mb, 1),
            "install_seconds": round(seconds, 1),
            "names": added,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("requirements", nargs="+", help="what pip installs, one venv each")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the venvs")
    parser.add_argument("--json", action="store_true", help="one JSON object per requirement")
    args = parser.parse_args()
    if shutil.which(args.python) is None and not Path(args.python).exists():
        parser.error(f"no interpreter {args.python}")
    for requirement in args.requirements:
        row = measure(requirement, args.python)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(
                f"{row['requirement']}\t{row['packages']} packages\t{row['mb']} MB\t"
                f"{row['install_seconds']} s\t{', '.join(row['names'])}",  # type: ignore[arg-type]
                flush=True,
            )


if __name__ == "__main__":
    main()
