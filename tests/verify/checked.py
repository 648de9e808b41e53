"""A small project written from a dict and indexed, and the findings of a check on it as
(rule, line) rows: what the checker's rule tests share."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path

from astrag import api
from tests.search.conftest import write_project


def indexed(root: Path, files: Mapping[str, str]) -> Path:
    """``files`` (path -> text, dedented) written under ``root``, then indexed."""
    write_project(root, dict(files))
    api.index(root, embedder="none")
    return root


def rows(repo: Path, code: str, path: str) -> list[tuple[str, int]]:
    """(rule, line) of each finding of ``code`` (dedented) checked as ``path``."""
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path=path)
    return [(f.rule, f.line) for f in report.findings]
