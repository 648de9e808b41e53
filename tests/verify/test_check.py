"""One test per checker rule, with a positive and a negative case in each language, on a
small indexed fixture; the dynamic cases must stay silent."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from astrag import api
from astrag.verify.findings import Finding

PY = {
    "app/__init__.py": "",
    "app/models.py": """
        class Base:
            def save(self) -> None:
                pass

        class User(Base):
            def __init__(self, name: str, email: str = "") -> None:
                self.name = name

            def rename(self, name: str) -> None:
                self.name = name

        class Dynamic:
            def __getattr__(self, item):
                return item
    """,
    "app/services.py": """
        from app.models import User

        def get_user_by_id(user_id: int) -> User:
            return User("x")

        def log(*args, **kwargs) -> None:
            pass

        class UserService:
            def __init__(self, users: dict) -> None:
                self.users = users

            def find(self, user_id: int) -> User:
                return get_user_by_id(user_id)
    """,
    "app/multi.py": """
        from app.models import (
            Base,
            User,
        )
        from app.services import (
            log,
            missing_before,
        )
    """,
}

TS = {
    "src/auth.service.ts": """
        export class AuthService {
          login(user: string, password: string): boolean { return true; }
          logout(): void {}
        }
        export interface Store { get(key: string): string; }
        export function hash(text: string, salt?: string): string { return text; }
    """,
    "src/users.controller.ts": """
        import { AuthService, hash } from './auth.service';

        export class UsersController {
          constructor(private readonly auth: AuthService) {}

          signIn(name: string) {
            return this.auth.login(name, hash(name));
          }
        }
    """,
}


@pytest.fixture(autouse=True)
def _both_stores(use_store: str) -> str:
    """Every check runs against an index in SQLite and in PostgreSQL."""
    return use_store


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory, store_url: str) -> Path:
    root = tmp_path_factory.mktemp("checked")
    for rel, text in {**PY, **TS}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    api.index(root, store=store_url or "sqlite")
    return root


def findings(repo: Path, code: str, path: str) -> list[tuple[str, int]]:
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path=path)
    return [(f.rule, f.line) for f in report.findings]


# ------------------------------------------------------------------------- unknown-member


def test_python_unknown_method_on_typed_receiver_and_self(repo: Path) -> None:
    code = """
        def handler(service: UserService):
            user = service.fetch(1)
            service.find(1).renmae("x")
    """
    assert findings(repo, code, "app/services.py") == [
        ("unknown-member", 2),
        ("unknown-member", 3),
    ]
    ok = """
        def handler(service: UserService):
            service.find(1).rename("x")
            service.find(1).save()
    """
    assert findings(repo, ok, "app/services.py") == []


def test_python_unknown_member_of_a_repository_module(repo: Path) -> None:
    code = """
        from app import models

        def make():
            return models.Usr("x")
    """
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path="app/services.py")
    [finding] = report.findings
    assert (finding.rule, finding.line, finding.suggestions) == ("unknown-member", 4, ("User",))
    assert findings(repo, code.replace("Usr", "User"), "app/services.py") == []


def test_typescript_unknown_method_through_an_injected_field(repo: Path) -> None:
    code = """
        export class Other {
          constructor(private readonly auth: AuthService) {}
          run() { this.auth.logn('a', 'b'); this.auth.logout(); }
        }
    """
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path="src/users.controller.ts")
    [finding] = report.findings
    assert (finding.rule, finding.line, finding.column) == ("unknown-member", 3, 21)
    assert finding.suggestions == ("login", "logout")


def test_dynamic_receivers_say_nothing(repo: Path) -> None:
    code = """
        import requests

        def handler(anything, d: Dynamic, **kw):
            anything.whatever()
            d.whatever()
            requests.get("u").jsonz()
            kw["x"].nope()
    """
    source = "from app.models import Dynamic\n" + textwrap.dedent(code).lstrip("\n")
    assert api.check(repo, source, path="app/services.py").findings == []
    ts_code = """
        export function f(s: Store, x: any) { s.get('k').anything(); x.whatever(); }
    """
    assert findings(repo, ts_code, "src/auth.service.ts") == []


# ---------------------------------------------------------------------- unknown-function


def test_unknown_function_in_both_languages(repo: Path) -> None:
    assert findings(repo, "def f():\n    return get_user_by_idd(1)\n", "app/services.py") == [
        ("unknown-function", 2)
    ]
    assert findings(repo, "def f():\n    return get_user_by_id(1)\n", "app/services.py") == []
    assert findings(repo, "export const g = () => hashh('x');\n", "src/auth.service.ts") == [
        ("unknown-function", 1)
    ]
    assert findings(repo, "export const g = () => hash('x');\n", "src/auth.service.ts") == []


def test_a_name_an_imported_module_defines_says_where_it_lives(repo: Path) -> None:
    """The close match a file binds is its own misspelt import: the finding says which
    imported module defines the name instead of suggesting the misspelling back."""
    code = "from app.models import Usre\n\ndef f():\n    return User('x')\n"
    report = api.check(repo, code, path="app/extra.py")
    assert [(f.rule, f.line, f.message, f.suggestions) for f in report.findings] == [
        (
            "unknown-import",
            1,
            "cannot import app.models.Usre: the module defines no such name (did you mean User?)",
            ("User",),
        ),
        (
            "unknown-function",
            4,
            "'User' is not defined anywhere in scope; app.models defines it: import it from there",
            (),
        ),
    ]
    ts = "import { AuthServise } from './auth.service';\nexport const g = () => hash('x');\n"
    report = api.check(repo, ts, path="src/extra.ts")
    assert [(f.line, f.message) for f in report.findings][1:] == [
        (
            2,
            "'hash' is not defined anywhere in scope; "
            "./auth.service defines it: import it from there",
        )
    ]
    # a name no imported module defines keeps its close matches
    code = "from app.models import User\n\ndef f():\n    return Usr('x')\n"
    [finding] = api.check(repo, code, path="app/services.py").findings
    assert finding.suggestions == ("User",)


# ------------------------------------------------------------------------ unknown-import


def test_unknown_import_in_both_languages(repo: Path) -> None:
    assert findings(repo, "from app.models import Usre\n", "app/services.py") == [
        ("unknown-import", 1)
    ]
    assert findings(repo, "from app.modles import User\n", "app/services.py") == [
        ("unknown-import", 1)
    ]
    assert findings(repo, "from app.models import User\nimport numpy\n", "app/services.py") == []
    ts_bad = "import { AuthServise } from './auth.service';\nimport { x } from './nope';\n"
    assert findings(repo, ts_bad, "src/users.controller.ts") == [
        ("unknown-import", 1),
        ("unknown-import", 2),
    ]
    ts_ok = "import { AuthService } from './auth.service';\nimport express from 'express';\n"
    assert findings(repo, ts_ok, "src/users.controller.ts") == []


# --------------------------------------------------------------- undeclared / unknown-type


def test_undeclared_names_and_unknown_types(repo: Path) -> None:
    code = """
        def f(u: Usr) -> None:
            print(MISSING_CONSTANT)
    """
    assert findings(repo, code, "app/services.py") == [
        ("unknown-type", 1),
        ("undeclared-name", 2),
    ]
    assert findings(repo, "def f(u: User) -> None:\n    print(len([u]))\n", "app/services.py") == []
    ts_bad = "export function f(a: AuthServic): void { console.log(MISSING); }\n"
    assert findings(repo, ts_bad, "src/users.controller.ts") == [
        ("unknown-type", 1),
        ("undeclared-name", 1),
    ]
    ts_ok = "export function f(a: AuthService): Promise<void> { console.log(a); return x; }\n"
    assert findings(repo, ts_ok.replace("return x; ", ""), "src/users.controller.ts") == []


# ------------------------------------------------------------- wrong-arguments / keywords


def test_wrong_argument_counts(repo: Path) -> None:
    py_bad = "def f(u: User):\n    u.rename()\n    get_user_by_id(1, 2)\n    User()\n"
    assert findings(repo, py_bad, "app/services.py") == [
        ("wrong-arguments", 2),
        ("wrong-arguments", 3),
        ("wrong-arguments", 4),
    ]
    py_ok = "def f(u: User):\n    u.rename('a')\n    User('n', 'e')\n    log(1, 2, 3, x=1)\n"
    assert findings(repo, py_ok, "app/services.py") == []
    ts_bad = "export function f(a: AuthService) { a.login('x'); hash(); new AuthService(1); }\n"
    assert [r for r, _ in findings(repo, ts_bad, "src/users.controller.ts")] == [
        "wrong-arguments",
        "wrong-arguments",
    ]
    ts_ok = "export function f(a: AuthService) { a.login('x', 'y'); hash('t'); hash('t', 's'); }\n"
    assert findings(repo, ts_ok, "src/users.controller.ts") == []


def test_unknown_keyword_arguments(repo: Path) -> None:
    assert findings(repo, "def f():\n    User('n', emial='x')\n", "app/services.py") == [
        ("unknown-keyword", 2)
    ]
    assert findings(repo, "def f():\n    User(name='n', email='x')\n", "app/services.py") == []


# ------------------------------------------------------------------------------- diffs


def test_a_diff_is_checked_on_its_added_lines_only(repo: Path) -> None:
    original = (repo / "app/services.py").read_text()
    changed = original.replace(
        "        return get_user_by_id(user_id)",
        "        self.audit(user_id)\n        return get_user_by_id(user_id)",
    )
    report = api.check(repo, _unified(original, changed, "app/services.py"))
    assert [(f.path, f.rule, f.line) for f in report.findings] == [
        ("app/services.py", "unknown-member", 14)
    ]
    assert report.findings[0].message.startswith("UserService has no member 'audit'")


def test_a_diff_that_writes_one_name_of_an_import_spread_over_lines(repo: Path) -> None:
    # Python's frontend records each name of the import at its own line; TypeScript's at
    # the statement's first line, which the change did not write
    original = (repo / "app/multi.py").read_text()
    renamed = api.check(
        repo, _unified(original, original.replace("User,", "Users,"), "app/multi.py")
    )
    assert [(f.rule, f.line) for f in renamed.findings] == [("unknown-import", 3)]
    # another import's line, already broken, is not the change's
    kept = api.check(
        repo, _unified(original, original.replace("log,", "log,  # kept"), "app/multi.py")
    )
    assert kept.findings == []
    ts = (repo / "src/users.controller.ts").read_text()
    spread = ts.replace("import { AuthService, hash }", "import {\n  AuthService,\n  hash,\n}")
    (repo / "src/spread.ts").write_text(spread, encoding="utf-8")
    try:
        diff = _unified(spread, spread.replace("  hash,", "  hashes,"), "src/spread.ts")
        assert [(f.rule, f.line) for f in api.check(repo, diff).findings] == [("unknown-import", 1)]
    finally:
        (repo / "src/spread.ts").unlink()


def test_a_diff_that_adds_a_file_and_uses_it(repo: Path) -> None:
    text = textwrap.dedent(
        """\
        --- /dev/null
        +++ b/app/extra.py
        @@ -0,0 +1,3 @@
        +from app.models import User
        +def promote(u: User):
        +    u.rename("boss")
        --- a/app/services.py
        +++ b/app/services.py
        @@ -1,1 +1,2 @@
         from app.models import User
        +from app.extra import promote, demote
        """
    )
    report = api.check(repo, text)
    assert [(f.path, f.rule, f.line) for f in report.findings] == [
        ("app/services.py", "unknown-import", 2)
    ]


def test_a_malformed_diff_is_a_clear_error(repo: Path) -> None:
    from astrag.verify.inputs import InputError

    bad = "--- a/app/services.py\n+++ b/app/services.py\n@@ -1,1 +1,1 @@\n-not there\n+x\n"
    with pytest.raises(InputError) as err:
        api.check(repo, bad)
    assert "does not match" in err.value.message
    with pytest.raises(InputError):
        api.check(repo, "--- a/../../etc/passwd\n+++ b/../../etc/passwd\n")


def _unified(old: str, new: str, path: str) -> str:
    import difflib

    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{path}", f"b/{path}"
    )
    return "".join(lines)


def test_findings_are_plain_data(repo: Path) -> None:
    report = api.check(repo, "def f():\n    nope()\n", path="app/services.py")
    assert report.findings == [
        Finding(
            "app/services.py",
            2,
            5,
            "unknown-function",
            "'nope' is not defined anywhere in scope",
            "error",
            (),
        )
    ]


def test_standard_library_calls_are_checked_on_the_real_modules(repo: Path) -> None:
    code = """
        import os
        import json
        from pathlib import Path

        def f(p: Path):
            os.path.joinz("a", "b")
            json.loads("{}").get("x")
            p.resolvez()
            p.resolve()
            os.path.join("a")
    """
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path="app/services.py")
    assert [(f.rule, f.line, f.suggestions[:1]) for f in report.findings] == [
        ("unknown-member", 6, ("join",)),
        ("unknown-member", 8, ("resolve",)),
    ]


def test_keywords_are_checked_beside_star_args_and_object_members_exist(repo: Path) -> None:
    code = """
        def tally(*items, strict=False):
            return len(items)

        def f(u: User):
            tally(1, 2, 3, strict=True)
            tally(1, stritc=True)
            return u.__class__, User.__new__(User)
    """
    assert findings(repo, code, "app/services.py") == [("unknown-keyword", 6)]


def test_installed_packages_are_read_statically(repo: Path) -> None:
    # typer and rich are astrag's own dependencies, so they are installed wherever this runs
    code = """
        import typer
        from rich.console import Consol
        from rich.text import Text

        def f():
            typer.Typr()
            typer.Typer()
            return Text("x")
    """
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path="app/services.py")
    assert [(f.rule, f.line, f.suggestions[:1]) for f in report.findings] == [
        ("unknown-import", 2, ("Console",)),
        ("unknown-member", 6, ("Typer",)),
    ]


def test_npm_package_declarations_are_read_from_node_modules(tmp_path: Path) -> None:
    pkg = tmp_path / "node_modules" / "@acme" / "kit"
    (pkg / "lib").mkdir(parents=True)
    (pkg / "package.json").write_text('{"name": "@acme/kit", "types": "lib/index.d.ts"}')
    (pkg / "lib" / "index.d.ts").write_text(
        "export declare function render(x: string): string;\nexport * from './widgets';\n"
    )
    (pkg / "lib" / "widgets.d.ts").write_text("export declare class Button {}\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.ts").write_text("export const x = 1;\n")
    api.index(tmp_path)
    code = "import { render, Button, Buton } from '@acme/kit';\nimport { y } from 'unknown-pkg';\n"
    report = api.check(tmp_path, code, path="src/app.ts")
    assert [(f.rule, f.line, f.suggestions) for f in report.findings] == [
        ("unknown-import", 1, ("Button",))
    ]


def test_suppression_comments_properties_and_platform_attributes_are_respected(
    repo: Path,
) -> None:
    code = """
        import sys
        from ctypes import wintypes

        class Box:
            @property
            def width(self) -> int:
                return 1

            @width.setter
            def width(self, value: int) -> None:
                pass

        def f():
            get_ipython()  # type: ignore[name-defined]
            sys.getwindowsversion()
            nope()
    """
    assert findings(repo, code, "app/services.py") == [("unknown-function", 16)]
    ts_code = "// @ts-ignore\nexport const a = hashh('x');\nexport const b = hashh('y');\n"
    assert findings(repo, ts_code, "src/auth.service.ts") == [("unknown-function", 3)]
