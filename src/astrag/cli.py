"""The ``astrag`` command: a thin layer of argument parsing and rendering over ``astrag.api``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from astrag import api, present, present_text
from astrag.cli_shared import Fmt, RepoOpt, err, out
from astrag.cli_shared import emit_json as _emit_json
from astrag.cli_shared import errors as _errors
from astrag.cli_shared import repo_root as _root
from astrag.errors import AstragError
from astrag.export import render
from astrag.indexer import IndexSummary

app = typer.Typer(
    help="A symbol-graph map of your codebase for AI coding agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class CtxFmt(StrEnum):
    md = "md"
    json = "json"


class SearchMode(StrEnum):
    hybrid = "hybrid"
    lexical = "lexical"
    dense = "dense"
    exact = "exact"


class ExportFmt(StrEnum):
    jsonl = "jsonl"
    graphml = "graphml"
    cypher = "cypher"


FormatOpt = Annotated[Fmt, typer.Option("--format", "-f", help="Output format.")]
DepthOpt = Annotated[int, typer.Option("--depth", min=1, max=20, help="Hops to follow.")]
SymbolArg = Annotated[str, typer.Argument(help="Symbol id, qualified name, or plain name.")]


@app.command()
def index(
    path: Annotated[Path, typer.Argument(help="Repository root.")] = Path("."),
    rebuild: Annotated[bool, typer.Option(help="Ignore the existing index.")] = False,
    jobs: Annotated[int | None, typer.Option(help="Parser processes (default: cores).")] = None,
    no_embed: Annotated[
        bool, typer.Option("--no-embed", help="Skip embeddings (search: lexical + exact).")
    ] = False,
    embedder: Annotated[
        str | None,
        typer.Option(help="local (default) | minilm | openai[:model] | none."),
    ] = None,
    store: Annotated[
        str | None, typer.Option(help="sqlite | postgresql://user@host/db (see README).")
    ] = None,
    fmt: FormatOpt = Fmt.text,
) -> None:
    """Index (or incrementally update) a repository."""
    with _errors(fmt):
        with _progress(enabled=fmt == Fmt.text) as progress:
            summary = api.index(
                path.resolve(),
                rebuild=rebuild,
                jobs=jobs,
                progress=progress,
                embedder="none" if no_embed else embedder,
                store=store,
            )
        if fmt == Fmt.json:
            _emit_json(present.summary_json(summary))
        else:
            _print_summary(summary)


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[str, int, int], None] | None]:
    if not enabled or not err.is_terminal:
        yield None
        return
    columns = (
        TextColumn("{task.description:<8}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=True) as bar:
        tasks: dict[str, Any] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        yield update


def _print_summary(s: IndexSummary) -> None:
    table = Table(title=f"astrag index · {s.root}", show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    rate = s.call_resolution_rate
    calls = ", ".join(f"{k} {v:,}" for k, v in sorted(s.calls.items()))
    rows = [
        ("files", f"{s.files:,}  ({s.parsed:,} parsed, {s.removed:,} removed this run)"),
        ("lines", f"{s.lines:,}"),
        ("symbols", f"{s.symbols:,}"),
        ("edges", ", ".join(f"{k} {v:,}" for k, v in sorted(s.edges.items())) or "none"),
        ("calls", f"{rate:.1%} resolved  ({calls})" if calls else "none"),
        ("parse errors", f"{s.parse_errors:,} in {s.files_with_errors:,} files"),
        ("embeddings", f"{s.embedder} ({s.embedded:,} embedded this run)"),
        ("skipped", _skipped_text(s)),
        ("seconds", f"{s.seconds:.2f}"),
    ]
    if s.rebuilt_because:
        rows.append(("rebuilt", s.rebuilt_because))
    for key, value in rows:
        table.add_row(key, value)
    out.print(table)


def _skipped_text(s: IndexSummary) -> str:
    reasons: dict[str, int] = {}
    for k in s.skipped:
        reasons[k.reason] = reasons.get(k.reason, 0) + 1
    return ", ".join(f"{r} {n}" for r, n in sorted(reasons.items())) or "none"


@app.command()
def show(symbol: SymbolArg, repo: RepoOpt = None, fmt: FormatOpt = Fmt.text) -> None:
    """A symbol's definition, signature, source and direct relations."""
    with _errors(fmt), api.open_index(_root(repo)) as idx:
        s = idx.resolve(symbol)
        outgoing = idx.edges(s.id, incoming=False)
        incoming = idx.edges(s.id, incoming=True)
        source = idx.source(s)
        if fmt == Fmt.json:
            _emit_json(
                {
                    "symbol": present.symbol_json(s),
                    "source": source,
                    "outgoing": [{"target": e.target, **present.site_json(e)} for e in outgoing],
                    "incoming": [{"source": e.source, **present.site_json(e)} for e in incoming],
                }
            )
            return
        out.print(f"[bold]{s.id}[/]  [cyan]{s.kind}[/]  {s.path}:{s.start_line}-{s.end_line}")
        if s.signature:
            out.print(f"[green]{s.signature}[/]", highlight=False)
        if s.docstring:
            out.print(f"[dim]{s.docstring}[/]", highlight=False)
        for title, edges, inward in (("→", outgoing, False), ("←", incoming, True)):
            for line in present.relation_summary(edges, incoming=inward):
                out.print(f"  {title} {line}", highlight=False)
        if source:
            out.print(source, highlight=False, markup=False)


