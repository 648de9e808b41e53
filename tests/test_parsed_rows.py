"""A parser process sends its chunk back as plain tuples, read back into the same results."""

from __future__ import annotations

import pickle
from pathlib import Path

from astrag.discover import Skipped, SourceFile, content_hash
from astrag.indexer import _parse_chunk, _Parsed, chunk_bounds, parsed_from_row, parsed_row
from astrag.store.base import FileRecord


def test_every_kind_of_parse_result_survives_its_row() -> None:
    record = FileRecord("a.py", "python", "h", 12, 34, 2, 1, "a note")
    results = [
        _Parsed("a.py", record, b"facts", b"docs", b"symbols"),
        _Parsed("b.py", None, None, skipped=Skipped("b.py", "too_large")),
        _Parsed("c.py", None, None, unchanged=True),
    ]
    rows = pickle.loads(pickle.dumps([parsed_row(p) for p in results]))
    assert [parsed_from_row(row) for row in rows] == results


def test_a_row_holds_no_dataclass_and_a_changed_field_shows() -> None:
    """Plain tuples only (the point of the rows); a result differing in one field reads back
    different, not as the other one."""
    record = FileRecord("a.py", "python", "h", 12, 34, 2, 0)
    row = parsed_row(_Parsed("a.py", record, b"facts", b"docs", b"symbols"))

    def plain(value: object) -> bool:
        if isinstance(value, tuple):
            return type(value) is tuple and all(plain(v) for v in value)
        return value is None or isinstance(value, (str, bytes, int, bool))

    assert plain(row)
    other = _Parsed("a.py", FileRecord("a.py", "python", "h", 12, 34, 2, 1), b"facts")
    assert parsed_from_row(row) != other


def test_a_parser_chunk_comes_back_as_rows_of_its_files(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    (tmp_path / "big.py").write_text("X = 1\n" * 100, encoding="utf-8")
    items = [
        (SourceFile("m.py", "python", 22, 1), None),
        (SourceFile("big.py", "python", 600, 1), None),
    ]
    parsed = [parsed_from_row(row) for row in _parse_chunk(str(tmp_path), 100, items)]
    assert [p.path for p in parsed] == ["m.py", "big.py"]
    assert parsed[0].record is not None and parsed[0].record.language == "python"
    assert parsed[0].blob and parsed[0].docs and parsed[0].symbols
    assert parsed[1].record is None and parsed[1].skipped is not None


def test_a_chunk_parsed_step_by_step_gives_each_file_what_it_gets_alone(tmp_path: Path) -> None:
    """A parser process runs each step over the whole chunk before the next one: every
    file's result (facts, documents, symbols, record, skip) is still the one it gets alone,
    whatever its neighbours are — another language, a skipped file, an unchanged one."""
    files = {
        "a.py": "import os\n\ndef f(x):\n    return os.path.join(x, 'y')\n",
        "b.ts": "export class B {\n  run(): number { return helper(2) }\n}\n",
        "big.py": "X = 1\n" * 100,
        "c.tsx": "export const C = () => <div>{B}</div>;\n",
        "same.py": "Y = 2\n",
        "d.js": "const token = 'a1B2c3D4e5F6g7H8i9J0kLmN';\nmodule.exports = { token };\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    known = {"same.py": content_hash(b"Y = 2\n")}
    language = {"py": "python", "ts": "typescript", "tsx": "typescript", "js": "javascript"}
    items = [
        (SourceFile(name, language[name.rsplit(".", 1)[1]], len(text.encode()), 1), known.get(name))
        for name, text in files.items()
    ]
    together = [parsed_from_row(row) for row in _parse_chunk(str(tmp_path), 400, items)]
    alone = [parsed_from_row(_parse_chunk(str(tmp_path), 400, [item])[0]) for item in items]
    assert together == alone
    assert together[5].record is not None and "redacted" in together[5].record.note
    kinds = [(p.path, p.record is not None, p.skipped is not None, p.unchanged) for p in together]
    assert kinds == [
        ("a.py", True, False, False),
        ("b.ts", True, False, False),
        ("big.py", False, True, False),
        ("c.tsx", True, False, False),
        ("same.py", False, False, True),
        ("d.js", True, False, False),
    ]


def test_parser_chunks_cover_every_file_once_large_first_and_small_at_the_end() -> None:
    assert chunk_bounds([], 2) == []
    assert chunk_bounds([100] * 40, 2) == [(0, 16), (16, 32), (32, 40)]
    bounds = chunk_bounds([2_000] * 5739, 2)
    sizes = [end - start for start, end in bounds]
    assert [start for start, _ in bounds] == [0, *(end for _, end in bounds[:-1])]
    assert bounds[-1][1] == 5739
    assert sizes[:15] == [256] * 15 and sizes[15:18] == [237, 207, 181]
    assert sizes == sorted(sizes, reverse=True) and sizes[-2] == 16 and sizes[-1] <= 16


def test_a_parser_chunk_of_large_files_stops_at_its_bytes_past_the_least_files() -> None:
    mib = 1 << 20
    # 16 files always; then files while the chunk holds at most 4 MiB of source
    assert chunk_bounds([mib] * 2000, 2)[:2] == [(0, 16), (16, 32)]
    assert chunk_bounds([100_000] * 2000, 2)[0] == (0, 41)  # 41 * 100,000 <= 4 MiB < 42 * ...
