"""Source as astrag shows it: editor line breaks, credentials masked, only regular files
inside the root, decoded as the indexer decodes."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from astrag.sources import read_lines, read_text, split_lines


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("a\nb\n", ["a", "b"]),
        ("a\r\nb\r\n", ["a", "b"]),
        ("a\rb", ["a", "b"]),
        ("a\n\nb", ["a", "", "b"]),
        ("", []),
        ("\n", [""]),
        # what str.splitlines() also breaks on, and editors do not
        ("x = 1\f\ny = 2", ["x = 1\f", "y = 2"]),
        ("s = 'a\u2028b'\nt", ["s = 'a\u2028b'", "t"]),
        ("a\x0bb\x1cc\x1dd\x1ee\x85f\u2029g", ["a\x0bb\x1cc\x1dd\x1ee\x85f\u2029g"]),
    ],
)
def test_lines_break_where_an_editor_breaks_them(text: str, lines: list[str]) -> None:
    assert split_lines(text) == lines


def test_credentials_are_masked_in_what_is_read(tmp_path: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5" * 3 + "F6g7H8"
    (tmp_path / "a.py").write_text(f'TOKEN = "{token}"\n\fdef f():\n    pass\n')
    lines = read_lines(tmp_path, "a.py")
    assert lines == [
        'TOKEN = "<redacted:github-token>' + "*" * 17 + '"',
        "\fdef f():",
        "    pass",
    ]


def test_files_are_decoded_as_the_indexer_decodes_them(tmp_path: Path) -> None:
    (tmp_path / "u16.py").write_bytes("x = 'é'\ny = 2\n".encode("utf-16"))
    (tmp_path / "latin.py").write_bytes("s = 'caf\xe9'\n".encode("cp1252"))
    assert read_lines(tmp_path, "u16.py") == ["x = 'é'", "y = 2"]
    assert read_lines(tmp_path, "latin.py") == ["s = 'café'"]


def test_a_link_out_of_the_root_is_not_read(tmp_path: Path) -> None:
    root, outside = tmp_path / "repo", tmp_path / "outside.py"
    root.mkdir()
    outside.write_text("SECRET = 1\n")
    (root / "inside.py").write_text("x = 1\n")
    (root / "leak.py").symlink_to(outside)
    (root / "alias.py").symlink_to(root / "inside.py")
    assert read_text(root, "leak.py") is None
    assert read_text(root, "../outside.py") is None
    assert read_text(root, str(outside)) is None
    assert read_lines(root, "alias.py") == ["x = 1"]  # a link inside the root is fine


def test_a_fifo_a_directory_and_a_missing_file_are_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "pkg").mkdir()
    result: list[object] = []
    reader = threading.Thread(target=lambda: result.append(read_text(tmp_path, "pipe.py")))
    reader.start()
    reader.join(5)
    assert not reader.is_alive(), "reading a FIFO blocked"
    assert result == [None]
    assert read_text(tmp_path, "pkg") is None
    assert read_lines(tmp_path, "gone.py") == []
    assert read_text(tmp_path, "a\0b.py") is None


def test_show_and_context_print_the_symbols_lines_after_odd_separators(tmp_path: Path) -> None:
    from astrag import api

    (tmp_path / "m.py").write_text(
        '"""Module."""\n\f\nS = "a\u2028b\x85c"\n\n\ndef target():\n    return S\n'
    )
    api.index(tmp_path, jobs=1, embedder="none")
    with api.open_index(tmp_path) as idx:
        target = idx.resolve("target")
        assert (target.start_line, target.end_line) == (6, 7)
        assert idx.source(target) == "def target():\n    return S"
        assert idx.source(idx.resolve("S")) == 'S = "a\u2028b\x85c"'
        items = {i.id: i for i in idx.context("target", 2000).items}
        assert items["m.py::target"].content == "def target():\n    return S"
