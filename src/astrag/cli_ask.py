"""``astrag ask``: a task to an LLM with the repository's context, its code checked, findings
sent back; kept out of cli.py so the command and its rendering live in one small module."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.rule import Rule

from astrag.cli_shared import Fmt, err, errors, out, repo_root

if TYPE_CHECKING:  # the LLM clients and markdown rendering load only when ask runs
    from astrag.ask import AskResult, Round
    from astrag.ask.loop import AnswerCheck


class Provider(StrEnum):
    openai = "openai"
    anthropic = "anthropic"


def register(app: typer.Typer) -> None:
    app.command(name="ask")(ask)


def ask(
    task: Annotated[str, typer.Argument(help="What to do or answer, in words.")],
    repo: Annotated[
        Path | None,
        typer.Option("--repo", help="Repository root (default: nearest indexed or git directory)."),
    ] = None,
    budget: Annotated[
        int, typer.Option("--budget", "-b", min=1, help="Context token budget.")
    ] = 8000,
    model: Annotated[str | None, typer.Option("--model", help="Model name (overrides config).")] = (
        None
    ),
    provider: Annotated[
        Provider | None, typer.Option("--provider", help="API format (overrides config).")
    ] = None,
    max_retries: Annotated[
        int | None,
        typer.Option(
            "--max-retries", min=0, max=10, help="Times to send findings back (default 2)."
        ),
    ] = None,
    fmt: Annotated[Fmt, typer.Option("--format", "-f", help="Output format.")] = Fmt.text,
) -> None:
    """Ask an LLM to do TASK with the repository's context, check the code in its answer
    against the index and send findings back. Exit 0 clean, 1 findings remain, 2 errors."""
    from astrag.ask import load_llm_settings, run_ask

    with errors(fmt):
        root = repo_root(repo)
        settings = load_llm_settings(
            root, provider=provider.value if provider else None, model=model
        )
        progress = _progress if fmt == Fmt.text else None
        if progress is not None:
            err.print(f"[dim]asking {escape(settings.model)} ({settings.provider}) …[/]")
        result = run_ask(
            root, task, settings, budget=budget, max_retries=max_retries, on_round=progress
        )
    if fmt == Fmt.json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        _print(result)
    if not result.passes:  # warnings alone exit 0, as with `astrag check`
        raise typer.Exit(1)


def _progress(r: Round) -> None:
    c = r.check
    if c.clean:
        verdict = f"checks clean ({c.checked} block(s) checked)"
    else:
        verdict = f"{len(c.findings) + len(c.problems)} finding(s)"
    err.print(f"[dim]round {r.number}: {verdict}[/]")


def _print(result: AskResult) -> None:
    # Markdown for a person at a terminal; the raw answer when piped, so its blocks can be
    # saved or applied as they are.
    if out.is_terminal:
        from rich.markdown import Markdown

        out.print(Markdown(_with_paths(result.answer)))
        out.print(Rule("astrag check", style="dim"))
    else:
        sys.stdout.write(result.answer.rstrip("\n") + "\n\n")
        sys.stdout.flush()
    _print_check(result.final.check, len(result.rounds))
    if result.final.completion.truncated:
        err.print("[yellow]the answer was cut off at the token limit ([llm].max_tokens)[/]")
    usage = [f"context {result.context_tokens:,}"]
    if result.input_tokens is not None:
        usage.append(f"sent {result.input_tokens:,}")
    if result.output_tokens is not None:
        usage.append(f"received {result.output_tokens:,}")
    err.print(f"[dim]{result.provider} {result.model} · tokens: {', '.join(usage)}[/]")


def _with_paths(answer: str) -> str:
    """The answer with each block's path written above it: rich shows a fence's language,
    not the rest of its info line, and which file a block goes into matters."""
    lines = answer.splitlines()
    from astrag.ask.blocks import extract_blocks

    for block in reversed(extract_blocks(answer)):
        if block.path:
            lines.insert(block.answer_line - 2, f"**`{block.path}`**\n")
    return "\n".join(lines)


def _print_check(check: AnswerCheck, rounds: int) -> None:
    after = f"after {rounds} round(s)"
    if check.clean:
        skipped = f", {check.skipped} not checkable" if check.skipped else ""
        out.print(
            f"astrag check: clean {after} ({check.checked} code block(s) checked{skipped})",
            highlight=False,
        )
        return
    for item in check.findings:
        f = item.finding
        out.print(
            f"{escape(f.path)}:{f.line}:{f.column} [red]{f.rule}[/]"
            f"{' (warning)' if f.severity == 'warning' else ''} {escape(f.message)} "
            f"[dim](block {item.block})[/]",
            highlight=False,
        )
    for problem in check.problems:
        where = f" {problem.path}" if problem.path else ""
        message = escape(problem.message)
        out.print(f"block {problem.block}{escape(where)}: [yellow]not checked[/] {message}")
    count = len(check.findings) + len(check.problems)
    out.print(f"astrag check: {count} finding(s) remain {after}", highlight=False)
