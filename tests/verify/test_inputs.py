"""What ``check`` accepts as input: diffs read as strictly as ``git apply --check`` (compared
with real git on mutated diffs), diffs found already applied, the working tree's changes
(``--changed``), and files that are not regular files or not UTF-8."""

from __future__ import annotations

import difflib
import os
import random
import re
import subprocess
import textwrap
from pathlib import Path

import pytest

from astrag import api
from astrag.verify.diffs import InputError
from astrag.verify.inputs import changes_from_diff

MODULE = "".join(
    f"def handler_{i}(value):\n    total = value + {i}\n    return total * 2\n\n\n"
    for i in range(40)
)


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, env=env)


def _commit_all(root: Path) -> None:
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")


def _unified(path: str, old: str, new: str) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{path}", f"b/{path}"
    )
    return "".join(lines)


def _mutated_diffs(seed: int, count: int) -> list[str]:
    """Real edits of MODULE, each diff then damaged the way hand-edited diffs are: an @@
    count off by one, a body line dropped, a context line changed, the file patched twice."""
    rng = random.Random(seed)
    lines = MODULE.splitlines(keepends=True)
    out = []
    for _ in range(count):
        new = list(lines)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(new))
            new[i : i + 1] = rng.choice([["    total = 0\n"], ["# note\n", new[i]], []])
        diff = _unified("m.py", MODULE, "".join(new)).splitlines(keepends=True)
        damage = rng.randrange(5)
        body = [j for j, line in enumerate(diff) if line[:1] in " +-" and line[1:3] not in "--++"]
        if damage == 0:
            j = rng.choice([j for j, line in enumerate(diff) if line.startswith("@@")])
            numbers = [int(n) for n in re.findall(r"\d+", diff[j])]
            numbers[rng.randrange(4)] += rng.choice((-1, 1))
            diff[j] = "@@ -{},{} +{},{} @@\n".format(*numbers)
        elif damage == 1:
            del diff[rng.choice(body)]
        elif damage == 2:
            j = rng.choice([j for j in body if diff[j].startswith(" ")] or body)
            diff[j] = diff[j][0] + "changed\n"
        elif damage == 3:
            diff = diff + diff
        out.append("".join(diff))  # damage 4: left intact
    return out


def test_diffs_are_accepted_and_refused_exactly_as_git_apply_check_does(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(MODULE)
    _commit_all(tmp_path)
    verdicts = []
    for i, diff in enumerate(_mutated_diffs(7, 60)):
        (tmp_path / f"p{i}.diff").write_text(diff)
        git_ok = _git(tmp_path, "apply", "--check", f"p{i}.diff").returncode == 0
        try:
            changes_from_diff(diff, lambda p: (tmp_path / p).read_text())
            ours = True
        except InputError:
            ours = False
        verdicts.append((git_ok, ours))
    assert all(git == ours for git, ours in verdicts)
    assert {git for git, _ in verdicts} == {True, False}  # both kinds were tried


def test_a_refused_diff_says_why(tmp_path: Path) -> None:
    new = MODULE.replace("    total = value + 3\n", "    total = value + 3\n    extra = 1\n")
    diff = _unified("m.py", MODULE, new)
    counted = diff.replace("@@ -15,6 +15,7 @@", "@@ -15,6 +15,9 @@")
    with pytest.raises(InputError, match=r"hunk 1 of m.py .*announces -6 \+9 lines but has -6 \+7"):
        changes_from_diff(counted, lambda p: MODULE)
    tail = "     return total * 2\n \n \n"
    extra = diff.replace(tail, tail + "+stray\n", 1)
    with pytest.raises(InputError, match="more lines than its header"):
        changes_from_diff(extra, lambda p: MODULE)
    with pytest.raises(InputError, match="does not match the file at line 15"):
        changes_from_diff(diff, lambda p: MODULE.replace("handler_3(", "other("))


def test_a_diff_already_applied_gives_the_same_new_files(tmp_path: Path) -> None:
    new = MODULE.replace("    total = value + 5\n", "    total = value + 5\n    extra = 1\n")
    new = new.replace("def handler_30(", "def renamed_30(")
    diff = _unified("m.py", MODULE, new)
    [before], _ = changes_from_diff(diff, lambda p: MODULE)
    [after], _ = changes_from_diff(diff, lambda p: new)
    assert (before.text, before.lines, before.old) == (after.text, after.lines, after.old)
    assert before.text == new and before.old == MODULE
    assert sorted(before.lines or ()) == [new.splitlines().index("    extra = 1") + 1, 152]


def test_a_file_the_diff_creates_may_exist_already_with_that_content() -> None:
    diff = "--- /dev/null\n+++ b/n.py\n@@ -0,0 +1,2 @@\n+import os\n+x = 1\n"
    [made], _ = changes_from_diff(diff, lambda p: None)
    [found], _ = changes_from_diff(diff, lambda p: "import os\nx = 1\n")
    assert made == found and made.lines == {1, 2}
    with pytest.raises(InputError, match="already exists with other contents"):
        changes_from_diff(diff, lambda p: "y = 2\n")


PY_APP = {
    "app/__init__.py": "",
    "app/models.py": """
        class User:
            def __init__(self, name: str) -> None:
                self.name = name

            def rename(self, name: str) -> None:
                self.name = name
    """,
    "app/service.py": """
        from app.models import User


        def promote(user: User) -> None:
            user.rename("boss")
    """,
}


@pytest.fixture
def app(tmp_path: Path) -> Path:
    for rel, text in PY_APP.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text).lstrip("\n"))
    _commit_all(tmp_path)
    api.index(tmp_path)
    return tmp_path


