"""Which store an index lives in, and opening it: the one place that decides.

The store is named by a URL, looked up in this order (the first that is set wins):

1. an explicit ``url`` (the CLI's ``--store``),
2. the ``ASTRAG_STORE`` environment variable,
3. ``store = "..."`` at the top level of ``.astrag.toml``,
4. the embedded default: SQLite under ``<root>/<index_dir>`` (``.astrag/``).

``sqlite`` (or an empty value) names the embedded store; ``postgresql://`` / ``postgres://``
URLs the server store. Keep passwords out of the file: libpq reads ``PGPASSWORD`` and
``~/.pgpass``, so ``postgresql://astrag@db.internal/astrag`` is enough.

**Which repository in a shared database.** A checkout is keyed by (name, branch):

* name: ``ASTRAG_REPO`` or ``repo = "..."`` in ``.astrag.toml`` when set; else the URL of the
  git remote ``origin`` with any credentials and a trailing ``.git`` removed (so every clone of
  one repository, on any machine, shares one index); else the checkout's absolute path.
* branch: the part after ``@`` in an explicit name (``repo = "shop@release-2"``); else the
  checked-out git branch (``HEAD`` when detached); else empty.

Branches therefore sit side by side and never mix; switching branches switches index.
"""

from __future__ import annotations

import configparser
import os
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from astrag.config import Config
from astrag.errors import ConfigError
from astrag.store.base import GraphStore, IndexMissing
from astrag.store.index_dir import claim as claim_dir
from astrag.store.sqlite import SqliteStore

ENV_STORE = "ASTRAG_STORE"
ENV_REPO = "ASTRAG_REPO"
_SERVER_SCHEMES = ("postgresql://", "postgres://")


def store_url(config: Config, url: str | None = None) -> str:
    """The store URL in force ('' for the embedded SQLite store)."""
    for value in (url, os.environ.get(ENV_STORE), config.extra.get("store")):
        if value is None or not str(value).strip():
            continue
        return check_url(str(value).strip())
    return ""


def check_url(value: str) -> str:
    """``value`` if it names a store astrag can open ('' for the embedded one)."""
    if value.lower() == "sqlite":
        return ""
    if value.lower().startswith(_SERVER_SCHEMES):
        return value
    raise ConfigError(
        f"unknown store {value.split('://', 1)[0]!r}" + ("://..." if "://" in value else ""),
        hint='use "sqlite" (the default) or a postgresql://user@host/dbname URL',
    )


def is_server(url: str) -> bool:
    return url.lower().startswith(_SERVER_SCHEMES)


def make_store(root: Path, config: Config, *, readonly: bool, url: str | None = None) -> GraphStore:
    """The store of ``root``'s index, not yet opened (a writer takes its lock first)."""
    chosen = store_url(config, url)
    if not chosen:
        return SqliteStore(root / config.index_dir, readonly=readonly)
    from astrag.store.postgres import PostgresStore  # psycopg only when a server is used

    name, branch = repo_key(root, config)
    return PostgresStore(chosen, name, branch, readonly=readonly)


def open_store(root: Path, config: Config, *, readonly: bool, url: str | None = None) -> GraphStore:
    """The store of ``root``'s index, opened; read-only opens of a missing index raise
    :class:`IndexMissing` with the hint to index first."""
    store = make_store(root, config, readonly=readonly, url=url)
    if isinstance(store, SqliteStore) and readonly and not store.exists():
        interrupted = store.interrupted_first_index()
        if interrupted:
            raise IndexMissing(
                f"no astrag index in {root} yet: {interrupted}",
                f"run `astrag index {root}` to build it (a run in progress: wait for it)",
            )
        raise IndexMissing(f"no astrag index in {root}", f"run `astrag index {root}` first")
    try:
        store.open()
    except IndexMissing:
        # the same words as for SQLite, naming the repository rather than the server
        server = redact(store_url(config, url))
        raise IndexMissing(
            f"no astrag index in {root} (store {server})",
            f"run `astrag index {root}` first, with the same store",
        ) from None
    return store


MARKER = "store"  # <root>/<index_dir>/store: "this repository is indexed in that server"


def mark_indexed(root: Path, config: Config, url: str | None = None) -> None:
    """Leave ``<root>/.astrag/store`` (the server's URL without credentials) after indexing
    into a server store, so that commands run inside the repository find its root the way
    they find a SQLite index (``api.find_root``)."""
    chosen = store_url(config, url)
    if not chosen:
        return
    directory = root / config.index_dir
    claim_dir(directory)
    (directory / MARKER).write_text(redact(chosen) + "\n", encoding="utf-8")


def repo_key(root: Path, config: Config) -> tuple[str, str]:
    """(name, branch) of ``root`` in a shared store; see the module docstring."""
    explicit = os.environ.get(ENV_REPO, "").strip() or str(config.extra.get("repo", "")).strip()
    if explicit:
        name, _, branch = explicit.partition("@")
        return name, branch or _git_branch(root)
    return _git_origin(root) or root.resolve().as_posix(), _git_branch(root)


def _git_dir(root: Path) -> Path | None:
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    if dot_git.is_file():  # a worktree or submodule: "gitdir: <path>"
        text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
        if text.startswith("gitdir:"):
            found = (root / text.removeprefix("gitdir:").strip()).resolve()
            return found if found.is_dir() else None
    return None


def _git_branch(root: Path) -> str:
    git = _git_dir(root)
    if git is None:
        return ""
    try:
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return ""
    return head.removeprefix("ref: refs/heads/") if head.startswith("ref: ") else "HEAD"


def _git_origin(root: Path) -> str:
    git = _git_dir(root)
    if git is None:
        return ""
    common = git / "commondir"  # a worktree's config lives in the main repository
    if common.is_file():
        git = (git / common.read_text(encoding="utf-8").strip()).resolve()
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    try:
        parser.read(git / "config", encoding="utf-8")
    except (configparser.Error, OSError):
        return ""
    url = parser.get('remote "origin"', "url", fallback="").strip()
    return _without_credentials(url).removesuffix(".git") if url else ""


def _without_credentials(url: str) -> str:
    """A remote URL without ``user:token@`` (https) — tokens must never become a key."""
    if "://" not in url:
        return url  # scp-like git@host:path carries a user name, no secret
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (also in a ``password=`` parameter)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable database URL>"
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        if ":" in userinfo:
            userinfo = userinfo.split(":", 1)[0] + ":***"
        netloc = f"{userinfo}@{host}"
    query = "&".join(
        f"{k}=***" if k.lower() == "password" else f"{k}={v}" if v or k else ""
        for k, _, v in (item.partition("=") for item in parts.query.split("&") if item)
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def password_of(url: str) -> str:
    """The password a database URL carries, if any (to scrub it from driver messages)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    if parts.password:
        return unquote(parts.password)
    for item in parts.query.split("&"):
        key, _, value = item.partition("=")
        if key.lower() == "password":
            return unquote(value)
    return ""
