"""What the layout was read from decides whether a quiet re-index may skip reading it again."""

from __future__ import annotations

import base64
import json
import os
import pickle
from pathlib import Path

import pytest

from astrag import indexer
from astrag.config import Config, load_config
from astrag.indexer import index_repository
from astrag.project_layout import (
    layout_fingerprint,
    layout_unchanged,
    read_layout_noting,
    stored_layout,
)

SOURCES = ["packages/app/src/main.ts", "packages/lib/src/index.ts"]


def make_repo(root: Path) -> None:
    (root / "tsconfig.base.json").write_text('{"compilerOptions": {"baseUrl": "."}}\n')
    for path in SOURCES:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / "packages/app/tsconfig.json").write_text('{"extends": "../../tsconfig.base.json"}\n')
    (root / "packages/lib/package.json").write_text('{"name": "@demo/lib"}\n')
    (root / SOURCES[0]).write_text('import { f } from "@demo/lib";\nexport const g = () => f();\n')
    (root / SOURCES[1]).write_text("export function f(): number {\n  return 1;\n}\n")


def bump(path: Path, text: str) -> None:
    """Rewrite ``path`` in place with a later mtime (as an editor saving it would)."""
    st = path.stat()
    path.write_text(text)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_unchanged_when_nothing_moved(tmp_path: Path) -> None:
    make_repo(tmp_path)
    _, inputs = read_layout_noting(tmp_path, SOURCES)
    assert layout_unchanged(tmp_path, reversed(SOURCES), inputs) is True


def test_an_extended_config_edited_in_place_is_seen(tmp_path: Path) -> None:
    make_repo(tmp_path)
    _, inputs = read_layout_noting(tmp_path, SOURCES)
    bump(tmp_path / "tsconfig.base.json", '{"compilerOptions": {"baseUrl": "packages"}}\n')
    assert layout_unchanged(tmp_path, SOURCES, inputs) is False


