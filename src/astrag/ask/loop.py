"""The ask loop: context + task to an LLM, the code in its answer checked against the index,
the findings sent back, a bounded number of times.

Orchestration only: the context comes from :meth:`astrag.api.Index.context`, the answer from a
:class:`~astrag.ask.clients.ChatClient`, the verdict from a
:class:`~astrag.verify.session.CheckSession`. Each answer is checked on its own (the model is
asked for a complete corrected answer, not a patch to its previous one), so the final answer is
exactly what the final report describes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from astrag.api import Index
from astrag.ask.blocks import BlockProblem, build_changes, extract_blocks
from astrag.ask.clients import ChatClient, Completion, Message
from astrag.errors import AstragError
from astrag.present import finding_json
from astrag.verify.findings import Finding
from astrag.verify.inputs import safe_path
from astrag.verify.session import CheckSession

SYSTEM_PROMPT = """\
You are a senior engineer working in one repository. The user gives you a task and a context \
that astrag extracted from the repository's symbol graph: the relevant files, symbols, their \
signatures and source, and why each is there.

Rules:
1. Use only functions, classes, methods, fields, modules and parameters that the context \
shows, that you define in your answer, or that the language's standard library provides. Never \
guess a name or a signature. If you need something the context does not show, say so in \
prose instead of inventing it.
2. Put all code in fenced blocks, with the language and the repository path of the file on \
the fence line, like this: ```python path=src/pkg/module.py
   - A new file, or an existing file rewritten in full: the whole file in one block.
   - New functions or classes added to an existing file: just the new code, in a block with \
that file's path; it is read as appended to the file, so the file's imports apply.
   - Changes to existing lines: a unified diff in a ```diff block (--- a/PATH, +++ b/PATH, \
@@ hunks whose context lines are copied exactly from the file).
   Never elide code inside a block with comments like "... existing code ...".
3. Keep the explanation short and outside the code blocks.

