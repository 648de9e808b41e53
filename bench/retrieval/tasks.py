"""The task set: per repository a base commit and the qualifying commits after it.

A task is one commit C (parent P) after the base B: the query is C's subject (PR numbers
removed), the gold is what C changed in P's non-test source files (``gold.py``), the needed
definitions are what C's added lines resolve to in B's index. Retrieval runs over B's
checkout, so gold functions are matched to B's index by (path, qualname) and scored with B's
line spans; a gold function or file missing from B is unreachable and left out of the score
(counted in the task's ``unreachable``). A commit whose gold functions are all unreachable is
not a task.

Selection (``select``) walks the first-parent chain back from the mirror's HEAD and keeps the
newest ``count`` commits :func:`gitlog.rejection` accepts; the base is the first parent of the
oldest. A repository too large to index whole is restricted to a ``subdir``: only that folder
of the base is checked out and indexed, and a commit qualifies only if all its source files
lie under it. Each repository is in a ``split``: ``"tune"`` (astrag's retrieval constants were
tuned on its tasks) or ``"heldout"`` (never looked at while tuning). The result is pinned in
``tasks_manifest.json`` (committed), from which ``build`` rebuilds the same tasks on any
machine; derived tasks are cached as JSON under ``bench/data/retrieval/tasks/``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .gitlog import (
    Commit,
    clean_subject,
    commit_diff,
    first_parent_commits,
    git,
    is_code,
    language_of_path,
    rejection,
    show_file,
)
from .gold import BaseIndex, gold_definitions

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "tasks_manifest.json"
DATA = HERE.parent / "data" / "retrieval"
DERIVATION_VERSION = 1  # bump when gold/needed derivation changes, to invalidate the cache


@dataclass(frozen=True)
class RepoSpec:
    name: str  # directory name under bench/data/retrieval/
    url: str  # clone URL
    language: str
    split: str = "tune"  # "tune": retrieval constants were tuned on it; "heldout": never
    subdir: str = ""  # only this folder is checked out, indexed and allowed to hold changes
    count: int = 50  # qualifying commits to take after the base


SPLITS = ("tune", "heldout")
REPOS = (
    RepoSpec("click", "https://github.com/pallets/click.git", "python"),
    RepoSpec("nestjs-graphql", "https://github.com/nestjs/graphql.git", "typescript"),
    RepoSpec("typeorm", "https://github.com/typeorm/typeorm.git", "typescript"),
    RepoSpec("black", "https://github.com/psf/black.git", "python", "heldout"),
    RepoSpec(
        "angular-cdk",
        "https://github.com/angular/components.git",
        "typescript",
        "heldout",
        subdir="src/cdk",
        count=70,  # 50 gave 32 tasks: a series of decorator-only refactors has no gold function
    ),
)


def in_subdir(commit: Commit, subdir: str) -> bool:
    """Whether every source file the commit touches lies under ``subdir`` ("" = anywhere)."""
    prefix = subdir.rstrip("/") + "/"
    return not subdir or all(p.startswith(prefix) for p in commit.source_files)


def git_dir(name: str) -> Path:
    """Where ``get_data.sh`` puts the repository's history (a bare clone or a link to one)."""
    return DATA / "git" / name


def checkout_dir(name: str) -> Path:
    """The base commit's files, indexed and chunked by the benchmark."""
    return DATA / name


def select(spec: RepoSpec, gdir: Path, head: str = "HEAD", scan: int = 1500) -> dict[str, Any]:
    """Pick the base and tasks of one repository: its manifest entry."""
    head_sha = git(gdir, "rev-parse", head).strip()
    chosen: list[Commit] = []
    for commit in first_parent_commits(gdir, head_sha, scan):
        if commit.parent and rejection(commit) is None and in_subdir(commit, spec.subdir):
            chosen.append(commit)
            if len(chosen) == spec.count:
                break
    chosen.reverse()  # oldest first
    entry: dict[str, Any] = {
        "name": spec.name, "url": spec.url, "language": spec.language, "split": spec.split,
    }  # fmt: skip
    if spec.subdir:
        entry["subdir"] = spec.subdir
    return entry | {"base": chosen[0].parent, "head": head_sha, "tasks": [c.sha for c in chosen]}