def _traversal(
    symbol: str, repo: Path | None, fmt: Fmt, relation: str, depth: int, walk: str
) -> None:
    with _errors(fmt), api.open_index(_root(repo)) as idx:
        s = idx.resolve(symbol)
        if walk == "implementations":
            found = idx.implementations(s.id)
        else:
            found = getattr(idx, walk)(s.id, depth=depth)
        if fmt == Fmt.json:
            _emit_json(present.traversal_json(s, relation, depth, found))
            return
        notes = idx.call_notes(s, relation, found)
        for note in notes:
            out.print(f"[yellow]note:[/] {escape(note)}", highlight=False, soft_wrap=True)
        if not found:
            if not notes:
                out.print(f"no {relation} of {s.id} in the index")
            return
        shown = _shown_calls(found)
        table = Table(title=f"{relation} of {s.id} ({len(found)})", title_justify="left")
        table.add_column("depth", justify="right", no_wrap=True, min_width=5)
        table.add_column("symbol", style="bold", overflow="fold")
        table.add_column("kind", style="cyan", no_wrap=True, min_width=6)
        table.add_column("defined at", overflow="fold")
        table.add_column("via line", justify="right", no_wrap=True, min_width=4)
        table.add_column("link", overflow="fold")
        for r in shown:
            where = f"{r.symbol.path}:{r.symbol.start_line}" if r.symbol.path else r.symbol.kind
            name = (r.symbol.qualname or r.symbol.path) if r.symbol.path else r.symbol.id
            line = str(r.edge.line or "")
            table.add_row(str(r.depth), name, r.symbol.kind, where, line, present_text.link(r))
        out.print(table)
        if len(shown) < len(found):
            rest = len(found) - len(shown)
            out.print(f"… {rest} more unverified call sites (--format json lists all)")


def _shown_calls(found: list[api.Related]) -> list[api.Related]:
    """What a table shows: every resolved link, the first few unverified candidates."""
    resolved = [r for r in found if r.link != "candidate"]
    candidates = [r for r in found if r.link == "candidate"]
    return resolved + candidates[: present_text.CANDIDATES_SHOWN]


@app.command()
def callers(
    symbol: SymbolArg, repo: RepoOpt = None, depth: DepthOpt = 1, fmt: FormatOpt = Fmt.text
) -> None:
    """Who calls SYMBOL (transitively up to --depth)."""
    _traversal(symbol, repo, fmt, "callers", depth, "callers")


@app.command()
def callees(
    symbol: SymbolArg, repo: RepoOpt = None, depth: DepthOpt = 1, fmt: FormatOpt = Fmt.text
) -> None:
    """What SYMBOL calls (transitively up to --depth)."""
    _traversal(symbol, repo, fmt, "callees", depth, "callees")


@app.command()
def implementations(symbol: SymbolArg, repo: RepoOpt = None, fmt: FormatOpt = Fmt.text) -> None:
    """Subclasses and implementers of a class or interface; overriders of a method."""
    _traversal(symbol, repo, fmt, "implementations", 0, "implementations")


@app.command()
def stats(repo: RepoOpt = None, fmt: FormatOpt = Fmt.text) -> None:
    """Counts of files, symbols and edges in the index."""
    with _errors(fmt), api.open_index(_root(repo)) as idx:
        data = idx.stats()
        if fmt == Fmt.json:
            _emit_json(data)
            return
        table = Table(title=f"astrag stats · {data['root']}", show_header=False)
        for key, value in data.items():
            if key in ("root", "meta"):
                continue
            if isinstance(value, dict):
                value = ", ".join(f"{k} {v:,}" for k, v in sorted(value.items())) or "none"
            table.add_row(str(key), str(value))
        out.print(table)


@app.command()
def export(
    repo: RepoOpt = None,
    fmt: Annotated[ExportFmt, typer.Option("--format", "-f")] = ExportFmt.jsonl,
    output: Annotated[Path | None, typer.Option("--output", "-o")] = None,
) -> None:
    """The whole graph as JSON Lines, GraphML, or Cypher (Neo4j / Memgraph)."""
    with _errors(), api.open_index(_root(repo)) as idx:
        symbols, edges = idx.graph()
        lines = render(fmt.value, symbols, edges)
        if output is None:
            for line in lines:
                sys.stdout.write(line + "\n")
        else:
            with output.open("w", encoding="utf-8") as fh:
                for line in lines:
                    fh.write(line + "\n")


