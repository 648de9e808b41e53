"""Which LLM ``astrag ask`` talks to: ``[llm]`` in ``.astrag.toml``, then the environment, then
command-line flags (each overrides the one before)::

    [llm]
    provider = "openai"            # openai (any chat-completions API) | anthropic (messages API)
    model = "gpt-4o-mini"
    base_url = "http://localhost:11434/v1"   # optional; the provider's public API otherwise
    api_key_env = "MY_LLM_KEY"     # the variable holding the key (keeps it out of the file)
    max_tokens = 4096              # answer length limit (Anthropic: 4096 when unset)
    temperature = 0.2              # sent only when set
    timeout = 120                  # seconds per HTTP request
    http_retries = 4               # retries of rate limits, 5xx, timeouts, dropped connections
    max_retries = 2                # times a checked answer with findings is sent back

Environment: ``ASTRAG_LLM_PROVIDER``, ``ASTRAG_LLM_MODEL``, ``ASTRAG_LLM_BASE_URL``,
``ASTRAG_LLM_API_KEY``; then the providers' own ``OPENAI_API_KEY`` / ``OPENAI_BASE_URL`` and
``ANTHROPIC_API_KEY`` / ``ANTHROPIC_BASE_URL``.

The key is held in :class:`LLMSettings` with ``repr=False`` and is never put in a message.
"""

from __future__ import annotations

import difflib
import os
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from astrag.config import CONFIG_FILENAME, load_config
from astrag.errors import AstragError, ConfigError

PROVIDERS = ("openai", "anthropic")
DEFAULT_BASE_URLS = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
}
PROVIDER_KEY_VARS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
PROVIDER_BASE_VARS = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
ENV_PROVIDER = "ASTRAG_LLM_PROVIDER"
ENV_MODEL = "ASTRAG_LLM_MODEL"
ENV_BASE_URL = "ASTRAG_LLM_BASE_URL"
ENV_API_KEY = "ASTRAG_LLM_API_KEY"
LLM_TABLE = "llm"

# [llm] keys and what each must be (said in errors)
_KEYS: dict[str, str] = {
    "provider": "'openai' or 'anthropic'",
    "model": "a non-empty string",
    "base_url": "an http(s) URL",
    "api_key": "a non-empty string",
    "api_key_env": "the name of an environment variable",
    "max_tokens": "a positive integer",
    "temperature": "a number from 0 to 2",
    "timeout": "a positive number of seconds",
    "http_retries": "an integer from 0 to 10",
    "max_retries": "an integer from 0 to 10",
}

EXAMPLE_TOML = """\
    [llm]
    provider = "openai"          # or "anthropic"
    model = "gpt-4o-mini"        # or e.g. "claude-sonnet-4-5"
    api_key_env = "OPENAI_API_KEY"   # the variable that holds the key
    # base_url = "http://localhost:11434/v1"   # any OpenAI-compatible server"""


class LLMNotConfigured(AstragError):
    """No model, or no API key for a public endpoint: says exactly what to set."""


@dataclass(frozen=True)
class LLMSettings:
    provider: str  # openai | anthropic
    model: str
    base_url: str
    api_key: str | None = field(default=None, repr=False)  # never printed
    max_tokens: int | None = None  # Anthropic needs one: 4096 when unset
    temperature: float | None = None
    timeout: float = 120.0
    http_retries: int = 4
    max_retries: int = 2  # check-loop rounds after the first answer


def load_llm_settings(
    root: Path,
    *,
    provider: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    env: Mapping[str, str] | None = None,
) -> LLMSettings:
    """Settings from ``<root>/.astrag.toml`` ``[llm]``, the environment and the arguments
    (flags win). Raises ConfigError for malformed values, LLMNotConfigured when a model or a
    needed key is missing."""
    env = os.environ if env is None else env
    table = _llm_table(root)

    def var(name: str) -> str | None:
        value = env.get(name, "").strip()
        return value or None

    provider = _provider(provider, var(ENV_PROVIDER), table.get("provider"), root)
    model = _text(model) or var(ENV_MODEL) or table.get("model")
    if provider is None:
        provider = _infer_provider(model, table, var)
    key = var(ENV_API_KEY)
    if key is None and "api_key_env" in table:
        key = var(table["api_key_env"])
        if key is None:
            raise LLMNotConfigured(
                f"{root / CONFIG_FILENAME} says the API key is in ${table['api_key_env']} "
                "([llm].api_key_env), but that variable is not set",
                f"export {table['api_key_env']}=... (or set {ENV_API_KEY})",
            )
    key = key or table.get("api_key") or var(PROVIDER_KEY_VARS[provider])
    base = (
        _text(base_url)
        or var(ENV_BASE_URL)
        or table.get("base_url")
        or var(PROVIDER_BASE_VARS[provider])
        or DEFAULT_BASE_URLS[provider]
    )
    _check_url(base, root)
    missing = []
    if not model:
        missing.append("a model")
    if key is None and _is_public(base, provider):
        missing.append("an API key")  # local servers (Ollama, vLLM) usually need none
    if missing:
        raise LLMNotConfigured(_missing_message(missing, provider), _missing_hint(root))
    return LLMSettings(
        provider=provider,
        model=str(model),
        base_url=base.rstrip("/"),
        api_key=key,
        **{k: table[k] for k in _TUNABLES if k in table},
    )


