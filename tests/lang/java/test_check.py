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