def load_manifest(path: Path = MANIFEST) -> list[dict[str, Any]]:
    entries = json.loads(path.read_text())["repos"]
    for entry in entries:
        if entry.get("split") not in SPLITS:
            raise ValueError(f"{entry['name']}: split must be one of {SPLITS}")
    return entries


def write_manifest(entries: list[dict[str, Any]], path: Path = MANIFEST) -> None:
    path.write_text(json.dumps({"repos": entries}, indent=1) + "\n")


def _commit_info(gdir: Path, sha: str) -> Commit:
    (commit,) = first_parent_commits(gdir, sha, 1)
    return commit


def derive(gdir: Path, sha: str, base: BaseIndex) -> dict[str, Any]:
    """One task from commit ``sha``; ``"rejected"`` says why when it is not a usable task."""
    commit = _commit_info(gdir, sha)
    task: dict[str, Any] = {
        "commit": commit.sha, "parent": commit.parent, "date": commit.date,
        "subject": commit.subject, "query": clean_subject(commit.subject),
        "body": commit.body, "merge": commit.merge,
    }  # fmt: skip
    diffs = commit_diff(gdir, commit.parent, commit.sha, commit.source_files)
    task["changed_files"] = sorted({d.new_path or d.old_path for d in diffs})
    # gold files: modified/deleted/renamed non-test source files as they were in the parent
    gold_files = sorted({d.old_path for d in diffs if d.old_path and is_code(d.old_path)})
    reachable_files = [p for p in gold_files if p in base.facts]
    gold_funcs, unreachable_funcs = [], []
    for path, d in gold_definitions(diffs, lambda p: show_file(gdir, commit.parent, p)):
        ref = base.lookup(path, d.qualname)
        if ref is None:
            unreachable_funcs.append(f"{path}::{d.qualname}")
        else:
            gold_funcs.append(ref.to_json())
    new_files = {
        d.new_path: text
        for d in diffs
        if d.new_path
        and language_of_path(d.new_path)
        and (text := show_file(gdir, commit.sha, d.new_path)) is not None
    }
    deleted = {d.old_path for d in diffs if d.old_path and d.old_path != d.new_path}
    added = {d.new_path: d.added for d in diffs if d.new_path}
    needed = base.needed(new_files, deleted, added)
    task.update(
        gold_files=reachable_files,
        gold_functions=gold_funcs,
        needed=[r.to_json() for r in needed],
        unreachable={
            "files": [p for p in gold_files if p not in base.facts],
            "functions": unreachable_funcs,
        },
    )
    if not gold_funcs:
        task["rejected"] = "no gold function in the base index"
    return task


def _cache_key(entry: dict[str, Any]) -> str:
    blob = json.dumps([entry["base"], entry["tasks"], DERIVATION_VERSION]).encode()
    return hashlib.blake2b(blob, digest_size=8).hexdigest()


def build(entry: dict[str, Any], *, refresh: bool = False) -> list[dict[str, Any]]:
    """All tasks of one manifest entry (rejected ones included, marked), cached as JSON.
    Needs the base checkout indexed by astrag (``run.py`` does that first)."""
    cache = DATA / "tasks" / f"{entry['name']}.json"
    key = _cache_key(entry)
    if cache.is_file() and not refresh:
        cached = json.loads(cache.read_text())
        if cached.get("key") == key:
            return cached["tasks"]
    gdir = git_dir(entry["name"])
    base = BaseIndex(checkout_dir(entry["name"]))
    try:
        tasks = [derive(gdir, sha, base) | {"repo": entry["name"]} for sha in entry["tasks"]]
    finally:
        base.close()
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"key": key, "tasks": tasks}, indent=1))
    return tasks
