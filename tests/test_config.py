"""Tests for .astrag.toml loading: real files in temp directories, real environment variables."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag.config import Config, load_config
from astrag.errors import AstragError, ConfigError


def write_config(root: Path, text: str) -> Path:
    path = root / ".astrag.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _no_env_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASTRAG_MAX_FILE_BYTES", raising=False)


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert config == Config()
    assert config.max_file_bytes == 1_000_000
    assert config.index_dir == ".astrag"
    assert config.follow_symlinks is True
    assert config.include == () and config.exclude == () and config.extra == {}


def test_index_table_and_extra_sections(tmp_path: Path) -> None:
    write_config(
        tmp_path,
        """
store = "sqlite"

[index]
include = ["generated/api/**"]
exclude = ["tests/fixtures/", "**/*_snapshot.py"]
max_file_bytes = 2_000
index_dir = ".cache/astrag"
follow_symlinks = false

[embed]
provider = "local"
dims = 384
""",
    )
    config = load_config(tmp_path)
    assert config.include == ("generated/api/**",)
    assert config.exclude == ("tests/fixtures/", "**/*_snapshot.py")
    assert config.max_file_bytes == 2000
    assert config.index_dir == ".cache/astrag"
    assert config.follow_symlinks is False
    assert config.extra == {"store": "sqlite", "embed": {"provider": "local", "dims": 384}}
    hash(config)  # usable as a cache key despite the dict


def test_invalid_toml_names_file_line_and_text(tmp_path: Path) -> None:
    path = write_config(tmp_path, '[index]\nexclude = ["a/"]\nmax_file_bytes = \n')
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path)
    message = str(caught.value)
    assert f"{path}:3:" in message
    assert "max_file_bytes" in message  # the offending line is quoted
    assert isinstance(caught.value, AstragError)
    assert "line 3" in caught.value.hint


def test_wrong_type_names_key_and_line(tmp_path: Path) -> None:
    path = write_config(tmp_path, '# settings\n[index]\nmax_file_bytes = "big"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path)
    message = str(caught.value)
    assert f"{path}:3:" in message
    assert "[index].max_file_bytes must be a positive integer" in message
    assert "'big'" in message
    assert "max_file_bytes" in caught.value.hint


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ("max_file_bytes = true", "max_file_bytes"),
        ("max_file_bytes = 0", "max_file_bytes"),
        ('include = "generated/**"', "include"),
        ("exclude = [1, 2]", "exclude"),
        ("index_dir = ''", "index_dir"),
        ('follow_symlinks = "yes"', "follow_symlinks"),
    ],
)
def test_each_wrong_type_is_rejected(tmp_path: Path, body: str, key: str) -> None:
    write_config(tmp_path, f"[index]\n{body}\n")
    with pytest.raises(ConfigError, match=rf"\.astrag\.toml:2: \[index\]\.{key} must be"):
        load_config(tmp_path)


def test_unknown_key_suggests_the_right_one(tmp_path: Path) -> None:
    write_config(tmp_path, '[index]\nexlude = ["x/"]\n')
    with pytest.raises(ConfigError, match=r":2: unknown key \[index\]\.exlude") as caught:
        load_config(tmp_path)
    assert "Did you mean 'exclude'?" in caught.value.hint


def test_invalid_pattern_is_rejected(tmp_path: Path) -> None:
    write_config(tmp_path, '[index]\nexclude = ["ok/", "!"]\n')
    with pytest.raises(ConfigError, match=r"\[index\]\.exclude has an invalid pattern"):
        load_config(tmp_path)


def test_index_must_be_a_table(tmp_path: Path) -> None:
    write_config(tmp_path, "index = 3\n")
    with pytest.raises(ConfigError, match=r":1: index must be a table"):
        load_config(tmp_path)


def test_environment_overrides_max_file_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(tmp_path, "[index]\nmax_file_bytes = 10\n")
    monkeypatch.setenv("ASTRAG_MAX_FILE_BYTES", "12345")
    assert load_config(tmp_path).max_file_bytes == 12345
    monkeypatch.setenv("ASTRAG_MAX_FILE_BYTES", "lots")
    with pytest.raises(ConfigError, match="ASTRAG_MAX_FILE_BYTES") as caught:
        load_config(tmp_path)
    assert "ASTRAG_MAX_FILE_BYTES" in caught.value.hint


def test_non_utf8_config_file_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / ".astrag.toml").write_bytes(b"[index]\nindex_dir = '\xff'\n")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path)
