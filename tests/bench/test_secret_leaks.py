"""The secrets benchmark on its fixture, fast parts only: every secret masked and every
look-alike kept by the rules; after a real index run with a recording embeddings endpoint, no
fragment of any secret in ``.astrag/``, the requests, the CLI's answers or the MCP tools'
answers; and, with redaction switched off, the same checks find them all (they can fail)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from astrag import api, indexer, sources
from astrag.serve import tools
from astrag.serve.state import RepoState

_BENCH = Path(__file__).resolve().parents[2] / "bench"


def _load(name: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, _BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


fixture = _load("secret_fixture")
bench = _load("secret_leaks")


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    root = tmp_path_factory.mktemp("secrets") / "repo"
    return root, fixture.write(root)


def test_the_fixture_meets_the_brief(planted: tuple[Path, list]) -> None:
    _, plants = planted
    secrets = [p for p in plants if p.secret]
    assert len(secrets) >= 40 and len({p.kind for p in secrets}) >= 12
    assert len(plants) - len(secrets) >= 40
    assert {Path(p.path).suffix for p in secrets} == {".py", ".ts", ".js"}


def test_rules_mask_every_secret_and_keep_every_look_alike(planted: tuple[Path, list]) -> None:
    root, plants = planted
    files = {p: (root / p).read_text("utf-8") for p in {p.path for p in plants}}
    scores = bench.detection(plants, files)
    assert scores["missed"] == [] and scores["falsely_redacted"] == []


def test_nothing_stored_sent_or_answered_holds_a_secret(planted: tuple[Path, list]) -> None:
    root, plants = planted
    with bench.recording_embedder() as requests:
        api.index(root, jobs=1)
        surfaces = {
            ".astrag": bench.index_dir_bytes(root),
            "requests": repr(requests).encode(),
            **bench.cli_outputs(root, modules_only=True),  # a module's source: its whole file
            "mcp": _tool_answers(root),
        }
    assert requests, "the embedder was not called"
    assert {name: bench.leaked(plants, blob) for name, blob in surfaces.items()} == {
        name: [] for name in surfaces
    }
    assert bench.lookalikes_kept(plants, root) == []
    with api.open_index(root) as idx:
        counted = idx.stats()["redacted"]
    assert sum(counted.values()) == sum(p.secret for p in plants)  # type: ignore[union-attr]
    assert counted["github-token"] == 3  # type: ignore[index]


def test_the_checks_find_secrets_when_redaction_is_off(
    planted: tuple[Path, list], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, plants = planted
    monkeypatch.setattr(indexer, "redact", lambda data: (data, []))
    monkeypatch.setattr(sources, "redact", lambda data: (data, []))
    copy = tmp_path / "repo"
    fixture.write(copy)
    api.index(copy, jobs=1, embedder="none")
    secrets = [p for p in plants if p.secret]
    assert bench.leaked(plants, bench.cli_outputs(copy, modules_only=True)["show"]) == secrets
    # code only reaches the index as signatures, docstrings and split words: not all of it
    assert len(bench.leaked(plants, bench.index_dir_bytes(copy))) > len(secrets) // 2


def _tool_answers(root: Path) -> bytes:
    """The MCP tools' answers (the functions the server wraps), text and structured."""
    state = RepoState(root)
    try:
        with api.open_index(root) as idx:
            ids = [s.id for s in idx.graph()[0] if s.path]
        answers = [tools.get_symbol(state, i) for i in ids]
        answers += [tools.get_context(state, q, 4000) for q in bench.QUESTIONS]
        answers += [tools.search_symbols(state, q) for q in bench.QUESTIONS]
        return "".join(f"{a.text}{a.data}" for a in answers).encode()
    finally:
        state.close()
