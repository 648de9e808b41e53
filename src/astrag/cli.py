"""The ``astrag`` command: a thin layer of argument parsing and rendering over ``astrag.api``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from astrag import __version__, api, diagram, lang, present, present_text
from astrag.arguments import path_argument
from astrag.cli_shared import (
    Fmt,
    RepoOpt,
    decoded,
    err,
    note,
    open_index,
    out,
    piped,
    table,
    writable_file,
    write_atomically,
)
from astrag.cli_shared import emit_json as _emit_json
from astrag.cli_shared import errors as _errors
from astrag.cli_shared import repo_root as _root
from astrag.cli_store import NoRefreshOpt, StoreOpt, choose_store
from astrag.errors import AstragError
from astrag.verify.findings import severity_tag

if TYPE_CHECKING:
    from astrag.indexer import IndexSummary

app = typer.Typer(
    help="A symbol-graph map of your codebase for AI coding agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"astrag {__version__}\n")
        raise typer.Exit()


@app.callback()
def _global_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
    store: StoreOpt = None,
    no_refresh: NoRefreshOpt = False,
) -> None:
    """A symbol-graph map of your codebase for AI coding agents."""
    choose_store(store, no_refresh)


class CtxFmt(StrEnum):
    md = "md"
    text = "text"  # the same markdown: every query command takes --format text
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
    mermaid = "mermaid"
    dot = "dot"


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
        path_argument(str(path), "PATH")
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
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # index only

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
    shares = present.call_rates(s.calls)
    total = sum(s.calls.values())
    calls = "none"
    if total:
        matched = f", {shares['name']:.1%} matched by name" if shares["name"] else ""
        calls = (
            f"{shares['repository']:.1%} to repository symbols{matched}, "
            f"{shares['external']:.1%} external, {shares['unresolved']:.1%} unresolved  "
            f"({total:,} calls)"
        )
    errors = f"{s.parse_errors:,} in {s.files_with_errors:,} files"
    if s.error_files:
        errors += ": " + _some(s.error_files, s.files_with_errors)
    rows = [
        ("files", f"{s.files:,}  ({s.parsed:,} parsed, {s.removed:,} removed this run)"),
        ("lines", f"{s.lines:,}"),
        ("symbols", f"{s.symbols:,}"),
        ("languages", present_text.languages(lang.levels(s.languages))),
        ("edges", ", ".join(f"{k} {v:,}" for k, v in sorted(s.edges.items())) or "none"),
        ("calls", calls),
        ("parse errors", errors),
        ("embeddings", f"{s.embedder} ({s.embedded:,} embedded this run)"),
        ("skipped", _skipped_text(s)),
        ("seconds", f"{s.seconds:.2f}"),
    ]
    if s.rebuilt_because:
        rows.append(("rebuilt", s.rebuilt_because))
    rows.extend(("note", text) for text in s.notes)
    table(f"astrag index · {s.root}", ("key", "value"), rows, header=False, styles={"key": "bold"})


_NAMED = 5  # paths named in the summary per list; the JSON summary lists every one


def _some(paths: list[str], total: int) -> str:
    named = ", ".join(paths[:_NAMED])
    rest = total - min(len(paths), _NAMED)
    return named + (f" and {rest:,} more (astrag index --format json lists all)" if rest else "")


def _skipped_text(s: IndexSummary) -> str:
    by_reason: dict[str, list[str]] = {}
    for k in s.skipped:
        by_reason.setdefault(k.reason.split(":", 1)[0], []).append(k.path)
    parts = [
        f"{reason} {len(paths):,} ({_some(sorted(paths), len(paths))})"
        for reason, paths in sorted(by_reason.items())
    ]
    return "; ".join(parts) or "none"


@app.command()
def show(symbol: SymbolArg, repo: RepoOpt = None, fmt: FormatOpt = Fmt.text) -> None:
    """A symbol's definition, signature, source and direct relations."""
    with _errors(fmt), open_index(repo) as idx:
        s = idx.resolve(symbol)
        outgoing = idx.edges(s.id, incoming=False)
        incoming = idx.edges(s.id, incoming=True)
        source = idx.source(s)
        others = idx.declarations(s)
        if fmt == Fmt.json:
            _emit_json(
                {
                    "symbol": present.symbol_json(s),
                    "declarations": [present.declaration_json(d) for d in others],
                    "source": source,
                    "outgoing": [{"target": e.target, **present.site_json(e)} for e in outgoing],
                    "incoming": [{"source": e.source, **present.site_json(e)} for e in incoming],
                }
            )
            return
        where = escape(f"{s.path}:{s.start_line}-{s.end_line}")
        out.print(f"[bold]{escape(s.id)}[/]  [cyan]{s.kind}[/]  {where}", highlight=False)
        if s.signature:
            out.print(f"[green]{escape(s.signature)}[/]", highlight=False)
        if s.docstring:
            out.print(f"[dim]{escape(s.docstring)}[/]", highlight=False)
        for line in present_text.declarations(others):
            out.print(f"  {line}", highlight=False, markup=False)
        shown = None if piped() else 8  # a pipe gets every relation, a terminal the first 8
        for title, edges, inward in (("→", outgoing, False), ("←", incoming, True)):
            for line in present.relation_summary(edges, incoming=inward, shown=shown):
                out.print(f"  {title} {line}", highlight=False, markup=False)
        if source:
            out.print(source, highlight=False, markup=False)