The code in your answer is checked against the repository; calls, members, imports and \
arguments the codebase cannot back are sent back to you to fix."""


@dataclass(frozen=True, slots=True)
class BlockFinding:
    """A finding in the answer: which block, and the code line it is about."""

    block: int
    finding: Finding  # path and line as `astrag check` reports them (snippet lines for snippets)
    code: str  # the line of code the finding is on


@dataclass(slots=True)
class AnswerCheck:
    findings: list[BlockFinding] = field(default_factory=list)
    problems: list[BlockProblem] = field(default_factory=list)
    checked: int = 0  # blocks checked
    skipped: int = 0  # blocks in languages astrag does not check

    @property
    def clean(self) -> bool:
        return not self.findings and not self.problems

    @property
    def errors(self) -> list[BlockFinding]:
        """The findings the index backs; a warning says only what it could not verify."""
        return [f for f in self.findings if f.finding.severity == "error"]

    @property
    def passes(self) -> bool:
        """No error and no block left unchecked: nothing to send back (warnings stay shown,
        as ``astrag check`` exits 0 on warnings alone)."""
        return not self.errors and not self.problems


@dataclass(slots=True)
class Round:
    number: int  # 1 for the first answer
    answer: str
    check: AnswerCheck
    completion: Completion


@dataclass(slots=True)
class AskResult:
    task: str
    provider: str
    model: str
    context_tokens: int
    rounds: list[Round]

    @property
    def final(self) -> Round:
        return self.rounds[-1]

    @property
    def answer(self) -> str:
        return self.final.answer

    @property
    def clean(self) -> bool:
        return self.final.check.clean

    @property
    def passes(self) -> bool:
        return self.final.check.passes

    @property
    def input_tokens(self) -> int | None:
        return _total(r.completion.input_tokens for r in self.rounds)

    @property
    def output_tokens(self) -> int | None:
        return _total(r.completion.output_tokens for r in self.rounds)

    def to_json(self) -> dict[str, object]:
        return {
            "task": self.task,
            "provider": self.provider,
            "model": self.model,
            "clean": self.clean,
            "passes": self.passes,
            "answer": self.answer,
            "truncated": self.final.completion.truncated,
            "check": check_json(self.final.check),
            "rounds": [
                {
                    "round": r.number,
                    "answer": r.answer,
                    "check": check_json(r.check),
                    "input_tokens": r.completion.input_tokens,
                    "output_tokens": r.completion.output_tokens,
                }
                for r in self.rounds
            ],
            "usage": {
                "context_tokens": self.context_tokens,
                "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens,
            },
        }


def check_json(check: AnswerCheck) -> dict[str, object]:
    return {
        "clean": check.clean,
        "passes": check.passes,
        "findings": [{"block": f.block, **finding_json(f.finding)} for f in check.findings],
        "problems": [
            {"block": p.block, "path": p.path, "message": p.message} for p in check.problems
        ],
        "blocks_checked": check.checked,
        "blocks_skipped": check.skipped,
    }


def _total(values: Iterable[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


# ------------------------------------------------------------------ prompts


def first_message(task: str, context: str, tokens: int) -> str:
    return (
        f"Task: {task}\n\n"
        f"Context from the repository (astrag, {tokens} tokens):\n\n{context.strip()}\n"
    )


def feedback_message(check: AnswerCheck) -> str:
    """The errors, one a line, each with the code it is about and the rule's suggestion.
    Warnings are left out: they say what the index could not verify (a name a type package
    it could not read may declare), and sent back as mistakes they have the model rewrite
    code that may be right, or invent a stand-in for a real API."""
    count = len(check.errors) + len(check.problems)
    lines = [
        f"astrag checked the code in your answer against the repository and found {count} "
        "problem(s) the codebase cannot back:",
        "",
    ]
    for item in check.errors:
        f = item.finding  # its message already says "did you mean ...?" when it can
        lines.append(
            f"- block {item.block} ({f.path}), line {f.line}: `{item.code.strip()}` — "
            f"{f.rule}: {f.message}"
        )
    for problem in check.problems:
        where = f" ({problem.path})" if problem.path else ""
        lines.append(f"- block {problem.block}{where} could not be checked: {problem.message}")
    lines += [
        "",
        "Write your whole answer again with these fixed, in the same format (complete code "
        "blocks with their paths, not only the changed lines). Use only names that exist: the "
        "context above, the suggestions, or code you define yourself. If what you need does not "
        "exist, define it in your answer or say so.",
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------ checking an answer


def check_answer(answer: str, session: CheckSession) -> AnswerCheck:
    """The findings about all the code blocks of one answer, laid over the repository
    together as a single change."""
    blocks = extract_blocks(answer)
    changes = build_changes(blocks, lambda path: _read(session.root, path))
    result = AnswerCheck(
        problems=list(changes.problems),
        checked=len(changes.checked),
        skipped=len(changes.skipped),
    )
    files = changes.changed_files()
    if not files and not changes.deleted:
        return result
    try:
        report = session.check(files, sorted(changes.deleted))
    except AstragError as exc:  # e.g. a file the frontends cannot parse at all
        first = changes.checked[0] if changes.checked else 1
        result.problems.append(BlockProblem(first, None, exc.message))
        return result
    by_index = {b.index: b for b in blocks}
    for f in report.findings:
        origin = changes.written.get(f.path, {}).get(f.line)
        if origin is None:
            continue  # not a written line (the checker only reports those; be safe)
        block = by_index[origin.block]
        code_lines = changes.files[f.path].splitlines()
        code = code_lines[f.line - 1] if f.line <= len(code_lines) else ""
        shown = Finding(f.path, origin.line, f.column, f.rule, f.message, f.severity, f.suggestions)
        result.findings.append(BlockFinding(block.index, shown, code))
    return result


def _read(root: Path, rel: str) -> str | None:
    """A repository file's text, or None; never follows a path out of the repository."""
    full = (root / safe_path(rel)).resolve()
    if not full.is_relative_to(root):
        raise AstragError(f"{rel} resolves outside the repository", "use a path inside it")
    try:
        return full.read_text("utf-8", errors="replace")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


# ------------------------------------------------------------------ the loop


def ask(
    task: str,
    *,
    index: Index,
    session: CheckSession,
    client: ChatClient,
    budget: int = 8000,
    max_retries: int = 2,
    on_round: Callable[[Round], None] | None = None,
) -> AskResult:
    """Ask ``client`` to do ``task`` with the repository's context; while the code in its
    answer has errors, send them back, at most ``max_retries`` times (warnings alone end
    the loop: they are reported, not sent back)."""
    context = index.context(task, budget)
    messages = [Message("user", first_message(task, context.text, context.tokens))]
    rounds: list[Round] = []
    for number in range(1, max(0, max_retries) + 2):
        completion = client.complete(SYSTEM_PROMPT, messages)
        checked = check_answer(completion.text, session)
        rounds.append(Round(number, completion.text, checked, completion))
        if on_round is not None:
            on_round(rounds[-1])
        if checked.passes or number > max_retries:
            break
        messages += [
            Message("assistant", completion.text),
            Message("user", feedback_message(checked)),
        ]
    return AskResult(task, client.provider, client.model, context.tokens, rounds)
