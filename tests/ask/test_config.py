"""LLM settings: [llm] in .astrag.toml, the environment, flags; and the errors that say
exactly what to set."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag.ask.config import LLMNotConfigured, LLMSettings, load_llm_settings
from astrag.errors import ConfigError

from .conftest import KEY


def toml(root: Path, text: str) -> Path:
    (root / ".astrag.toml").write_text(text, encoding="utf-8")
    return root


def test_nothing_configured_says_exactly_what_to_set(tmp_path: Path) -> None:
    with pytest.raises(LLMNotConfigured) as raised:
        load_llm_settings(tmp_path, env={})
    assert (
        raised.value.message == "astrag ask needs a model and an API key to talk to an LLM (openai)"
    )
    assert raised.value.hint == (
        "set ASTRAG_LLM_MODEL and ASTRAG_LLM_API_KEY (or OPENAI_API_KEY / ANTHROPIC_API_KEY), and "
        "optionally ASTRAG_LLM_PROVIDER=openai|anthropic and ASTRAG_LLM_BASE_URL; or pass --model "
        f"and add to {tmp_path / '.astrag.toml'}:\n"
        "    [llm]\n"
        '    provider = "openai"          # or "anthropic"\n'
        '    model = "gpt-4o-mini"        # or e.g. "claude-sonnet-4-5"\n'
        '    api_key_env = "OPENAI_API_KEY"   # the variable that holds the key\n'
        '    # base_url = "http://localhost:11434/v1"   # any OpenAI-compatible server'
    )


def test_a_key_without_a_model_asks_for_the_model_only(tmp_path: Path) -> None:
    with pytest.raises(LLMNotConfigured, match=r"needs a model to talk to an LLM \(openai\)$"):
        load_llm_settings(tmp_path, env={"OPENAI_API_KEY": KEY})


def test_environment_alone(tmp_path: Path) -> None:
    got = load_llm_settings(tmp_path, env={"ASTRAG_LLM_MODEL": "gpt-x", "ASTRAG_LLM_API_KEY": KEY})
    assert got == LLMSettings("openai", "gpt-x", "https://api.openai.com/v1", KEY)
    assert KEY not in repr(got)


def test_provider_inferred_from_a_claude_model_or_an_anthropic_key_alone(tmp_path: Path) -> None:
    env = {"ANTHROPIC_API_KEY": KEY, "ASTRAG_LLM_MODEL": "some-model"}
    got = load_llm_settings(tmp_path, env=env)
    assert (got.provider, got.base_url, got.api_key) == (
        "anthropic",
        "https://api.anthropic.com",
        KEY,
    )
    got = load_llm_settings(tmp_path, model="claude-x", env={"ANTHROPIC_API_KEY": KEY})
    assert got.provider == "anthropic"


def test_a_local_server_needs_no_key(tmp_path: Path) -> None:
    env = {"ASTRAG_LLM_MODEL": "llama", "ASTRAG_LLM_BASE_URL": "http://localhost:11434/v1/"}
    got = load_llm_settings(tmp_path, env=env)
    assert (got.base_url, got.api_key) == ("http://localhost:11434/v1", None)


def test_file_then_environment_then_flags(tmp_path: Path) -> None:
    toml(
        tmp_path,
        """
        [llm]
        provider = "anthropic"
        model = "claude-from-file"
        base_url = "http://127.0.0.1:8000"
        api_key_env = "MY_KEY"
        max_tokens = 1000
        temperature = 0.5
        timeout = 30
        http_retries = 1
        max_retries = 3
        """,
    )
    env = {"MY_KEY": KEY, "ANTHROPIC_API_KEY": "sk-not-this-one-000000"}
    got = load_llm_settings(tmp_path, env=env)
    assert got == LLMSettings(
        "anthropic", "claude-from-file", "http://127.0.0.1:8000", KEY, 1000, 0.5, 30, 1, 3
    )
    env["ASTRAG_LLM_MODEL"] = "claude-from-env"
    assert load_llm_settings(tmp_path, env=env).model == "claude-from-env"
    flagged = load_llm_settings(tmp_path, env=env, model="gpt-flag", provider="openai")
    assert (flagged.model, flagged.provider) == ("gpt-flag", "openai")


def test_a_named_key_variable_that_is_not_set(tmp_path: Path) -> None:
    toml(tmp_path, '[llm]\nmodel = "m"\napi_key_env = "MY_KEY"\n')
    with pytest.raises(LLMNotConfigured, match=r"says the API key is in \$MY_KEY"):
        load_llm_settings(tmp_path, env={})


def test_unknown_keys_and_wrong_types_are_errors(tmp_path: Path) -> None:
    toml(tmp_path, '[llm]\nmodle = "m"\n')
    with pytest.raises(ConfigError) as raised:
        load_llm_settings(tmp_path, env={})
    assert raised.value.message.endswith("unknown key [llm].modle")
    assert "Did you mean 'model'?" in raised.value.hint
    toml(tmp_path, '[llm]\nmodel = "m"\nmax_tokens = "many"\n')
    with pytest.raises(
        ConfigError, match=r"\[llm\].max_tokens must be a positive integer, got str"
    ):
        load_llm_settings(tmp_path, env={})
    toml(tmp_path, "[llm]\napi_key = 12345678\n")
    with pytest.raises(ConfigError) as raised:
        load_llm_settings(tmp_path, env={})
    assert "12345678" not in raised.value.message  # a key, even a malformed one, is not shown
    toml(tmp_path, 'llm = "gpt"\n')
    with pytest.raises(ConfigError, match="must be a table"):
        load_llm_settings(tmp_path, env={})


def test_a_misspelt_provider_or_a_bad_url(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"'antropic', not a provider .*did you mean 'anthropic'"):
        load_llm_settings(tmp_path, env={"ASTRAG_LLM_PROVIDER": "antropic"})
    with pytest.raises(ConfigError, match="not an http"):
        load_llm_settings(tmp_path, base_url="localhost:8000", model="m", env={})