def _traversal(
    symbol: str, repo: Path | None, fmt: Fmt, relation: str, depth: int, walk: str
) -> None:
    with _errors(fmt), open_index(repo) as idx:
        s = idx.resolve(symbol)
        if walk == "implementations":
            found = idx.implementations(s.id)
        else:
            found = getattr(idx, walk)(s.id, depth=depth)
        if fmt == Fmt.json:
            _emit_json(present.traversal_json(s, relation, depth, found))
            return
        notes = idx.call_notes(s, relation, found)
        for text in notes:
            note(f"note: {text}")
        if not found:
            if not notes:
                note(f"no {relation} of {s.id} in the index")
            return
        shown = found if piped() else _shown_calls(found)
        linked = walk != "implementations"  # how a call was found: direct, dispatch, candidate
        rows = []
        for r in shown:
            where = f"{r.symbol.path}:{r.symbol.start_line}" if r.symbol.path else r.symbol.kind
            name = (r.symbol.qualname or r.symbol.path) if r.symbol.path else r.symbol.id
            line = str(r.edge.line or "")
            row = (str(r.depth), name, r.symbol.kind, where, line)
            rows.append((*row, present_text.link(r)) if linked else row)
        columns = ("depth", "symbol", "kind", "defined at", "via line")
        table(
            f"{relation} of {s.id} ({len(found)})",
            (*columns, "link") if linked else columns,
            rows,
            styles={"symbol": "bold", "kind": "cyan"},
            right=("depth", "via line"),
        )
        if len(shown) < len(found):
            rest = len(found) - len(shown)
            note(f"… {rest} more unverified call sites (--format json lists all)")


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
    with _errors(fmt), open_index(repo) as idx:
        data = idx.stats()
        if fmt == Fmt.json:
            _emit_json(data)
            return
        rows = []
        for key, value in data.items():
            if key in ("root", "meta"):
                continue
            if key == "languages":
                value = present_text.languages(value)
            elif isinstance(value, dict):
                value = ", ".join(f"{k} {v:,}" for k, v in sorted(value.items())) or "none"
            elif key == "damaged":
                value = _damaged_text(value) or "none"  # type: ignore[arg-type]
            rows.append((str(key), str(value)))
        table(f"astrag stats · {data['root']}", ("key", "value"), rows, header=False)


def _damaged_text(files: list[dict[str, object]]) -> str:
    def unread(d: dict[str, object]) -> str:
        lost = d["unread_lines"]
        return "not measured" if lost is None else f"{lost:,} of {d['lines']:,} lines unread"

    return "; ".join(f"{d['path']} ({unread(d)})" for d in files)


@app.command()
def export(
    repo: RepoOpt = None,
    fmt: Annotated[ExportFmt, typer.Option("--format", "-f")] = ExportFmt.jsonl,
    output: Annotated[Path | None, typer.Option("--output", "-o")] = None,
    around: Annotated[
        str | None, typer.Option("--around", help="Only this symbol's neighbourhood.")
    ] = None,
    depth: Annotated[int, typer.Option("--depth", min=1, max=4, help="Hops around it.")] = 2,
    limit: Annotated[
        int, typer.Option("--limit", min=1, max=5000, help="At most this many symbols around it.")
    ] = 60,
) -> None:
    """The graph as JSON Lines, GraphML, Cypher (Neo4j / Memgraph), or a Mermaid / Graphviz
    diagram; --around SYMBOL keeps its neighbourhood only (a diagram for a pull request)."""
    with _errors():
        target = None if output is None else writable_file(output)
        with open_index(repo) as idx:
            lines = _export_lines(idx, fmt.value, around, depth, limit)
            if target is None:
                for line in lines:
                    sys.stdout.write(line + "\n")
            else:
                write_atomically(target, (line + "\n" for line in lines))


