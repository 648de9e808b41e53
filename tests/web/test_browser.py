"""The web view in a real browser: headless Chromium against a real ``astrag web`` process
serving the shop repository. Each test keeps a screenshot of the page it checked."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.web.browser import Browser, Tab
from tests.web.conftest import WebServer
from tests.web.fixture import HOSTILE_FILE, ITEM_PRICE, ITEM_PRICE_HOPS


@pytest.fixture
def tab(browser: Browser) -> Iterator[Tab]:
    opened = browser.tab()
    yield opened
    opened.close()


def texts(tab: Tab, selector: str) -> list[str]:
    return tab.eval(
        f"[...document.querySelectorAll({json.dumps(selector)})].map(e => e.textContent.trim())"
    )


def test_search_results_appear_as_you_type(server: WebServer, tab: Tab, screenshots: Path) -> None:
    tab.goto(server.base + "/search")
    tab.type("#q", "checkout")
    tab.wait_for("document.getElementById('results').dataset.query === 'checkout'")
    names = texts(tab, "#results .hit .sym")
    assert names[0] == "checkout"
    first = tab.eval("document.querySelector('#results .hit').textContent")
    assert "function" in first and "shop/cart.py:15" in first
    assert "def checkout(cart: Cart) -> int" in first  # the signature and the snippet
    assert tab.eval("location.search") == "?q=checkout"  # the address can be shared
    assert "index fresh" in tab.eval("document.getElementById('freshness').textContent")
    tab.screenshot(screenshots / "search.png")


def test_symbol_page_lists_callers_and_draws_the_neighbourhood(
    server: WebServer, tab: Tab, screenshots: Path
) -> None:
    tab.goto(server.base + "/symbol/" + quote(ITEM_PRICE, safe=""))
    callers = tab.eval(
        "[...document.querySelectorAll('table.callers tbody tr')]"
        ".map(r => [...r.cells].map(c => c.textContent.trim()))"
    )
    assert callers == [
        ["Cart.total", "method", "shop/cart.py:12", "direct"],
        ["quote", "function", "shop/cart.py:20", "unverified (?.price)"],
        ["sum", "function", "web/client.ts:12", "unverified (?.price)"],
    ]
    tab.wait_for("document.querySelectorAll('#graph svg a.node').length > 0")
    nodes = tab.eval("[...document.querySelectorAll('#graph svg a.node')].map(a => a.dataset.id)")
    assert set(nodes) == set().union(*ITEM_PRICE_HOPS) and len(nodes) == 12
    dotted = tab.eval("document.querySelectorAll('#graph path.link-candidate').length")
    assert dotted == 2  # the unverified callers are drawn, and drawn as such
    legend = tab.eval("document.getElementById('legend').textContent")
    for word in ("calls", "contains", "overrides", "inherits", "candidate"):
        assert word in legend
    tab.screenshot(screenshots / "symbol.png")
    tab.click("#graph svg a.node[data-id='shop/cart.py::checkout']")
    tab.wait_for("location.pathname === '/symbol/shop%2Fcart.py%3A%3Acheckout'")
    tab.wait_for("document.readyState === 'complete'")
    assert tab.eval("document.querySelector('h1').textContent").startswith("checkout")


def test_index_page_lists_the_file_that_does_not_parse(
    server: WebServer, tab: Tab, screenshots: Path
) -> None:
    tab.goto(server.base + "/index")
    rows = tab.eval(
        "[...document.querySelectorAll('#damaged tbody tr')]"
        ".map(r => [...r.cells].map(c => c.textContent.trim()))"
    )
    assert rows == [["shop/broken.py", "python", "2", "2 of 10", "5–6"]]
    skipped = texts(tab, "#skipped tbody td")
    assert skipped == [".env", "secret"]
    tab.screenshot(screenshots / "index.png")


def test_markup_from_the_repository_is_shown_never_run(
    server: WebServer, tab: Tab, screenshots: Path
) -> None:
    pages = [
        "/symbol/" + quote("shop/models.py::Item", safe=""),
        "/symbol/" + quote("shop/models.py::Item.label", safe=""),
        "/file/shop/models.py",
        "/file/" + quote(HOSTILE_FILE),
        "/search?q=" + quote("<script>"),
    ]
    for path in pages:
        tab.goto(server.base + path)
        assert tab.eval("window.__pwned === undefined"), path
        assert tab.eval("document.title") != "pwned", path
        # only the server's own scripts and inert JSON: no element came from the files
        scripts = tab.eval(
            "[...document.scripts].map(s => s.src ? new URL(s.src).pathname : s.type)"
        )
        assert all(s.startswith("/static/") or s == "application/json" for s in scripts), path
        assert not tab.eval("document.querySelector('main img, main b, main i')"), path
    tab.goto(server.base + "/symbol/" + quote("shop/models.py::Item", safe=""))
    assert "<script>" in tab.eval("document.querySelector('pre.docstring').textContent")
    tab.goto(server.base + "/file/" + quote(HOSTILE_FILE))
    assert HOSTILE_FILE in tab.eval("document.querySelector('h1').textContent")
    tab.screenshot(screenshots / "escaped.png")
