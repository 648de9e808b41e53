"""A check from the command line re-indexes only when the index lacks files the change does
not cover: an edit checked as it stands is laid over the index as it is."""

from __future__ import annotations

import difflib
import os
import subprocess
from pathlib import Path

from astrag import api
from astrag.verify.inputs import ChangedFile, ChangeSet
from astrag.verify.refresh import covers

SHOP = "def total(items):\n    return sum(items)\n"
MAIN = "from shop import total\n\nprint(total([1, 2]))\n"
OTHER = "def other():\n    return 1\n"


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    for name, text in (("shop.py", SHOP), ("main.py", MAIN), ("other.py", OTHER)):
        (root / name).write_text(text)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")
    api.index(root, embedder="none")
    return root


def _indexed_hash(root: Path, path: str) -> str:
    session = api.open_check_session(root)
    try:
        return session.store.file_records()[path].hash
    finally:
        session.store.close()


def test_a_change_that_covers_every_stale_file_is_checked_without_re_indexing(
    tmp_path: Path,
) -> None:
    root = _repo(tmp_path)
    before = _indexed_hash(root, "shop.py")
    (root / "shop.py").write_text(SHOP.replace("total", "grand_total"))
    report = api.check(root, "", changed=True, refresh=True)
    assert [(f.path, f.line, f.rule) for f in report.findings] == [("main.py", 1, "unknown-import")]
    assert report.warning == "" and _indexed_hash(root, "shop.py") == before  # not re-indexed


def test_stale_files_outside_the_change_are_re_indexed_first(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    before = _indexed_hash(root, "other.py")
    (root / "other.py").write_text(OTHER.replace("other", "another"))
    new = SHOP.replace("sum(items)", "sum(items) + 0")
    diff = "".join(
        difflib.unified_diff(SHOP.splitlines(True), new.splitlines(True), "a/shop.py", "b/shop.py")
    )
    report = api.check(root, diff, refresh=True)
    assert report.findings == [] and report.warning == ""
    assert _indexed_hash(root, "other.py") != before  # re-indexed: the diff does not cover it


def test_what_a_change_covers() -> None:
    change = ChangeSet([ChangedFile("pkg/a.py", "", None, old_path="pkg/old.py")], ["b.py"])
    assert covers(change, ["pkg/a.py", "pkg/old.py", "b.py", "pkg", "."])
    assert not covers(change, ["pkg/a.py", "c.py"])
    assert not covers(change, ["other"])
