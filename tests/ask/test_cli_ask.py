"""``astrag ask`` as a user runs it: the real CLI in a subprocess against the local server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import KEY, LLMServer, Reply
from .test_loop import RIGHT, TASK, WRONG


def env(**extra: str) -> dict[str, str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ASTRAG_", "OPENAI_", "ANTHROPIC_")) and "proxy" not in k.lower()
    }
    return {**clean, "NO_COLOR": "1", "COLUMNS": "120", **extra}


def astrag_ask(repo: Path, environ: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "astrag.cli", "ask", TASK, "--repo", str(repo), *args],
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_ask_end_to_end(repo: Path, llm: LLMServer) -> None:
    configured = env(
        ASTRAG_LLM_BASE_URL=f"{llm.url}/v1", ASTRAG_LLM_MODEL="test-model", OPENAI_API_KEY=KEY
    )
    llm.reply(Reply(WRONG), Reply(RIGHT))
    done = astrag_ask(repo, configured, "--budget", "1500", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["clean"] is True and data["answer"] == RIGHT and len(data["rounds"]) == 2
    assert data["rounds"][0]["check"]["findings"][0]["rule"] == "unknown-member"
    assert data["usage"]["input_tokens"] == 240
    assert KEY not in done.stdout + done.stderr

    # text: the raw answer when piped, then the final report; findings left give status 1
    llm.reply(Reply(WRONG))
    done = astrag_ask(repo, configured, "--max-retries", "0", "--provider", "openai")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith(WRONG)
    assert (
        "app/service.py:2:25 unknown-member UserRepository has no member 'fetch_by_email' "
        "(did you mean find_by_email?) (block 1)"
    ) in done.stdout
    assert "astrag check: 1 finding(s) remain after 1 round(s)" in done.stdout
    assert "round 1: 1 finding(s)" in done.stderr
    assert KEY not in done.stdout + done.stderr


def test_ask_without_a_model_says_what_to_set(repo: Path) -> None:
    done = astrag_ask(repo, env())
    assert done.returncode == 2
    assert "error: astrag ask needs a model and an API key to talk to an LLM (openai)" in (
        done.stderr
    )
    assert "set ASTRAG_LLM_MODEL and ASTRAG_LLM_API_KEY" in done.stderr
    assert "[llm]" in done.stderr


def test_ask_network_failure_is_a_clear_error_without_the_key(repo: Path, llm: LLMServer) -> None:
    llm.reply(Reply(status=401, body={"error": {"message": f"bad key {KEY}"}}))
    configured = env(
        ASTRAG_LLM_BASE_URL=f"{llm.url}/v1", ASTRAG_LLM_MODEL="m", ASTRAG_LLM_API_KEY=KEY
    )
    done = astrag_ask(repo, configured, "--format", "json")
    assert done.returncode == 2
    error = json.loads(done.stdout)
    assert error["error"] == "LLMError" and "refused the API key" in error["message"]
    assert KEY not in done.stdout + done.stderr
