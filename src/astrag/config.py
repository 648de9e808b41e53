"""Project settings: ``<root>/.astrag.toml``, then ``ASTRAG_*`` environment overrides.

Indexing settings live in an ``[index]`` table; every other top-level key or table (``[embed]``,
``[llm]``, ``store = "sqlite"``, ...) is kept untouched in :attr:`Config.extra` for the module
that owns it to validate::

    [index]
    include = ["generated/api/**"]     # gitignore-style; index these even if git-ignored/untracked
    exclude = ["tests/fixtures/", "**/*_snapshot.py"]   # gitignore-style; never index these
    max_file_bytes = 1_000_000         # larger files are skipped as too_large
    index_dir = ".astrag"              # where the index lives, relative to the root
    follow_symlinks = true             # symlinks are only ever followed inside the root
    embedder = "local"                 # local | static:<dir> | minilm | openai[:model] | none

    [llm]
    model = "..."

A missing file means defaults. Unknown ``[index]`` keys, wrong types and invalid TOML raise
:class:`~astrag.errors.ConfigError` naming the file, the line and the key, because a silently
ignored typo (``exlude = [...]``) would index the wrong files without anyone noticing.

Environment: ``ASTRAG_MAX_FILE_BYTES`` overrides ``max_file_bytes``, ``ASTRAG_EMBEDDER``
overrides ``embedder``. The top-level ``store`` and ``repo`` keys choose where the index lives
(``store/open.py``; ``ASTRAG_STORE`` and ``ASTRAG_REPO`` override them).
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import pathspec

from astrag.errors import ConfigError

CONFIG_FILENAME = ".astrag.toml"
INDEX_TABLE = "index"
ENV_MAX_FILE_BYTES = "ASTRAG_MAX_FILE_BYTES"
ENV_EMBEDDER = "ASTRAG_EMBEDDER"


@dataclass(frozen=True)
class Config:
    """Settings for one project root. Immutable; build a new one with ``dataclasses.replace``."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_bytes: int = 1_000_000
    index_dir: str = ".astrag"
    follow_symlinks: bool = True
    embedder: str = "local"  # see astrag.embed.load_embedder
    # Other sections, raw. Left out of hash() because dicts are unhashable.
    extra: dict[str, Any] = field(default_factory=dict, hash=False)


_INDEX_KEYS = tuple(f.name for f in fields(Config) if f.name != "extra")
_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


def load_config(root: Path) -> Config:
    """Read ``<root>/.astrag.toml`` (defaults when absent) and apply environment overrides."""
    path = Path(root) / CONFIG_FILENAME
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"{path}: cannot read: {exc}",
            hint=f"Make {path} a readable UTF-8 file, or delete it to use the defaults.",
        ) from exc
    config = Config() if text is None else _parse(path, text)
    return _apply_environment(config)


def _parse(path: Path, text: str) -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(path, text, exc) from exc
    index = data.pop(INDEX_TABLE, {})
    if not isinstance(index, dict):
        raise _type_error(path, text, None, INDEX_TABLE, "a table ([index])", index)
    unknown = sorted(set(index) - set(_INDEX_KEYS))
    if unknown:
        key = unknown[0]
        close = difflib.get_close_matches(key, _INDEX_KEYS, n=1)
        suggestion = f" Did you mean {close[0]!r}?" if close else ""
        raise ConfigError(
            f"{_where(path, text, INDEX_TABLE, key)}: unknown key [index].{key}",
            hint=f"Remove it or use one of: {', '.join(_INDEX_KEYS)}.{suggestion}",
        )
    values: dict[str, Any] = {}
    for key in ("include", "exclude"):
        if key in index:
            values[key] = _patterns(path, text, key, index[key])
    if "max_file_bytes" in index:
        values["max_file_bytes"] = _positive_int(path, text, index["max_file_bytes"])
    if "index_dir" in index:
        value = index["index_dir"]
        if not isinstance(value, str) or not value.strip():
            raise _type_error(path, text, INDEX_TABLE, "index_dir", "a non-empty string", value)
        values["index_dir"] = _confined_index_dir(path, text, value)
    if "follow_symlinks" in index:
        value = index["follow_symlinks"]
        if not isinstance(value, bool):
            raise _type_error(path, text, INDEX_TABLE, "follow_symlinks", "true or false", value)
        values["follow_symlinks"] = value
    if "embedder" in index:
        value = index["embedder"]
        if not isinstance(value, str) or not value.strip():
            raise _type_error(path, text, INDEX_TABLE, "embedder", "a non-empty string", value)
        values["embedder"] = value.strip()
    _check_store_keys(path, text, data)
    return Config(**values, extra=data)


def user_cache_dir() -> Path:
    """The user-level folder astrag owns for indexes kept outside a repository."""
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "astrag"


