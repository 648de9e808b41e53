"""The old versions' facts that ``check --changed`` keeps in the index directory between
checks: a second check of the same change reads them instead of re-parsing, with the same
findings, and a damaged or mismatched entry is re-extracted, never trusted."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from astrag import api
from astrag.fresh import bring_up_to_date
from astrag.graph.facts import FileFacts
from astrag.verify.old_facts import FOLDER, OldFacts, keep_indexed_versions

SHOP = "def total(items):\n    return sum(items)\n"
MAIN = "from shop import total\n\nprint(total([1, 2]))\n"


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def _renamed_repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "shop.py").write_text(SHOP)
    (root / "main.py").write_text(MAIN)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")
    (root / "shop.py").write_text(SHOP.replace("total", "grand_total"))  # main.py forgotten
    api.index(root, embedder="none")  # fresh: the index holds only the new shop.py
    return root


def _lines(report) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.rule) for f in report.findings]


def test_second_check_reads_the_kept_old_facts_with_the_same_findings(tmp_path: Path) -> None:
    root = _renamed_repo(tmp_path)
    first = api.check(root, "", changed=True)
    kept = [p for p in (root / ".astrag" / FOLDER).rglob("*") if p.is_file()]
    assert len(kept) == 1  # HEAD's shop.py
    second = api.check(root, "", changed=True)
    assert _lines(first) == _lines(second) == [("main.py", 1, "unknown-import")]
    assert [p for p in (root / ".astrag" / FOLDER).rglob("*") if p.is_file()] == kept


def test_a_damaged_entry_is_re_extracted(tmp_path: Path) -> None:
    root = _renamed_repo(tmp_path)
    first = api.check(root, "", changed=True)
    (entry,) = [p for p in (root / ".astrag" / FOLDER).rglob("*") if p.is_file()]
    entry.write_bytes(b"not facts")
    again = api.check(root, "", changed=True)
    assert _lines(again) == _lines(first) == [("main.py", 1, "unknown-import")]
    assert entry.read_bytes() != b"not facts"  # replaced by the re-extracted facts


def test_entries_are_per_path_and_content(tmp_path: Path) -> None:
    cache = OldFacts(tmp_path)
    shop = cache.facts("shop.py", SHOP)
    assert isinstance(shop, FileFacts) and [d.name for d in shop.definitions] == ["total"]
    # the same bytes as another file: that file's facts, not shop.py's
    other = cache.facts("other.py", SHOP)
    assert other.path == "other.py" and shop.path == "shop.py"
    changed = cache.facts("shop.py", SHOP.replace("total", "sum_all"))
    assert [d.name for d in changed.definitions] == ["sum_all"]
    assert len(list((tmp_path / FOLDER).rglob("*"))) == 4  # the version folder + 3 entries


def test_without_an_index_directory_nothing_is_kept(tmp_path: Path) -> None:
    facts = OldFacts(None).facts("shop.py", SHOP)
    assert [d.name for d in facts.definitions] == ["total"]
    assert list(tmp_path.iterdir()) == []


def test_a_refresh_keeps_the_versions_it_replaces_for_the_first_check(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "shop.py").write_text(SHOP)
    (root / "main.py").write_text(MAIN)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")
    api.index(root, embedder="none")  # the index holds HEAD's shop.py
    (root / "shop.py").write_text(SHOP.replace("total", "grand_total"))
    store = api.open_check_session(root).store
    try:
        status = bring_up_to_date(root, store, before_update=keep_indexed_versions)
    finally:
        store.close()
    assert status.updated == ["shop.py"]
    (entry,) = [p for p in (root / ".astrag" / FOLDER).rglob("*") if p.is_file()]
    # the check finds HEAD's shop.py kept, so it extracts nothing: the entry stays as kept
    mtime = entry.stat().st_mtime_ns
    report = api.check(root, "", changed=True)
    assert _lines(report) == [("main.py", 1, "unknown-import")]
    assert entry.stat().st_mtime_ns == mtime
    assert [d.name for d in OldFacts(root / ".astrag").facts("shop.py", SHOP).definitions] == [
        "total"
    ]
