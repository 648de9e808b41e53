"""``astrag ask``: the repository's context and a task to an LLM, the code in its answer
checked against the index, findings sent back for a bounded number of rounds.

    >>> from astrag.ask import load_llm_settings, run_ask
    >>> result = run_ask(Path("."), "add a logout endpoint", load_llm_settings(Path(".")))
    >>> result.clean, result.answer, result.final.check.findings
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from astrag import api
from astrag.ask.clients import ChatClient, LLMError, make_client
from astrag.ask.config import LLMNotConfigured, LLMSettings, load_llm_settings
from astrag.ask.loop import AskResult, Round, ask

__all__ = [
    "AskResult",
    "ChatClient",
    "LLMError",
    "LLMNotConfigured",
    "LLMSettings",
    "Round",
    "ask",
    "load_llm_settings",
    "make_client",
    "run_ask",
]


def run_ask(
    root: Path,
    task: str,
    settings: LLMSettings,
    *,
    budget: int = 8000,
    max_retries: int | None = None,
    client: ChatClient | None = None,
    on_round: Callable[[Round], None] | None = None,
) -> AskResult:
    """Open the index of ``root`` and run the ask loop with ``settings``' model (or
    ``client``); ``max_retries`` defaults to ``settings.max_retries``."""
    root = root.resolve()
    client = client or make_client(settings)
    retries = settings.max_retries if max_retries is None else max_retries
    with api.open_index(root) as index:
        session = api.open_check_session(root)
        try:
            return ask(
                task,
                index=index,
                session=session,
                client=client,
                budget=budget,
                max_retries=retries,
                on_round=on_round,
            )
        finally:
            session.store.close()
