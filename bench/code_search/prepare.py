"""Put the benchmark under bench/data/code-search/: semble's benchmarks/ (queries, judgements,
published results) and each Python/JavaScript/TypeScript/Go/Java repository's
``benchmark_root`` at its pinned commit (or the stand-in named in ``data.SUBSTITUTES``).

    python3 bench/code_search/prepare.py --semble-git /path/to/semble.git \\
        [--git NAME=GIT_DIR ...] [--mirrors /work/.mirror] [--repo NAME ...]

Git sources are read with ``git archive`` from a bare or normal git dir holding the commit:
``--git NAME=DIR``, else ``<mirrors>/<owner>+<name>/repo`` derived from the spec's URL.
Registry stand-ins come through ``pip download`` / ``npm pack``. A repository directory with a
``.stamp`` is kept; delete it to refetch. Nothing here is ever committed (bench/data is ignored).
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from code_search.data import (
    DATA_DIR,
    SEMBLE_COMMIT,
    SEMBLE_DIR,
    RepoSpec,
    load_repo_specs,
    load_tasks,
    select_specs,
)


def git_archive(git_dir: Path, rev: str, subdir: str | None, dest: Path) -> None:
    cmd = ["git", "--git-dir", str(git_dir), "archive", "--format=tar", rev]
    if subdir:
        cmd.append(subdir)
    blob = subprocess.run(cmd, check=True, capture_output=True).stdout
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        tar.extractall(dest, filter="data")


def extract_prefix(archive: Path, prefix: str, dest: Path) -> int:
    """Extract members under ``prefix`` (the archive's first path component is dropped)."""
    count = 0
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            rel = member.name.split("/", 1)[1] if "/" in member.name else ""
            if not (member.isfile() and rel.startswith(prefix)):
                continue
            out = dest / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            handle = tar.extractfile(member)
            assert handle is not None
            out.write_bytes(handle.read())
            count += 1
    return count


def fetch_registry(spec: RepoSpec, source: str, dest: Path) -> None:
    root = (spec.benchmark_root or "").strip("/") + "/"
    with tempfile.TemporaryDirectory() as tmp:
        if source.startswith("pypi:"):
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "--no-binary",
                    ":all:",
                    "-q",
                    "-d",
                    tmp,
                    source.removeprefix("pypi:"),
                ],
                check=True,
            )
        else:
            subprocess.run(
                ["npm", "pack", "-q", "--pack-destination", tmp, source.removeprefix("npm:")],
                check=True,
                capture_output=True,
            )
        archives = sorted(Path(tmp).glob("*.tgz")) + sorted(Path(tmp).glob("*.tar.gz"))
        if len(archives) != 1:
            raise SystemExit(f"{spec.name}: expected one archive from {source}, got {archives}")
        if extract_prefix(archives[0], root, dest) == 0:
            raise SystemExit(f"{spec.name}: {source} has nothing under {root}")


def mirror_for(spec: RepoSpec, mirrors: Path) -> Path:
    owner, name = spec.url.removesuffix(".git").split("/")[-2:]
    return mirrors / f"{owner}+{name}" / "repo"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--semble-git", type=Path, help="git dir holding semble " + SEMBLE_COMMIT[:12])
    ap.add_argument("--git", action="append", default=[], metavar="NAME=GIT_DIR")
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--repo", action="append", default=[], help="only these (default: all)")
    args = ap.parse_args()

    if not (SEMBLE_DIR / "repos.json").is_file():
        if args.semble_git is None:
            raise SystemExit("pass --semble-git (a clone of github.com/MinishLab/semble)")
        tmp = DATA_DIR / ".semble-tmp"
        git_archive(args.semble_git, SEMBLE_COMMIT, "benchmarks", tmp)
        (tmp / "benchmarks").rename(SEMBLE_DIR)
        tmp.rmdir()
        print(f"semble benchmarks @ {SEMBLE_COMMIT[:12]} -> {SEMBLE_DIR}")

    git_dirs = dict(item.split("=", 1) for item in args.git)
    for spec in select_specs(load_repo_specs(), args.repo or None):
        dest = spec.checkout_dir()
        stamp = dest / ".stamp"
        if stamp.is_file():
            print(f"{spec.name}: kept ({stamp.read_text().strip()})")
            continue
        source = spec.source
        if source.startswith("git:"):
            git_dir = Path(git_dirs.get(spec.name, mirror_for(spec, args.mirrors)))
            git_archive(git_dir, source.removeprefix("git:"), spec.benchmark_root, dest)
        else:
            fetch_registry(spec, source, dest)
        missing = sorted(
            {
                t.path
                for task in load_tasks(spec.name)
                for t in task.targets
                if not (dest / t.path).is_file()
            }
        )
        files = sum(1 for p in spec.index_root().rglob("*") if p.is_file())
        stamp.write_text(f"{source} root={spec.benchmark_root} files={files}\n")
        note = f", MISSING targets: {missing}" if missing else ""
        print(f"{spec.name}: {source} -> {dest} ({files} files{note})")


if __name__ == "__main__":
    main()
