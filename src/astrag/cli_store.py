"""Where the index lives, on the command line: the global ``--store`` option and
``astrag migrate``; registered onto the main app by ``cli.py``.

``astrag --store URL <command>`` sets ``ASTRAG_STORE`` for this process (and the parser
processes it forks), so every command — index, the queries, check, ask, mcp — opens the same
store through ``store/open.py`` without each growing its own option.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from astrag import api
from astrag.cli_shared import errors
from astrag.config import load_config
from astrag.errors import AstragError
from astrag.fresh import ENV_NO_REFRESH
from astrag.store.base import GraphStore
from astrag.store.open import ENV_STORE, check_url, is_server, make_store, redact
from astrag.store.sqlite import DB_NAME, SqliteStore

StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        help="Index store: sqlite (default) or postgresql://user@host/db "
        "(else ASTRAG_STORE, else store = in .astrag.toml).",
        show_default=False,
    ),
]


NoRefreshOpt = Annotated[
    bool,
    typer.Option(
        "--no-refresh",
        help="Answer from the index as it is (say on stderr what changed since), "
        "instead of updating it first.",
    ),
]


def choose_store(store: str | None, no_refresh: bool = False) -> None:
    """Apply the global ``--store`` and ``--no-refresh`` options (the main callback in
    ``cli.py`` takes them)."""
    if no_refresh:
        os.environ[ENV_NO_REFRESH] = "1"
    if store:
        with errors():
            check_url(store)
        os.environ[ENV_STORE] = store


def migrate(
    source: Annotated[
        str, typer.Option("--from", help="An index directory (.astrag) or a postgresql:// URL.")
    ],
    target: Annotated[
        str, typer.Option("--to", help="An index directory (.astrag) or a postgresql:// URL.")
    ],
    repo: Annotated[
        Path | None,
        typer.Option("--repo", help="The repository (names it in a shared database)."),
    ] = None,
) -> None:
    """Copy an index between stores (SQLite <-> PostgreSQL), replacing the destination's."""
    from astrag.store.migrate import copy_index

    with errors():
        root = (repo or api.find_root(None)).resolve()
        if not root.is_dir():
            raise AstragError(f"{root} is not a directory", "pass --repo with a repository root")
        src, dst = _endpoint(source, root, readonly=True), _endpoint(target, root, readonly=False)
        try:
            src.open()
            copied = copy_index(src, dst)
        finally:
            src.close()
            dst.close()
    sys.stdout.write(
        f"copied {copied.files} files, {copied.symbols} symbols, {copied.edges} edges, "
        f"{copied.docs} search documents, {copied.vectors} vectors "
        f"from {_shown(source)} to {_shown(target)}\n"
    )


def _endpoint(spec: str, root: Path, *, readonly: bool) -> GraphStore:
    if is_server(spec):
        return make_store(root, load_config(root), readonly=readonly, url=spec)
    path = Path(spec).expanduser()
    if not (path / DB_NAME).is_file() and (path / ".astrag" / DB_NAME).is_file():
        path = path / ".astrag"  # a repository root was given
    if readonly and not (path / DB_NAME).is_file():
        raise AstragError(f"no astrag index in {path}", "pass the .astrag directory of an index")
    return SqliteStore(path, readonly=readonly)


def _shown(spec: str) -> str:
    return redact(spec) if is_server(spec) else spec


def register(app: typer.Typer) -> None:
    app.command()(migrate)