_TUNABLES = ("max_tokens", "temperature", "timeout", "http_retries", "max_retries")


def _text(value: str | None) -> str | None:
    value = (value or "").strip()
    return value or None


def _llm_table(root: Path) -> dict[str, Any]:
    """``[llm]`` from the config file, validated: unknown keys and wrong types are errors,
    because a misspelt ``modle`` silently falling back to a default would be worse."""
    raw = load_config(root).extra.get(LLM_TABLE, {})
    path = root / CONFIG_FILENAME
    if not isinstance(raw, dict):
        raise ConfigError(
            f"{path}: {LLM_TABLE} must be a table ([llm]), got {type(raw).__name__}",
            hint=f"Write the LLM settings under an [llm] header in {path}.",
        )
    for key, value in raw.items():
        if key not in _KEYS:
            close = difflib.get_close_matches(key, list(_KEYS), n=1)
            suggestion = f" Did you mean {close[0]!r}?" if close else ""
            raise ConfigError(
                f"{path}: unknown key [llm].{key}",
                hint=f"Remove it or use one of: {', '.join(_KEYS)}.{suggestion}",
            )
        if not _valid(key, value):
            raise ConfigError(
                f"{path}: [llm].{key} must be {_KEYS[key]}, got {type(value).__name__} "
                + ("(hidden)" if key == "api_key" else repr(value)),
                hint=f"Change [llm].{key} in {path} to {_KEYS[key]}.",
            )
    return {k: (v.strip() if isinstance(v, str) else v) for k, v in raw.items()}


def _valid(key: str, value: object) -> bool:
    # bool is an int subclass; `max_tokens = true` is a mistake, not 1 token
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if key == "provider":
        return isinstance(value, str) and value.strip().lower() in PROVIDERS
    if key in ("model", "api_key", "api_key_env", "base_url"):
        return isinstance(value, str) and bool(value.strip())
    if key == "max_tokens":
        return number and isinstance(value, int) and value > 0
    if key == "temperature":
        return number and 0 <= value <= 2  # type: ignore[operator]
    if key == "timeout":
        return number and value > 0  # type: ignore[operator]
    return number and isinstance(value, int) and 0 <= value <= 10  # the two retry counts


def _provider(flag: str | None, env: str | None, table: str | None, root: Path) -> str | None:
    for value, source in ((flag, "--provider"), (env, ENV_PROVIDER), (table, "[llm].provider")):
        if value is None or not value.strip():
            continue
        name = value.strip().lower()
        if name not in PROVIDERS:
            close = difflib.get_close_matches(name, PROVIDERS, n=1)
            suggestion = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(
                f"{source} is {value!r}, not a provider astrag knows{suggestion}",
                hint="Use 'openai' (any OpenAI-compatible chat-completions API) or 'anthropic'.",
            )
        return name
    return None


def _infer_provider(
    model: str | None, table: dict[str, Any], var: Callable[[str], str | None]
) -> str:
    """No provider named: a Claude model, or only an Anthropic key, means Anthropic."""
    if model and model.lower().startswith("claude"):
        return "anthropic"
    own_key = var(ENV_API_KEY) or "api_key" in table or "api_key_env" in table
    if not own_key and var("ANTHROPIC_API_KEY") and not var("OPENAI_API_KEY"):
        return "anthropic"
    return "openai"


def _check_url(url: str, root: Path) -> None:
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ConfigError(
            f"the LLM base URL {url!r} is not an http(s) URL",
            hint=f"Set {ENV_BASE_URL} or [llm].base_url in {root / CONFIG_FILENAME} to e.g. "
            "https://api.openai.com/v1 or http://localhost:11434/v1.",
        )


def _is_public(url: str, provider: str) -> bool:
    return (
        urllib.parse.urlsplit(url).netloc
        == urllib.parse.urlsplit(DEFAULT_BASE_URLS[provider]).netloc
    )


def _missing_message(missing: list[str], provider: str) -> str:
    return f"astrag ask needs {' and '.join(missing)} to talk to an LLM ({provider})"


def _missing_hint(root: Path) -> str:
    return (
        f"set {ENV_MODEL} and {ENV_API_KEY} (or OPENAI_API_KEY / ANTHROPIC_API_KEY), and "
        f"optionally {ENV_PROVIDER}=openai|anthropic and {ENV_BASE_URL}; or pass --model and "
        f"add to {root / CONFIG_FILENAME}:\n{EXAMPLE_TOML}"
    )
