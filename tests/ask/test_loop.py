"""The ask loop end to end in-process: a real index, the real checker, and a real HTTP server
speaking each provider's wire format with scripted answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag.ask import LLMSettings, run_ask
from astrag.ask.loop import SYSTEM_PROMPT

from .conftest import KEY, LLMServer, Reply

TASK = "add find_user(service, email) that looks a user up by email through UserService"

WRONG = """I'll add a helper next to the service.

```python path=app/service.py
def find_user(service: UserService, email: str) -> User | None:
    return service.repo.fetch_by_email(email)
```
"""
RIGHT = WRONG.replace("fetch_by_email", "find_by_email")


def settings(llm: LLMServer, provider: str = "openai", **kw: object) -> LLMSettings:
    base = llm.url + ("/v1" if provider == "openai" else "")
    return LLMSettings(provider, "test-model", base, KEY, timeout=5, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_hallucinated_method_is_fed_back_and_the_fixed_answer_accepted(
    repo: Path, llm: LLMServer, provider: str
) -> None:
    llm.reply(Reply(WRONG, usage=(900, 40)), Reply(RIGHT, usage=(1000, 41)))
    seen = []
    result = run_ask(repo, TASK, settings(llm, provider), budget=2000, on_round=seen.append)

    assert [r.number for r in result.rounds] == [1, 2] == [r.number for r in seen]
    [first] = result.rounds[0].check.findings
    assert (first.finding.rule, first.finding.line, first.block) == ("unknown-member", 2, 1)
    assert first.finding.suggestions == ("find_by_email",)
    assert result.clean and result.answer == RIGHT and result.final.check.checked == 1
    assert (result.input_tokens, result.output_tokens) == (1900, 81)
    assert result.context_tokens > 0

    one, two = (r.body for r in llm.requests)
    if provider == "openai":
        assert [r.path for r in llm.requests] == ["/v1/chat/completions"] * 2
        assert llm.requests[0].headers["authorization"] == f"Bearer {KEY}"
        system, *messages = two["messages"]  # type: ignore[misc]
        assert system == {"role": "system", "content": SYSTEM_PROMPT}
    else:
        assert [r.path for r in llm.requests] == ["/v1/messages"] * 2
        assert llm.requests[0].headers["x-api-key"] == KEY
        assert llm.requests[0].headers["anthropic-version"] == "2023-06-01"
        assert two["system"] == SYSTEM_PROMPT and two["max_tokens"] == 4096
        messages = two["messages"]  # type: ignore[assignment]
    assert one["model"] == two["model"] == "test-model"
    # the first request: the task and the context (UserRepository's source is in it)
    task_message = messages[0]["content"]
    assert task_message.startswith(f"Task: {TASK}\n")
    assert "def find_by_email(self, email: str) -> User | None:" in task_message
    # the second: the first answer, then the finding with its code line and suggestion
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[1]["content"] == WRONG
    feedback = messages[2]["content"]
    assert "block 1 (app/service.py), line 2: `return service.repo.fetch_by_email(email)`" in (
        feedback
    )
    assert "unknown-member: UserRepository has no member 'fetch_by_email'" in feedback
    assert "did you mean find_by_email?" in feedback


def test_findings_that_remain_after_the_retries_are_reported(repo: Path, llm: LLMServer) -> None:
    llm.reply(Reply(WRONG), Reply(WRONG))
    result = run_ask(repo, TASK, settings(llm), budget=1000, max_retries=1)
    assert len(result.rounds) == 2 and len(llm.requests) == 2
    assert not result.clean
    assert [f.finding.rule for f in result.final.check.findings] == ["unknown-member"]
    data = result.to_json()
    assert data["clean"] is False and len(data["rounds"]) == 2  # type: ignore[arg-type]
    assert data["check"]["findings"][0]["block"] == 1  # type: ignore[index]


def test_a_clean_first_answer_is_not_asked_again(repo: Path, llm: LLMServer) -> None:
    llm.reply(Reply(RIGHT))
    result = run_ask(repo, TASK, settings(llm), budget=1000)
    assert len(result.rounds) == 1 and len(llm.requests) == 1 and result.clean


def test_max_retries_comes_from_the_settings(repo: Path, llm: LLMServer) -> None:
    llm.reply(Reply(WRONG))
    result = run_ask(repo, TASK, settings(llm, max_retries=0), budget=1000)
    assert len(result.rounds) == 1 and not result.clean


DIFF_WRONG = """```diff
--- a/app/service.py
+++ b/app/service.py
@@ -40,3 +40,4 @@
         user = User(name, email)
         self.repo.add(user)
+        self.repo.notify(user)
         return user
```
"""
DIFF_RIGHT = DIFF_WRONG.replace("self.repo.notify(user)", "user.rename(name)")


def test_a_diff_with_wrong_line_numbers_is_placed_and_checked(repo: Path, llm: LLMServer) -> None:
    llm.reply(Reply(DIFF_WRONG), Reply(DIFF_RIGHT))
    result = run_ask(repo, "also notify after register", settings(llm), budget=1000)
    [finding] = result.rounds[0].check.findings
    assert (finding.finding.rule, finding.finding.line) == ("unknown-member", 12)
    assert finding.code.strip() == "self.repo.notify(user)"
    assert result.clean and len(result.rounds) == 2


def test_a_diff_that_matches_nothing_is_sent_back_as_a_problem(repo: Path, llm: LLMServer) -> None:
    stale = DIFF_RIGHT.replace("self.repo.add(user)", "self.repo.save(user)")
    llm.reply(Reply(stale), Reply(DIFF_RIGHT))
    result = run_ask(repo, "also rename after register", settings(llm), budget=1000)
    [problem] = result.rounds[0].check.problems
    assert (
        problem.message
        == "hunk 1 of app/service.py: the line `self.repo.save(user)` is not in the file"
    )
    feedback = llm.requests[1].body["messages"][-1]["content"]  # type: ignore[index]
    assert f"block 1 could not be checked: {problem.message}" in feedback
    assert result.clean


def test_warnings_alone_are_reported_not_sent_back(
    repo: Path, llm: LLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a warning says what the index could not verify (a name an unreadable type package may
    # declare): sent back, it would have the model rewrite code that may well be right
    from astrag.ask import loop
    from astrag.verify.findings import Finding

    real = loop.check_answer

    def with_a_warning(answer: str, session: object) -> loop.AnswerCheck:
        checked = real(answer, session)  # type: ignore[arg-type]
        note = Finding("app/service.py", 2, 5, "unknown-function", "'expect' unverified", "warning")
        checked.findings.append(loop.BlockFinding(1, note, "    expect(x)"))
        return checked

    monkeypatch.setattr(loop, "check_answer", with_a_warning)
    llm.reply(Reply(RIGHT))
    result = run_ask(repo, TASK, settings(llm), budget=1000)
    assert len(result.rounds) == 1 and len(llm.requests) == 1
    assert result.passes and not result.clean
    assert result.to_json()["passes"] is True

    llm.reply(Reply(WRONG), Reply(RIGHT))
    result = run_ask(repo, TASK, settings(llm), budget=1000)
    assert len(result.rounds) == 2 and result.passes  # the error is sent back, alone
    feedback = llm.requests[-1].body["messages"][-1]["content"]  # type: ignore[index]
    assert "found 1 problem(s)" in feedback and "fetch_by_email" in feedback
    assert "expect" not in feedback
