"""The benchmark's data: repositories, queries and relevance judgements, and how a ranked result
(a symbol hit, a file, a chunk) is matched to a judged target.

The benchmark is MinishLab/semble's ``benchmarks/`` (MIT): ``repos.json`` pins each repository
at a commit and a ``benchmark_root`` (the subtree that is indexed); ``annotations/<repo>.json``
holds the queries, each with ``relevant`` and ``secondary`` targets. A target is a
repository-relative file path, or a path with a 1-based inclusive line span (symbol queries).

Matching is semble's own (``benchmarks/common.py``): a result at ``path:start-end`` covers a
target when the paths are equal (or the result path ends with ``/`` + the target path) and, for
a target with a span, the two line ranges overlap. Every system here is scored through
:func:`target_matches`, whatever its unit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "code-search"
SEMBLE_DIR = DATA_DIR / "semble"  # benchmarks/{repos.json,annotations,results} of semble
# The languages astrag resolves at compiler level, in report order: semble's other languages
# (Rust, C, Ruby, ...) are indexed at name level only and are not scored here.
LANGUAGES = ("python", "javascript", "typescript", "go", "java")

# Upstream semble commit whose benchmarks/ is used (reached through the fork
# michalfedyna/semble, whose only later commit does not touch benchmarks/).
SEMBLE_COMMIT = "8d737aba127b76f3c729ef6925b2b17fd769d646"

# Where the pinned commit was not obtainable here, the nearest release before the pin (early
# April 2026) stands in. Only file-level targets are affected except axios (3 span targets,
# checked by prepare.py against the symbol they name).
SUBSTITUTES: dict[str, str] = {
    "httpx": "git:ae1b9f66238f75ced3ced5e4485408435de10768",  # master 2025-12-10, newest snapshot
    "starlette": "pypi:starlette==1.0.0",  # released 2026-03-22
    "axios": "npm:axios@1.14.0",  # released 2026-03-27
    # branch 3.x of 2025-04-16, the newest snapshot with tools/jackson/databind: every judged
    # file exists and the three span targets still start on the class they name
    "jackson-databind": "git:1845f3327b56d70a247fbf0af0977065734e6695",
}


@dataclass(frozen=True, slots=True)
class Target:
    path: str
    start_line: int | None = None
    end_line: int | None = None

    @property
    def has_span(self) -> bool:
        return self.start_line is not None and self.end_line is not None


@dataclass(frozen=True, slots=True)
class RepoSpec:
    name: str
    language: str
    url: str
    revision: str
    benchmark_root: str | None = None

    @property
    def source(self) -> str:
        """How the corpus was obtained: ``git:<sha>`` (the pin or a stand-in) or a registry."""
        return SUBSTITUTES.get(self.name, f"git:{self.revision}")

    @property
    def root_prefix(self) -> str:
        """Prefix turning a path relative to the indexed root into a repository-relative one."""
        return f"{self.benchmark_root.strip('/')}/" if self.benchmark_root else ""

    def checkout_dir(self, data_dir: Path = DATA_DIR) -> Path:
        return data_dir / self.name

    def index_root(self, data_dir: Path = DATA_DIR) -> Path:
        """The directory that is indexed: the repository's ``benchmark_root`` (as semble does)."""
        return self.checkout_dir(data_dir) / (self.benchmark_root or "")


@dataclass(frozen=True, slots=True)
class Task:
    repo: str
    query: str
    category: str
    relevant: tuple[Target, ...]
    secondary: tuple[Target, ...]

    @property
    def targets(self) -> tuple[Target, ...]:
        """Primary and secondary targets: both count as relevant (gain 1), as in semble."""
        return self.relevant + self.secondary


@dataclass(frozen=True, slots=True)
class Item:
    """One ranked result in repository-relative coordinates (1-based, inclusive lines)."""

    path: str
    start_line: int
    end_line: int


def parse_target(raw: str | dict[str, object]) -> Target:
    if isinstance(raw, str):
        return Target(raw)
    start, end = raw.get("start_line"), raw.get("end_line")
    return Target(
        str(raw["path"]),
        int(str(start)) if start is not None else None,
        int(str(end)) if end is not None else None,
    )


def infer_category(query: str) -> str:
    """semble's rule for annotations without a category."""
    if " " not in query.strip():
        return "symbol"
    return "architecture" if query.lower().startswith("how ") else "semantic"


def load_repo_specs(semble_dir: Path = SEMBLE_DIR) -> dict[str, RepoSpec]:
    raw = json.loads((semble_dir / "repos.json").read_text(encoding="utf-8"))
    return {item["name"]: RepoSpec(**item) for item in raw}


def select_specs(
    specs: dict[str, RepoSpec],
    names: list[str] | None = None,
    languages: tuple[str, ...] = LANGUAGES,
) -> list[RepoSpec]:
    if set(languages) - set(LANGUAGES):
        raise SystemExit(f"astrag does not resolve {sorted(set(languages) - set(LANGUAGES))}")
    chosen = [s for s in specs.values() if s.language in languages]
    if names:
        unknown = set(names) - {s.name for s in chosen}
        if unknown:
            raise SystemExit(f"unknown or non-{'/'.join(languages)} repos: {sorted(unknown)}")
        chosen = [s for s in chosen if s.name in names]
    return sorted(chosen, key=lambda s: (LANGUAGES.index(s.language), s.name))


def load_tasks(repo: str, semble_dir: Path = SEMBLE_DIR) -> list[Task]:
    raw = json.loads((semble_dir / "annotations" / f"{repo}.json").read_text(encoding="utf-8"))
    tasks = []
    for item in raw:
        if item.get("repo", repo) != repo:
            continue
        category = item.get("category")
        tasks.append(
            Task(
                repo=repo,
                query=item["query"],
                category=category if isinstance(category, str) else infer_category(item["query"]),
                relevant=tuple(parse_target(t) for t in item.get("relevant", [])),
                secondary=tuple(parse_target(t) for t in item.get("secondary", [])),
            )
        )
    return tasks


def path_matches(result_path: str, target_path: str) -> bool:
    result_path = result_path.replace("\\", "/")
    target_path = target_path.replace("\\", "/")
    return result_path == target_path or result_path.endswith(f"/{target_path}")


def target_matches(item: Item, target: Target) -> bool:
    """Does a result cover a target: same file and, if the target has a span, overlapping lines."""
    if not path_matches(item.path, target.path):
        return False
    if not target.has_span:
        return True
    assert target.start_line is not None and target.end_line is not None
    return not (item.end_line < target.start_line or item.start_line > target.end_line)