def test_a_config_file_appearing_in_a_source_directory_is_seen(tmp_path: Path) -> None:
    make_repo(tmp_path)
    _, inputs = read_layout_noting(tmp_path, SOURCES)
    lib_src = tmp_path / "packages/lib/src"
    st = lib_src.stat()
    (lib_src / "tsconfig.json").write_text('{"compilerOptions": {"baseUrl": "."}}\n')
    os.utime(lib_src, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert layout_unchanged(tmp_path, SOURCES, inputs) is False


def test_another_source_list_or_no_inputs_means_read_again(tmp_path: Path) -> None:
    make_repo(tmp_path)
    _, inputs = read_layout_noting(tmp_path, SOURCES)
    assert layout_unchanged(tmp_path, SOURCES[:1], inputs) is False
    assert layout_unchanged(tmp_path, SOURCES, "") is False


def test_quiet_reindex_rereads_a_package_json_edited_between_runs(tmp_path: Path) -> None:
    make_repo(tmp_path)
    config = load_config(tmp_path)
    first = index_repository(tmp_path, config=config, embedder="none")
    assert first.resolved_files == 2
    assert index_repository(tmp_path, config=config, embedder="none").resolved_files == 0
    # renaming the package moves what `@demo/lib` resolves to: every file is resolved again
    bump(tmp_path / "packages/lib/package.json", '{"name": "@demo/other"}\n')
    assert index_repository(tmp_path, config=config, embedder="none").resolved_files == 2
    assert index_repository(tmp_path, config=config, embedder="none").resolved_files == 0


# -- the stored layout, reused by a run that edits sources in place ------------------------------


def later(path: Path) -> None:
    """Move ``path``'s mtime a second on (a directory whose entries changed, at coarse clocks)."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_stored_layout_is_the_one_read(tmp_path: Path) -> None:
    make_repo(tmp_path)
    layout, inputs = read_layout_noting(tmp_path, SOURCES)
    assert layout.part("typescript").packages  # not an empty layout
    stored = stored_layout(tmp_path, SOURCES, inputs, layout_fingerprint(layout))
    assert stored == layout


def test_stored_layout_refused_after_a_config_edit(tmp_path: Path) -> None:
    make_repo(tmp_path)
    layout, inputs = read_layout_noting(tmp_path, SOURCES)
    bump(tmp_path / "packages/app/tsconfig.json", '{"compilerOptions": {"baseUrl": "src"}}\n')
    assert stored_layout(tmp_path, SOURCES, inputs, layout_fingerprint(layout)) is None


def test_stored_layout_refused_for_another_fingerprint_or_an_older_index(tmp_path: Path) -> None:
    make_repo(tmp_path)
    layout, inputs = read_layout_noting(tmp_path, SOURCES)
    assert stored_layout(tmp_path, SOURCES, inputs, "0" * 40) is None
    assert stored_layout(tmp_path, SOURCES, inputs, "") is None
    older = json.dumps({k: v for k, v in json.loads(inputs).items() if k != "layout"})
    assert layout_unchanged(tmp_path, SOURCES, older) is True
    assert stored_layout(tmp_path, SOURCES, older, layout_fingerprint(layout)) is None


def test_stored_layout_builds_nothing_but_layout_classes(tmp_path: Path) -> None:
    make_repo(tmp_path)
    layout, inputs = read_layout_noting(tmp_path, SOURCES)
    hostile = json.loads(inputs)
    marker = tmp_path / "ran"
    payload = pickle.dumps(Path.touch.__get__(marker))  # a bound method: a call on load
    hostile["layout"] = base64.b64encode(payload).decode()
    assert stored_layout(tmp_path, SOURCES, json.dumps(hostile), layout_fingerprint(layout)) is None
    assert not marker.exists()


def _layout_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the indexer's reads of the config files."""
    reads: list[int] = []

    def counted(root: Path, paths: object) -> object:
        reads.append(1)
        return read_layout_noting(root, paths)  # type: ignore[arg-type]

    monkeypatch.setattr(indexer, "read_layout_noting", counted)
    return reads


def _indexed_then_counted(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Config, list[int]]:
    """The test repository indexed once; from then on the indexer's layout reads counted."""
    make_repo(root)
    config = load_config(root)
    index_repository(root, config=config, embedder="none")
    return config, _layout_reads(monkeypatch)


def test_a_source_edit_reuses_the_stored_layout(tmp_path: Path, monkeypatch) -> None:
    config, reads = _indexed_then_counted(tmp_path, monkeypatch)
    bump(
        tmp_path / SOURCES[1],
        "export function f(): number {\n  return 2;\n}\nexport const h = 1;\n",
    )
    summary = index_repository(tmp_path, config=config, embedder="none")
    assert (summary.parsed, summary.resolved_files, reads) == (1, 2, [])


def test_a_tsconfig_edit_with_a_source_edit_reads_the_layout_again(tmp_path, monkeypatch) -> None:
    config, reads = _indexed_then_counted(tmp_path, monkeypatch)
    bump(tmp_path / "tsconfig.base.json", '{"compilerOptions": {"baseUrl": "packages"}}\n')
    bump(tmp_path / SOURCES[1], "export function f(): number {\n  return 2;\n}\n")
    summary = index_repository(tmp_path, config=config, embedder="none")
    assert (summary.parsed, summary.resolved_files, reads) == (1, 2, [1])


def test_a_new_package_json_with_a_source_edit_reads_the_layout_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, reads = _indexed_then_counted(tmp_path, monkeypatch)
    (tmp_path / "packages/app/package.json").write_text('{"name": "@demo/app"}\n')
    later(tmp_path / "packages/app")
    bump(tmp_path / SOURCES[1], "export function f(): number {\n  return 2;\n}\n")
    summary = index_repository(tmp_path, config=config, embedder="none")
    assert (summary.parsed, reads) == (1, [1])
    assert summary.resolved_files == 2  # a new workspace package: every file resolved again


def test_a_deleted_package_json_with_a_source_edit_reads_the_layout_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, reads = _indexed_then_counted(tmp_path, monkeypatch)
    (tmp_path / "packages/lib/package.json").unlink()
    later(tmp_path / "packages/lib")
    bump(tmp_path / SOURCES[0], 'import { f } from "@demo/lib";\nexport const g = () => f() + 1;\n')
    summary = index_repository(tmp_path, config=config, embedder="none")
    assert (summary.parsed, summary.resolved_files, reads) == (1, 2, [1])
