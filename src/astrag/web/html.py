"""The few HTML pieces every page is made of. Everything that comes from the index or the
repository (names, paths, signatures, docstrings, source) passes through :func:`e` (HTML
escaping, quotes included) or is placed by the browser as text (the pages' scripts use
``textContent``, never ``innerHTML``): no page can run code that sits in the indexed files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from html import escape
from urllib.parse import quote, urlencode

from astrag.graph.facts import Symbol
from astrag.serve.freshness import Status


def e(value: object) -> str:
    return escape(str(value), quote=True)


def symbol_url(symbol_id: str) -> str:
    return "/symbol/" + quote(symbol_id, safe="")


def file_url(path: str, line: int = 0) -> str:
    return "/file/" + quote(path, safe="/") + (f"#L{line}" if line else "")


def query_url(base: str, **params: object) -> str:
    return base + "?" + urlencode({k: v for k, v in params.items() if v not in (None, "")})


def symbol_link(s: Symbol, text: str = "") -> str:
    name = text or (s.qualname or s.path if s.path else s.id)
    cls = "sym" if s.path else "sym placeholder"
    return f'<a class="{cls}" href="{e(symbol_url(s.id))}" title="{e(s.id)}">{e(name)}</a>'


def site_link(path: str, line: int) -> str:
    if not path:
        return ""
    return f'<a class="site" href="{e(file_url(path, line))}">{e(path)}:{line}</a>'


def kind_badge(kind: str) -> str:
    return f'<span class="kind kind-{e(kind)}">{e(kind)}</span>'


def json_script(element_id: str, data: object) -> str:
    """Data for a page's script, inert: a JSON script element the browser never runs, with
    ``<``, ``>`` and ``&`` escaped so no string in it can close the element."""
    text = json.dumps(data, ensure_ascii=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{e(element_id)}">{text}</script>'


def source_block(text: str, first_line: int, *, anchors: bool = False) -> str:
    """Source lines with their numbers; ``anchors``: each line an ``#L<n>`` target."""
    rows = []
    for i, line in enumerate(text.split("\n")):
        n = first_line + i
        target = f' id="L{n}"' if anchors else ""
        rows.append(
            f'<tr{target}><td class="ln"><a href="#L{n}">{n}</a></td>'
            f"<td><code>{e(line)}</code></td></tr>"
        )
    return f'<table class="source">{"".join(rows)}</table>'


def table(headers: Iterable[str], rows: Iterable[Iterable[str]], cls: str = "") -> str:
    """Cells are HTML already (escaped by the caller)."""
    head = "".join(f"<th>{e(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return (
        f'<table class="grid {e(cls)}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    )


def freshness(status: Status) -> str:
    """How fresh the index behind this page is, for its footer."""
    if not status.fresh:
        state = f'<b class="stale">possibly stale</b>: {e(status.note)}'
    else:
        state = '<b class="fresh">fresh</b>'
    parts = [f"index {state}", f"indexed {e(status.indexed_at or 'unknown')}"]
    parts.append(f"checked in {status.checked_ms:.0f} ms")
    if status.updated_files:
        shown = ", ".join(status.updated_files[:5])
        more = f" and {len(status.updated_files) - 5} more" if len(status.updated_files) > 5 else ""
        parts.append(f"re-indexed before this page: {e(shown)}{more}")
    return f'<footer id="freshness">{" · ".join(parts)}</footer>'


NAV = (("search", "/search"), ("index", "/index"), ("context", "/context"), ("map", "/map"))


def page(title: str, body: str, status: Status, *, scripts: Iterable[str] = ()) -> str:
    nav = "".join(f'<a href="{href}">{name}</a>' for name, href in NAV)
    tags = "".join(f'<script src="/static/{e(s)}" defer></script>' for s in scripts)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)} · astrag</title>"
        f'<link rel="stylesheet" href="/static/app.css">{tags}</head>'
        f'<body><header><a class="brand" href="/">astrag</a><nav>{nav}</nav>'
        '<form action="/search" class="jump"><input name="q" placeholder="search symbols"'
        ' aria-label="search symbols"></form></header>'
        f"<main>{body}</main>{freshness(status)}</body></html>"
    )