def _confined_index_dir(path: Path, text: str, value: str) -> str:
    """``value`` if the index directory it names lies inside the repository (the folder of
    ``path``) or under :func:`user_cache_dir`: a cloned repository's configuration must not
    point astrag's writes at the user's other files."""
    root = path.parent.resolve()
    target = Path(os.path.normpath(root / value)).resolve()
    cache = user_cache_dir().resolve()
    inside = target != root and target.is_relative_to(root)
    if inside or (target != cache and target.is_relative_to(cache)):
        return value
    raise ConfigError(
        f"{_where(path, text, INDEX_TABLE, 'index_dir')}: [index].index_dir {value!r} is "
        f"outside the repository ({target})",
        hint=f"use a folder inside the repository (the default is .astrag) or one under {cache}",
    )


def _check_store_keys(path: Path, text: str, data: dict[str, Any]) -> None:
    """``store = "sqlite" | "postgresql://..."`` and ``repo = "name[@branch]"`` stay in
    ``extra`` (store/open.py reads them) but a typo must fail here, with the line."""
    for key in ("store", "repo"):
        if key in data and (not isinstance(data[key], str) or not data[key].strip()):
            raise _type_error(path, text, None, key, "a non-empty string", data[key])
    store = data.get("store", "sqlite").strip()
    if store.lower() != "sqlite" and not store.lower().startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            f'{_where(path, text, None, "store")}: store must be "sqlite" or a '
            f"postgresql:// URL, got {store.split('://', 1)[0]!r}",
            hint=f"Change store in {path}; put the password in PGPASSWORD or ~/.pgpass, "
            "not in the file.",
        )


def _patterns(path: Path, text: str, key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _type_error(path, text, INDEX_TABLE, key, "a list of strings", value)
    try:
        pathspec.GitIgnoreSpec.from_lines(value)
    except Exception as exc:  # pathspec's error class moved between versions
        raise ConfigError(
            f"{_where(path, text, INDEX_TABLE, key)}: [index].{key} has an invalid pattern: {exc}",
            hint="Patterns use .gitignore syntax, e.g. 'build/' or 'src/**/*_test.py'.",
        ) from exc
    return tuple(value)


def _positive_int(path: Path, text: str, value: object) -> int:
    # bool is an int subclass; `max_file_bytes = true` is a mistake, not 1 byte.
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise _type_error(path, text, INDEX_TABLE, "max_file_bytes", "a positive integer", value)
    return value


def _apply_environment(config: Config) -> Config:
    embedder = os.environ.get(ENV_EMBEDDER, "").strip()
    if embedder:
        config = replace(config, embedder=embedder)
    raw = os.environ.get(ENV_MAX_FILE_BYTES)
    if raw is None or not raw.strip():
        return config
    try:
        value = int(raw.strip())
    except ValueError:
        value = 0
    if value <= 0:
        raise ConfigError(
            f"environment variable {ENV_MAX_FILE_BYTES}={raw!r} is not a positive integer",
            hint=f"Set {ENV_MAX_FILE_BYTES} to a byte count such as 2000000, or unset it.",
        )
    return replace(config, max_file_bytes=value)


def _toml_error(path: Path, text: str, exc: tomllib.TOMLDecodeError) -> ConfigError:
    message = str(exc)
    match = _TOML_POSITION.search(message)
    if match is None:
        return ConfigError(
            f"{path}: invalid TOML: {message}",
            hint=f"Fix the TOML syntax in {path}.",
        )
    line = int(match.group(1))
    lines = text.splitlines()
    snippet = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return ConfigError(
        f"{path}:{line}: invalid TOML: {message}" + (f"\n    {snippet}" if snippet else ""),
        hint=f"Fix line {line} of {path} (strings need quotes, lists need [ ]).",
    )


def _type_error(
    path: Path, text: str, table: str | None, key: str, expected: str, value: object
) -> ConfigError:
    dotted = f"[{table}].{key}" if table else key
    return ConfigError(
        f"{_where(path, text, table, key)}: {dotted} must be {expected}, "
        f"got {type(value).__name__} {value!r}",
        hint=f"Change {dotted} in {path} to {expected}.",
    )


def _where(path: Path, text: str, table: str | None, key: str) -> str:
    line = _line_of(text, table, key)
    return f"{path}:{line}" if line else str(path)


def _line_of(text: str, table: str | None, key: str) -> int | None:
    """Best-effort 1-based line of ``key = ...`` inside ``[table]`` (top level when None).

    tomllib keeps no positions, so this scans the text; it is only used to point at a line in
    an error message, where a near miss is acceptable and a crash is not.
    """
    current: str | None = None
    key_line = re.compile(rf"""\s*(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*=""")
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("[") and not stripped.startswith("[["):
            current = stripped.strip("[] \t").split("#")[0].strip()
            if current == key and table is None:
                return number
            continue
        if current == table and key_line.match(line):
            return number
        if current is None and table and key_line.match(line.replace(f"{table}.", "", 1)):
            return number  # dotted form: index.max_file_bytes = ...
    return None
