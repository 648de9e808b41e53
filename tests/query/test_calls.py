"""Callers and callees with dispatch and unverified candidates, exactly, on both stores: the
graph keeps the precise edge, the query layer adds what the call may run and what an
unresolved call may be, each labelled."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag import api
from astrag.query.calls import Related
from tests.query.conftest import open_index
from tests.search.conftest import write_project as write

R = "app/routing.py::"


def rows(found: list[Related]) -> list[tuple[int, str, str, str, int, int]]:
    return [(r.depth, r.symbol.id, r.link, r.through, r.edge.line, r.edge.column) for r in found]


def test_a_method_called_through_its_base_is_called_by_dispatch(
    routing: Path, store_url: str
) -> None:
    with open_index(routing, store_url) as idx:
        s = idx.resolve("Route.matches")
        found = idx.callers(s.id)
        assert rows(found) == [
            (1, R + "BaseRoute.__call__", "dispatch", R + "BaseRoute.matches", 14, 17),
            (1, R + "Router.app", "dispatch", R + "BaseRoute.matches", 37, 22),
            # nearest first: its own file, then a test that imports it
            (1, R + "Router.first", "candidate", "unresolved::?.matches", 43, 22),
            (1, "tests/test_routing.py::test_route", "candidate", "unresolved::?.matches", 5, 18),
        ]
        assert idx.call_notes(s, "callers", found) == [
            "2 more call sites with an unknown receiver call `.matches(` (unverified): "
            "app/routing.py:43, tests/test_routing.py:5"
        ]


def test_the_base_method_keeps_its_direct_callers_and_the_same_candidates(
    routing: Path, store_url: str
) -> None:
    with open_index(routing, store_url) as idx:
        found = idx.callers(idx.resolve("BaseRoute.matches").id)
        assert rows(found) == [
            (1, R + "BaseRoute.__call__", "direct", "", 14, 17),
            (1, R + "Router.app", "direct", "", 37, 22),
            (1, R + "Router.first", "candidate", "unresolved::?.matches", 43, 22),
            (1, "tests/test_routing.py::test_route", "candidate", "unresolved::?.matches", 5, 18),
        ]


def test_callees_list_what_a_call_of_the_base_may_run(routing: Path, store_url: str) -> None:
    with open_index(routing, store_url) as idx:
        s = idx.resolve("Router.app")
        found = idx.callees(s.id)
        assert rows(found) == [
            (1, R + "BaseRoute.matches", "direct", "", 37, 22),
            (1, R + "BaseRoute.handle", "direct", "", 38, 23),
            # at the call's site, the overriders in id order
            (1, R + "Mount.matches", "dispatch", R + "BaseRoute.matches", 37, 22),
            (1, R + "Route.matches", "dispatch", R + "BaseRoute.matches", 37, 22),
            (1, R + "Route.handle", "dispatch", R + "BaseRoute.handle", 38, 23),
        ]
        assert idx.call_notes(s, "callees", found) == []


def test_an_unknown_receiver_is_said_for_callees(routing: Path, store_url: str) -> None:
    with open_index(routing, store_url) as idx:
        s = idx.resolve("Router.first")
        found = idx.callees(s.id)
        assert rows(found) == [(1, "unresolved::?.matches", "direct", "", 43, 22)]
        assert idx.call_notes(s, "callees", found) == [
            "calls on an unknown receiver (`.matches(`): what they run is not known"
        ]


def test_a_hook_the_base_class_lacks_and_an_unbound_name_are_candidates(
    routing: Path, store_url: str
) -> None:
    with open_index(routing, store_url) as idx:
        setup = idx.resolve("Cache.setup")
        found = idx.callers(setup.id)
        assert rows(found) == [
            (1, "app/plugins.py::Plugin.run", "candidate", "unresolved::Plugin.setup", 3, 14)
        ]
        assert idx.call_notes(setup, "callers", found) == [
            "no resolved callers of Cache.setup",
            "1 call site calls `.setup(` on `Plugin`, which has no `setup` of its own "
            "(unverified): app/plugins.py:3",
        ]
        configure = idx.resolve("configure")
        found = idx.callers(configure.id)
        assert rows(found) == [(1, "app/boot.py::boot", "candidate", "unresolved::configure", 2, 5)]
        assert idx.call_notes(configure, "callers", found)[1] == (
            "1 call site calls `configure(`, a name the resolver could not bind (unverified): "
            "app/boot.py:2"
        )


def test_placeholders_that_cannot_denote_the_symbol_are_no_candidates(
    routing: Path, store_url: str
) -> None:
    with open_index(routing, store_url) as idx:
        # `configure()` is a bare call: it cannot reach a method; `self.setup()` in Plugin
        # names Plugin, which Settings does not derive from
        for name in ("Settings.configure", "Settings.setup"):
            s = idx.resolve(name)
            assert idx.callers(s.id) == []
            assert idx.call_notes(s, "callers", []) == [
                f"no callers of {name} in the index, and no unresolved call of "
                f"`{s.name}` that could be one"
            ]


def test_no_caller_and_no_candidate_is_said_plainly(routing: Path, store_url: str) -> None:
    with open_index(routing, store_url) as idx:
        s = idx.resolve("Router.first")
        assert idx.callers(s.id) == []
        assert idx.call_notes(s, "callers", []) == [
            "no callers of Router.first in the index, and no unresolved call of `first` that "
            "could be one"
        ]


def test_express_this_calls_are_direct_and_unknown_receivers_candidates(
    response: Path, store_url: str
) -> None:
    with open_index(response, store_url) as idx:
        send = idx.resolve("res.send")
        found = idx.callers(send.id)
        # ``this`` in ``res.json = function json() {...}`` is res; ``res`` in hello is a
        # parameter nothing types: its call stays an unverified candidate
        assert rows(found) == [
            (1, "lib/response.js::res.json", "direct", "", 17, 15),
            (1, "lib/response.js::res.sendStatus", "direct", "", 22, 15),
            (1, "examples/hello.js::hello", "candidate", "unresolved::?.send", 4, 7),
        ]
        assert idx.call_notes(send, "callers", found) == [
            "1 more call site with an unknown receiver calls `.send(` (unverified): "
            "examples/hello.js:4",
        ]
        found = idx.callers(idx.resolve("res.set").id)
        assert rows(found) == [(1, "lib/response.js::res.json", "direct", "", 16, 8)]


def test_typescript_calls_through_an_interface_dispatch_to_its_implementations(
    stores: Path, store_url: str
) -> None:
    with open_index(stores, store_url) as idx:
        memory = idx.callers(idx.resolve("MemoryStore.get").id)
        assert rows(memory) == [
            (1, "src/store.ts::read", "dispatch", "src/store.ts::Store.get", 18, 16)
        ]
        assert rows(idx.callees(idx.resolve("read").id)) == [
            (1, "src/store.ts::Store.get", "direct", "", 18, 16),
            (1, "src/store.ts::DiskStore.get", "dispatch", "src/store.ts::Store.get", 18, 16),
            (1, "src/store.ts::MemoryStore.get", "dispatch", "src/store.ts::Store.get", 18, 16),
        ]


HOOKS = {
    "app/__init__.py": "",
    "app/hooks.py": """
        def on_start(app):
            return app


        def on_stop(app):
            return app


        HOOKS = {"start": on_start}


        def register(app):
            app.add_hook(on_stop)


        def run():
            on_start(None)
        """,
}


def test_a_function_read_as_a_value_may_be_called_through_it(
    tmp_path_factory: pytest.TempPathFactory, store_url: str
) -> None:
    # pino's `[asJsonSym]: asJson`, a handler passed to `app.use(handler)`: no call of the
    # function is in the graph, but the index holds the evidence that it may be called
    root = write(tmp_path_factory.mktemp("hooks").resolve(), HOOKS)
    api.index(root, jobs=1, embedder="none", store=store_url or None)
    h = "app/hooks.py"
    with open_index(root, store_url) as idx:
        stop = idx.resolve("on_stop")
        found = idx.callers(stop.id)
        assert rows(found) == [(1, h + "::register", "candidate", "value", 13, 18)]
        assert idx.call_notes(stop, "callers", found) == [
            "no resolved callers of on_stop",
            "on_stop is used as a value at 1 site (passed, stored, exported or rendered, not "
            "called there; calls through it are not traced, unverified): app/hooks.py:13",
        ]
        start = idx.resolve("on_start")
        found = idx.callers(start.id)
        assert rows(found) == [
            (1, h + "::run", "direct", "", 17, 5),
            (1, h, "candidate", "value", 9, 19),
        ]
        # a variable's reads are no calls of anything
        assert idx.callers(idx.resolve("HOOKS").id) == []
