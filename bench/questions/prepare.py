"""Put each repository of the natural-question benchmark under bench/data/questions/<name>/ at
its pinned commit (the whole tree, as a person's checkout has it).

    python3 bench/questions/prepare.py [--repo NAME ...] [--mirrors DIR] [--dest DIR]

The files come from ``git archive`` of a local git directory holding the commit,
``<mirrors>/<owner>+<name>/repo`` when ``--mirrors`` is given and it exists, else from a
shallow fetch of that one commit from the repository's URL. A directory whose ``.stamp``
names the commit is kept; delete it to fetch again. Nothing here is committed (bench/data is
ignored).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from code_search.prepare import git_archive

from questions.data import DATA_DIR, RepoSpec, load_repos, select


def fetch_commit(spec: RepoSpec, dest: Path) -> None:
    """The pinned commit's tree from the network: one shallow fetch, no history."""
    with tempfile.TemporaryDirectory() as tmp:
        git = ["git", "-C", tmp]
        subprocess.run([*git, "init", "-q", "--bare"], check=True)
        subprocess.run([*git, "fetch", "-q", "--depth", "1", spec.url, spec.commit], check=True)
        git_archive(Path(tmp), spec.commit, None, dest)


def prepare(spec: RepoSpec, dest_root: Path, mirrors: Path | None) -> str:
    dest = dest_root / spec.name
    stamp = dest / ".stamp"
    if stamp.is_file() and stamp.read_text().strip() == spec.commit:
        return "kept"
    if dest.exists():
        shutil.rmtree(dest)
    mirror = mirrors / spec.slug.replace("/", "+") / "repo" if mirrors else None
    if mirror is not None and (mirror / "HEAD").is_file():
        git_archive(mirror, spec.commit, None, dest)
        how = f"from {mirror}"
    else:
        fetch_commit(spec, dest)
        how = f"from {spec.url}"
    stamp.write_text(spec.commit + "\n")
    return how


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", action="append", help="only this repository (repeatable)")
    parser.add_argument("--mirrors", type=Path, help="directory of <owner>+<name>/repo git dirs")
    parser.add_argument("--dest", type=Path, default=DATA_DIR, help=f"default: {DATA_DIR}")
    args = parser.parse_args(argv)
    for spec in select(load_repos(), args.repo, None):
        print(f"{spec.name} @ {spec.commit[:12]}: {prepare(spec, args.dest, args.mirrors)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
