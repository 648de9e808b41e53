"""An edit's re-index embeds its new texts without numpy (embed/few.py), loading the table
while it resolves only when a text needs a vector, and stores the vectors numpy would make."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from astrag import api, indexer
from astrag.config import load_config
from astrag.embed.static import StaticEmbedder
from astrag.store.open import make_store

EDIT = """
import json, sys
from pathlib import Path
from astrag import api, indexer

warmed = []
real = indexer.warm
indexer.warm = lambda spec: (warmed.append(spec), real(spec))
root = Path(sys.argv[1])
path = root / sys.argv[2]
path.write_text(path.read_text() + sys.argv[3])
summary = api.index(root)
print(json.dumps([warmed, summary.embedded, "numpy" in sys.modules]))
"""


def _edit(root: Path, rel: str, text: str) -> list[object]:
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(EDIT), str(root), rel, text],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ),
        check=False,
    )
    assert run.returncode == 0, run.stderr
    result: list[object] = json.loads(run.stdout)
    return result


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def load_config(path):\n    return open(path)\n")
    (tmp_path / "pkg" / "b.py").write_text(
        "from pkg.a import load_config\n\ndef main():\n    return load_config('x')\n"
    )
    api.index(tmp_path, embedder="local")
    return tmp_path


def _stored_and_numpy(root: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    store = make_store(root, load_config(root), readonly=True)
    store.open()
    try:
        ids, blobs = store.vectors()
        texts = {d.id: d.text for d in store.all_docs()}
    finally:
        store.close()
    embedder = StaticEmbedder()
    numpy = {i: bytes(embedder.embed([texts[i]]).astype("float16").tobytes()) for i in ids}
    return dict(zip(ids, blobs, strict=True)), numpy


def test_a_new_function_is_embedded_without_numpy_as_numpy_would(repo: Path) -> None:
    warmed, embedded, numpy = _edit(repo, "pkg/a.py", "\ndef save_settings(data):\n    pass\n")
    assert warmed == ["local"] and embedded >= 1 and numpy is False
    stored, expected = _stored_and_numpy(repo)
    assert "pkg/a.py::save_settings" in stored
    assert stored == expected


def test_an_edit_without_new_texts_loads_no_embedder(repo: Path) -> None:
    warmed, embedded, numpy = _edit(repo, "pkg/b.py", "# a comment\n")
    assert warmed == [] and embedded == 0 and numpy is False


def test_many_files_changed_do_not_warm(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(indexer, "warm", calls.append)
    for i in range(indexer._WARM_MAX_FILES + 1):
        (repo / "pkg" / f"m{i}.py").write_text(f"def fresh_{i}():\n    return {i}\n")
    api.index(repo, embedder="local")
    assert calls == []
    (repo / "pkg" / "m0.py").write_text("def fresher():\n    return 0\n")
    api.index(repo, embedder="local")
    assert calls == ["local"]
