"""checker_history.py end to end on a throwaway repository with three commits."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

_BENCH = Path(__file__).resolve().parents[2] / "bench"
_spec = importlib.util.spec_from_file_location("checker_history", _BENCH / "checker_history.py")
assert _spec is not None and _spec.loader is not None
history = importlib.util.module_from_spec(_spec)
sys.modules["checker_history"] = history  # dataclasses look their module up by name
_spec.loader.exec_module(history)

_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
}  # fmt: skip


def _commit(repo: Path, files: dict[str, str], message: str) -> None:
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=_ENV)
    subprocess.run(["git", "commit", "-qm", message], cwd=repo, check=True, env=_ENV)


def test_correct_commit_is_clean_and_a_wrong_one_is_reported(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    _commit(repo, {"pkg/util.py": "def helper(x):\n    return x\n"}, "base")
    _commit(repo, {"pkg/main.py": "from util import helper\n\nhelper(1)\n"}, "right")
    _commit(repo, {"pkg/main.py": "from util import helper\n\nhelper(1)\nhelpr(2)\n"}, "wrong")
    out = tmp_path / "report.json"

    history.main(["--git-dir", str(repo / ".git"), "--subdir", "pkg", "--json", str(out)])

    report = json.loads(out.read_text())
    assert report["summary"]["commits"] == 2  # the root commit has no parent to check against
    wrong, right = report["commits"]
    assert right["findings"] == [] and not right["error"]
    assert [(f["rule"], f["line"], f["code"]) for f in wrong["findings"]] == [
        ("unknown-function", 4, "helpr(2)")
    ]
