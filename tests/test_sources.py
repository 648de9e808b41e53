"""Source as astrag shows it: editor line breaks, credentials masked, the lines the index
numbered (reading itself, race-free and decoded, is tested in test_discover.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag.sources import shown_lines, split_lines


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


def test_credentials_are_masked_in_what_is_shown() -> None:
    token = "ghp_" + "a1B2c3D4e5" * 3 + "F6g7H8"
    lines = shown_lines(f'TOKEN = "{token}"\n\fdef f():\n    pass\n'.encode())
    assert lines == [
        'TOKEN = "<redacted:github-token>' + "*" * 17 + '"',
        "\fdef f():",
        "    pass",
    ]


def test_a_lone_cr_is_one_line_break_for_the_index_and_for_show(tmp_path: Path) -> None:
    from astrag import api

    (tmp_path / "m.py").write_bytes(b"x = 1\rdef target():\r    return x\r")
    api.index(tmp_path, jobs=1, embedder="none")
    with api.open_index(tmp_path) as idx:
        target = idx.resolve("target")
        assert (target.start_line, target.end_line) == (2, 3)
        assert idx.source(target) == "def target():\n    return x"


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
