"""The checker has no Java rules yet: it says so instead of reporting "no problems"."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag import api
from astrag.errors import AstragError


def test_checking_java_is_refused_plainly(tmp_path: Path) -> None:
    (tmp_path / "A.java").write_text("class A { void f() {} }\n")
    api.index(tmp_path, embedder="none")
    with pytest.raises(AstragError, match="does not check Java code yet"):
        api.check(tmp_path, "class A { void f() { g(); } }\n", path="A.java")


def test_a_mixed_change_checks_its_python_and_leaves_java_out(tmp_path: Path) -> None:
    (tmp_path / "A.java").write_text("class A { void f() {} }\n")
    (tmp_path / "m.py").write_text("def f():\n    return 1\n")
    api.index(tmp_path, embedder="none")
    diff = (
        "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,3 @@\n def f():\n     return 1\n+g()\n"
        "--- a/A.java\n+++ b/A.java\n@@ -1 +1 @@\n-class A { void f() {} }\n"
        "+class A { void f() { g(); } }\n"
    )
    report = api.check(tmp_path, diff)
    assert report.files == ["m.py"]
    assert [(f.path, f.line, f.rule) for f in report.findings] == [("m.py", 3, "unknown-function")]
