"""The natural-question benchmark's data: pinned repositories and, per repository, questions
written from its own documentation with the definitions that answer them.

``repos.json`` pins each repository at a commit and puts it in the ``tune``, ``held-out``,
``fresh`` or ``blind`` split (each fixed before anything was measured on its repositories).
``questions/<repo>.json`` is a list of
``{"query", "source", "category", "relevant": [ids], "secondary": [ids]}``: ``source`` is the
documentation page the question was written from, ids are astrag symbol ids
(``path::Qualified.Name``; a module's id is its path), ``relevant`` definitions answer the
question (grade 2) and ``secondary`` ones help (grade 1), as in semble's annotations.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA_DIR = HERE.parents[0] / "data" / "questions"
# "fresh" is a second held-out half, added once the first had been looked at, and "blind" a
# third, added once both had been looked at several times (section 7)
SPLITS = ("tune", "held-out", "fresh", "blind")
CATEGORIES = ("how", "where", "api", "tests", "examples")


@dataclass(frozen=True, slots=True)
class RepoSpec:
    name: str
    language: str
    split: str
    url: str
    commit: str

    @property
    def slug(self) -> str:
        """``owner/name`` of a GitHub URL."""
        return self.url.removeprefix("https://github.com/").removesuffix(".git")


@dataclass(frozen=True, slots=True)
class Question:
    query: str
    source: str
    category: str
    grades: dict[str, int]  # symbol id -> 2 (relevant) or 1 (secondary)


def load_repos(path: Path = HERE / "repos.json") -> list[RepoSpec]:
    raw = json.loads(path.read_text(encoding="utf-8"))["repos"]
    specs = [RepoSpec(**r) for r in raw]
    for s in specs:
        if s.split not in SPLITS:
            raise ValueError(f"{s.name}: split {s.split!r} is not one of {SPLITS}")
    return specs


def select(specs: list[RepoSpec], names: list[str] | None, split: str | None) -> list[RepoSpec]:
    out = [s for s in specs if (not names or s.name in names) and (not split or s.split == split)]
    unknown = set(names or ()) - {s.name for s in specs}
    if unknown:
        raise SystemExit(f"unknown repositories: {', '.join(sorted(unknown))}")
    return out


def load_questions(repo: str, directory: Path = HERE / "questions") -> list[Question]:
    raw = json.loads((directory / f"{repo}.json").read_text(encoding="utf-8"))
    out: list[Question] = []
    for i, q in enumerate(raw):
        where = f"{repo}.json question {i + 1} ({q.get('query')!r})"
        if q.get("category") not in CATEGORIES:
            raise ValueError(f"{where}: category must be one of {CATEGORIES}")
        grades = {sid: 1 for sid in q.get("secondary", [])}
        for sid in q["relevant"]:
            if sid in grades:
                raise ValueError(f"{where}: {sid} is both relevant and secondary")
            grades[sid] = 2
        if not q["relevant"]:
            raise ValueError(f"{where}: no relevant definition")
        out.append(Question(q["query"], q["source"], q["category"], grades))
    return out
