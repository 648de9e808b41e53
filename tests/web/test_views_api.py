"""The API functions the web view added: a symbol's neighbourhood, the index report, a file's
imports and importers; exact answers on the shop repository."""

from __future__ import annotations

from pathlib import Path

from astrag import api
from astrag.discover import Skipped
from astrag.query.report import error_spans
from tests.web.fixture import ITEM_PRICE, ITEM_PRICE_HOPS


def test_the_first_hop_is_every_edge_and_the_derived_callers(shop: Path) -> None:
    with api.open_index(shop) as idx:
        hood = idx.neighbourhood(ITEM_PRICE, depth=1)
    assert (hood.nodes[0].symbol.id, hood.nodes[0].hop) == (ITEM_PRICE, 0)
    assert {n.symbol.id for n in hood.nodes if n.hop == 1} == ITEM_PRICE_HOPS[1]
    links = {(k.source, k.target, k.kind, k.link) for k in hood.links}
    assert links == {
        ("shop/models.py::Item", ITEM_PRICE, "contains", "direct"),
        ("shop/cart.py::Cart.total", ITEM_PRICE, "calls", "direct"),
        ("shop/models.py::Book.price", ITEM_PRICE, "overrides", "direct"),
        (ITEM_PRICE, "external::builtins.int", "references", "direct"),
        ("shop/cart.py::quote", ITEM_PRICE, "calls", "candidate"),
        ("web/client.ts::sum", ITEM_PRICE, "calls", "candidate"),
        # the edges among the neighbours too: the three others that return an int
        ("shop/cart.py::Cart.total", "external::builtins.int", "references", "direct"),
        ("shop/models.py::Book.price", "external::builtins.int", "references", "direct"),
        ("shop/cart.py::quote", "external::builtins.int", "references", "direct"),
    }
    assert hood.omitted == 0


def test_dispatch_callers_are_links_through_the_overridden_method(shop: Path) -> None:
    with api.open_index(shop) as idx:
        hood = idx.neighbourhood("shop/models.py::Book.price", depth=1)
    dispatch = [k for k in hood.links if k.link == "dispatch"]
    assert [(k.source, k.target, k.through) for k in dispatch] == [
        ("shop/cart.py::Cart.total", "shop/models.py::Book.price", ITEM_PRICE)
    ]


def test_further_hops_skip_placeholders_members_and_modules(shop: Path) -> None:
    with api.open_index(shop) as idx:
        hood = idx.neighbourhood(ITEM_PRICE, depth=2)
    assert [{n.symbol.id for n in hood.nodes if n.hop == h} for h in (0, 1, 2)] == list(
        ITEM_PRICE_HOPS
    )
    assert all(e.source in {n.symbol.id for n in hood.nodes} for e in hood.edges)


def test_a_limit_keeps_the_nearest_and_counts_the_rest(shop: Path) -> None:
    with api.open_index(shop) as idx:
        hood = idx.neighbourhood(ITEM_PRICE, depth=2, limit=5)
    assert len(hood.nodes) == 5
    assert hood.omitted == 2  # the two candidates; hops past a full one are not explored
    assert [n.hop for n in hood.nodes] == [0, 1, 1, 1, 1]
    # neighbours over an edge of the graph before the unverified candidates
    assert not {"shop/cart.py::quote", "web/client.ts::sum"} & {n.symbol.id for n in hood.nodes}


def test_report_counts_resolution_by_language_and_folder(shop: Path) -> None:
    with api.open_index(shop) as idx:
        r = idx.report()
    assert (r.files, r.lines) == (7, 76)
    assert [(s.name, s.files, s.lines, s.calls) for s in r.languages] == [
        # external: the two sum() calls and self.items.append (a list[Item] field);
        # unresolved: t.price() on an untyped t
        ("python", 6, 63, {"external": 3, "resolved": 6, "unresolved": 1}),
        # external: things.reduce (an Array method); unresolved: t.price() in its callback
        ("typescript", 1, 13, {"external": 1, "unresolved": 1}),
    ]
    assert r.folder_root == ""
    assert [(s.name, s.files, round(s.rate, 3)) for s in r.folders] == [
        ("shop/", 6, 0.9),
        ("web/", 1, 0.5),
    ]
    assert r.calls == {"external": 4, "resolved": 6, "unresolved": 2}


def test_report_names_damaged_and_skipped_files(shop: Path) -> None:
    with api.open_index(shop) as idx:
        r = idx.report()
    assert [(d.path, d.errors, d.lost, d.spans) for d in r.damaged] == [
        ("shop/broken.py", 2, 2, ((5, 6),))
    ]
    assert (r.skipped_total, r.skipped_reasons) == (1, {"secret": 1})
    assert r.skipped == (Skipped(".env", "secret"),)


def test_folders_split_below_the_directory_every_file_shares(tmp_path: Path) -> None:
    for rel in ("src/app/a.py", "src/app/b.py", "src/lib/c.py", "src/main.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("def f():\n    g()\n")
    api.index(tmp_path, jobs=1, embedder="none")
    with api.open_index(tmp_path) as idx:
        r = idx.report()
    assert r.folder_root == "src"
    assert [(s.name, s.files) for s in r.folders] == [("app/", 2), ("(files)", 1), ("lib/", 1)]


def test_error_spans_are_merged_line_ranges_in_any_language() -> None:
    assert error_spans("a.py", b"def ok():\n    return 1\n") == []
    # the TS room reads ``const x = 2;`` on its own: only the broken function is lost
    assert error_spans("a.ts", b"function f( {\n  return 1;\n}\nconst x = 2;\n") == [(1, 3)]
    assert error_spans("a.py", b"x = 1\ndef f(:\n    pass\ny = (\n") == [(2, 2), (4, 4)]
    assert error_spans("a.py", b"class C:\n    def (\n    x = = 1\n") == [(2, 3)]
    assert error_spans("notes.txt", b"anything") == []


def test_file_imports_and_importers(shop: Path) -> None:
    with api.open_index(shop) as idx:
        cart = idx.file_imports("shop/cart.py")
        models = idx.file_imports("shop/models.py")
    assert [(i.edge.line, i.edge.target) for i in cart.imports] == [
        (1, "shop/models.py::Book"),
        (1, "shop/models.py::Item"),
    ]
    assert cart.importers == ()
    assert [
        (i.edge.path, i.edge.target, i.symbol.id if i.symbol else None) for i in models.importers
    ] == [
        ("shop/cart.py", "shop/models.py::Book", "shop/cart.py"),
        ("shop/cart.py", "shop/models.py::Item", "shop/cart.py"),
    ]
