"""What the layout was read from decides whether a quiet re-index may skip reading it again."""

from __future__ import annotations

import os
from pathlib import Path

from astrag.config import load_config
from astrag.indexer import index_repository
from astrag.project_layout import layout_unchanged, read_layout_noting

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