def _rows(report: api.CheckReport) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.rule) for f in report.findings]


def test_applied_and_unapplied_diffs_give_the_same_findings(app: Path) -> None:
    old = (app / "app/service.py").read_text()
    new = old.replace('user.rename("boss")', 'user.renmae("boss")\n    audit(user)')
    diff = _unified("app/service.py", old, new)
    expected = [("app/service.py", 5, "unknown-member"), ("app/service.py", 6, "unknown-function")]
    assert _rows(api.check(app, diff)) == expected  # not applied yet
    (app / "app/service.py").write_text(new)
    assert _rows(api.check(app, diff)) == expected  # applied, index stale
    api.index(app)
    assert _rows(api.check(app, diff)) == expected  # applied, index fresh
    assert _rows(api.check(app, "", changed=True)) == expected  # no diff at all


def test_changed_checks_the_working_tree_against_a_base(app: Path) -> None:
    (app / "app/extra.py").write_text("from app.models import Usr\n")  # untracked, new
    service = app / "app/service.py"
    service.write_text(service.read_text() + "\n\ndef later(u: User):\n    u.rename()\n")
    rows = _rows(api.check(app, "", changed=True))
    assert rows == [("app/extra.py", 1, "unknown-import"), ("app/service.py", 9, "wrong-arguments")]
    _git(app, "add", "-A")
    _git(app, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "more")
    assert _rows(api.check(app, "", changed=True)) == []
    assert _rows(api.check(app, "", changed=True, base="HEAD~1")) == rows
    with pytest.raises(InputError, match="git knows no revision nope"):
        api.check(app, "", changed=True, base="nope")


def test_changed_outside_git_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    api.index(tmp_path)
    with pytest.raises(InputError, match="is not in a git work tree"):
        api.check(tmp_path, "", changed=True)


def test_a_fifo_named_as_the_target_is_refused_before_it_is_opened(app: Path) -> None:
    os.mkfifo(app / "app/pipe.py")
    with pytest.raises(InputError, match=r"app/pipe.py is not a regular file \(a FIFO\)"):
        api.check(app, "x = 1\n", path="app/pipe.py")  # would block forever if opened
    diff = "--- a/app/pipe.py\n+++ b/app/pipe.py\n@@ -1 +1 @@\n-x\n+y\n"
    with pytest.raises(InputError, match="not a regular file"):
        api.check(app, diff)


def test_an_applied_diff_is_found_where_its_headers_say_though_its_old_side_repeats() -> None:
    block = "    finally:\n        w.set_a(a)\n        w.set_b(b)\n        w.set_c(c)\n"
    old = "def one(w, a, b, c):\n" + block + "\n\ndef two(w, a, b, c):\n" + block
    new = old[::-1].replace("c_tes.w", "c_yfidom.w", 1)[::-1]  # the second block's set_c
    assert new.count("w.modify_c(c)") == 1 and new.index("modify_c") > old.index("def two")
    diff = _unified("m.py", old, new)
    for current in (old, new):  # not applied yet, and applied: the same change
        (changed,) = changes_from_diff(diff, lambda _p, text=current: text).changed
        assert (changed.text, changed.old, sorted(changed.lines or ())) == (new, old, [12])