class CheckFmt(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"


@app.command()
def check(
    source: Annotated[str, typer.Argument(help="A file to check, or - for stdin.")] = "-",
    repo: RepoOpt = None,
    path: Annotated[
        str | None, typer.Option("--path", help="The repository file a snippet goes into.")
    ] = None,
    lang: Annotated[str | None, typer.Option("--lang", help="python|typescript|javascript")] = None,
    diff: Annotated[bool | None, typer.Option("--diff/--no-diff", help="Force diff mode.")] = None,
    fmt: Annotated[CheckFmt, typer.Option("--format", "-f")] = CheckFmt.text,
) -> None:
    """Check code an LLM wrote (a diff, a file, a snippet) against the index: calls and
    imports the codebase cannot back. Exit 0 clean, 1 findings, 2 bad input."""
    error_fmt = Fmt.json if fmt != CheckFmt.text else Fmt.text
    with _errors(error_fmt):
        root = _root(repo)
        text, target = _read_check_input(source, root)
        report = api.check(root, text, path=path or target, lang=lang, diff=diff)
        if fmt == CheckFmt.json:
            _emit_json(present.check_json(report))
        elif fmt == CheckFmt.sarif:
            _emit_json(present.check_sarif(report))
        else:
            for f in report.findings:
                out.print(
                    f"{f.path}:{f.line}:{f.column} [red]{f.rule}[/] {f.message}", highlight=False
                )
            files = len(report.files)
            summary = f"{len(report.findings)} finding(s) in {files} file(s)"
            err.print(f"[dim]{summary}, {report.seconds * 1000:.0f} ms[/]")
    if report.findings:
        raise typer.Exit(1)


def _read_check_input(source: str, root: Path) -> tuple[str, str | None]:
    """The text to check, and the repository path it is the new version of (a file inside
    the repository checked as a whole), if any."""
    if source == "-":
        return sys.stdin.read(), None
    file = Path(source)
    try:
        text = file.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise AstragError(f"cannot read {source}: {e}", "pass a readable text file or -") from e
    resolved = file.resolve()
    inside = resolved.is_relative_to(root)
    return text, resolved.relative_to(root).as_posix() if inside else None


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="A question, a task, or names to find.")],
    repo: RepoOpt = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=500)] = 10,
    mode: Annotated[
        SearchMode, typer.Option(help="Rankers: hybrid (default), lexical, dense, exact.")
    ] = SearchMode.hybrid,
    fmt: FormatOpt = Fmt.text,
) -> None:
    """Symbols ranked for a query: named ones first, then BM25 + embeddings fused."""
    with _errors(fmt), api.open_index(_root(repo)) as idx:
        hits = idx.search(query, limit, mode=mode.value)
        snippets = idx.snippets(h.symbol for h in hits)
        if fmt == Fmt.json:
            _emit_json(present.search_json(query, hits, snippets))
            return
        sys.stdout.write(present_text.search(query, hits, snippets) + "\n")


@app.command()
def context(
    query: Annotated[str, typer.Argument(help="A question or a change task.")],
    repo: RepoOpt = None,
    budget: Annotated[int, typer.Option("--budget", "-b", help="Token budget.")] = 8000,
    explain: Annotated[
        bool, typer.Option("--explain", help="Also print the plan and the seeds.")
    ] = False,
    fmt: Annotated[CtxFmt, typer.Option("--format", "-f")] = CtxFmt.md,
) -> None:
    """A token-budgeted, explained context for an LLM: definitions, callers, callees, types."""
    json_out = Fmt.json if fmt == CtxFmt.json else Fmt.text
    with _errors(json_out), api.open_index(_root(repo)) as idx:
        result = idx.answer(query, budget)
        if fmt == CtxFmt.json:
            _emit_json(present.context_json(result, explain))
            return
        if explain:
            err.print(f"[bold]plan[/] {result.plan.explain()}")
            for h in result.seeds:
                err.print(f"  seed {h.score:.4f} {h.symbol.id} [dim]({', '.join(h.rankers)})[/]")
            c = result.context
            err.print(f"[dim]{len(c.items)} items, {c.tokens}/{c.budget} tokens[/]")
        sys.stdout.write(result.context.text + "\n")


from astrag import cli_ask  # noqa: E402  (the ask command lives in its own module)

cli_ask.register(app)

from astrag import cli_serve  # noqa: E402  (mcp and watch live in their own module)

cli_serve.register(app)

from astrag import cli_store  # noqa: E402  (--store and migrate live in their own module)

cli_store.register(app)

from astrag import cli_query  # noqa: E402  (map, outline and references live in their own module)

cli_query.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