def _export_lines(
    idx: api.Index, fmt: str, around: str | None, depth: int, limit: int
) -> Iterator[str]:
    from astrag.export import render  # the export formats load only for `astrag export`

    if around is None:
        symbols, edges = idx.graph()
        if fmt in diagram.FORMATS:
            nodes, links = diagram.whole_graph(symbols, edges)
            return diagram.render(fmt, nodes, links)
        return render(fmt, symbols, edges)
    hood = idx.neighbourhood(idx.resolve(around).id, depth, limit)
    said = diagram.neighbourhood_note(hood)
    if hood.omitted:
        note(f"note: {said}")
    if fmt in diagram.FORMATS:
        return diagram.render(fmt, hood.nodes, hood.links, center=hood.center.id, note=said)
    return render(fmt, [n.symbol for n in hood.nodes], hood.edges)


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
    lang: Annotated[
        str | None, typer.Option("--lang", help="python|typescript|javascript|go|java")
    ] = None,
    diff: Annotated[bool | None, typer.Option("--diff/--no-diff", help="Force diff mode.")] = None,
    changed: Annotated[
        bool,
        typer.Option("--changed", help="Check what the git working tree changed (no input)."),
    ] = False,
    base: Annotated[
        str | None, typer.Option("--base", help="With --changed: compare against REF, not HEAD.")
    ] = None,
    fmt: Annotated[CheckFmt, typer.Option("--format", "-f")] = CheckFmt.text,
) -> None:
    """Check code an LLM wrote (a diff, applied or not; a file; a snippet; or the working
    tree's changes with --changed) against the index: calls, members, imports, names and
    syntax the codebase cannot back, here and in the files that use what the change touched.
    Exit 0 clean or warnings only (what the index could not verify), 1 errors, 2 bad input."""
    error_fmt = Fmt.json if fmt != CheckFmt.text else Fmt.text
    with _errors(error_fmt):
        root = _root(repo)
        if base is not None and not changed:
            raise AstragError("--base only applies with --changed", "add --changed")
        text, target = ("", None) if changed else _read_check_input(source, root)
        standalone = path is None and target is None and source != "-"
        if lang is None and standalone:
            lang = api.snippet_language(source)  # a file from outside: its extension says
        report = api.check(  # against an index that reflects every file the change does not
            root,
            text,
            path=path or target,
            lang=lang,
            diff=diff,
            changed=changed,
            base=base,
            refresh=True,
        )
        if standalone and not changed:  # findings name the file as given, not "<snippet>.py"
            report = api.named_snippet(report, source)
        if report.warning:
            err.print(f"[yellow]warning:[/] {escape(report.warning)}")
        if fmt == CheckFmt.json:
            _emit_json(present.check_json(report))
        elif fmt == CheckFmt.sarif:
            _emit_json(present.check_sarif(report))
        else:
            for f in report.findings:  # one a line, whole, however long (soft wrap in a pipe)
                where = escape(f"{f.path}:{f.line}:{f.column}")
                rule = f"[red]{f.rule}[/]" if f.severity == "error" else f"[yellow]{f.rule}[/]"
                tag = severity_tag(f)
                out.print(f"{where} {rule}{tag} {escape(f.message)}", highlight=False)
            err.print(f"[dim]{escape(report.summary())}[/]")
    if report.failed:
        raise typer.Exit(1)  # a warning alone (what the index could not verify) exits 0


def _read_check_input(source: str, root: Path) -> tuple[str, str | None]:
    """The text to check, and the repository path it is the new version of (a file inside
    the repository checked as a whole), if any."""
    if source == "-":
        return decoded(sys.stdin.buffer.read(), "stdin"), None
    path_argument(source, "the file to check")
    file = Path(source)
    try:  # a FIFO is fine here: ``astrag check <(git diff)`` names one
        text = decoded(file.read_bytes(), source)
    except OSError as e:
        raise AstragError(
            f"cannot read {source}: {e.strerror or e}", "pass a readable text file or -"
        ) from e
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
    with _errors(fmt), open_index(repo) as idx:
        hits = idx.search(query, limit, mode=mode.value)
        snippets = idx.snippets(h.symbol for h in hits)
        if fmt == Fmt.json:
            _emit_json(present.search_json(query, hits, snippets))
            return
        if not hits:
            note("no match")
            return
        if not piped():
            sys.stdout.write(present_text.search(query, hits, snippets) + "\n")
            return
        rows = [
            (
                str(i),
                f"{h.score:.4f}",
                h.symbol.kind,
                h.symbol.qualname or h.symbol.path,
                f"{h.symbol.path}:{h.symbol.start_line}-{h.symbol.end_line}",
                ", ".join(h.rankers),
                h.symbol.signature,
            )
            for i, h in enumerate(hits, 1)
        ]
        table(
            f"search · {query}",
            ("#", "score", "kind", "symbol", "location", "found by", "signature"),
            rows,
        )


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
    with _errors(json_out), open_index(repo) as idx:
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

from astrag import cli_agents  # noqa: E402  (install-agent lives in its own module)

cli_agents.register(app)

from astrag import cli_web  # noqa: E402  (the web view lives in its own module)

cli_web.register(app)


def main() -> None:
    from astrag.cli_main import run

    run(app)


if __name__ == "__main__":
    main()
