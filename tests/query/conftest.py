"""Small repositories in the shapes real code is written in, indexed once per module:

* ``routing``: starlette's router: ``Router.app`` loops over ``self.routes`` (a list of
  ``BaseRoute``) and calls ``route.matches(scope)``, which the graph resolves to
  ``BaseRoute.matches`` and which runs ``Route.matches`` or ``Mount.matches``; a second loop
  over an untyped parameter calls ``.matches(`` on a receiver nothing can type. A base class
  calls a hook it leaves to subclasses (``self.setup()`` in ``Plugin``); a function calls a
  name it never imports (``configure()``, defined in another module).
* ``response``: express's response object: ``res.json = function json(obj) { ...
  return this.send(body) }``, where ``this`` is unknown to the resolver.
* ``stores``: a TypeScript interface with two implementations, called through the interface.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag import api
from tests.search.conftest import write_project as write

ROUTING: dict[str, str] = {
    "app/__init__.py": "",
    "app/routing.py": '''
        """Routes and the router that dispatches to them."""

        from typing import Sequence


        class BaseRoute:
            def matches(self, scope: dict) -> bool:
                raise NotImplementedError()

            def handle(self, scope: dict) -> None:
                raise NotImplementedError()

            def __call__(self, scope: dict) -> None:
                if self.matches(scope):
                    self.handle(scope)


        class Route(BaseRoute):
            def matches(self, scope: dict) -> bool:
                return scope["path"] == "/"

            def handle(self, scope: dict) -> None:
                print("route", scope)


        class Mount(BaseRoute):
            def matches(self, scope: dict) -> bool:
                return True


        class Router:
            def __init__(self, routes: Sequence[BaseRoute]) -> None:
                self.routes: list[BaseRoute] = list(routes)

            def app(self, scope: dict) -> None:
                for route in self.routes:
                    if route.matches(scope):
                        route.handle(scope)
                        return

            def first(self, routes, scope: dict):
                for route in routes:
                    if route.matches(scope):
                        return route
                return None
        ''',
    "app/registry.py": """
        from app.routing import BaseRoute, Route, Router


        def make() -> BaseRoute:
            return Route()


        def router() -> Router:
            return Router([make()])


        ROUTE_TYPES = (BaseRoute, Route)
        """,
    "app/plugins.py": """
        class Plugin:
            def run(self) -> None:
                self.setup()


        class Cache(Plugin):
            def setup(self) -> None:
                print("cache")
        """,
    "app/boot.py": """
        def boot() -> None:
            configure()
        """,
    "app/config.py": """
        def configure() -> None:
            print("configured")


        class Settings:
            def configure(self) -> None:
                print("settings")

            def setup(self) -> None:
                print("setup")
        """,
    "tests/__init__.py": "",
    "tests/test_routing.py": """
        from app.routing import Route


        def test_route(route) -> None:
            assert route.matches({"path": "/"})
            assert isinstance(Route(), Route)
        """,
}

RESPONSE: dict[str, str] = {
    "package.json": '{"name": "response", "main": "lib/response.js"}\n',
    "lib/response.js": """
        'use strict';

        var http = require('http');

        var res = Object.create(http.ServerResponse.prototype);

        module.exports = res;

        res.send = function send(body) {
          this.end(body);
          return this;
        };

        res.json = function json(obj) {
          var body = JSON.stringify(obj);
          this.set('Content-Type', 'application/json');
          return this.send(body);
        };

        res.sendStatus = function sendStatus(statusCode) {
          this.statusCode = statusCode;
          return this.send(String(statusCode));
        };

        res.set = function set(field, val) {
          this.setHeader(field, val);
          return this;
        };
        """,
    "examples/hello.js": """
        var response = require('../lib/response');

        function hello(req, res) {
          res.send('Hello World');
        }

        module.exports = hello;
        """,
}

STORES: dict[str, str] = {
    "src/store.ts": """
        export interface Store {
          get(key: string): string;
        }

        export class MemoryStore implements Store {
          get(key: string): string {
            return key;
          }
        }

        export class DiskStore implements Store {
          get(key: string): string {
            return "disk:" + key;
          }
        }

        export function read(store: Store, key: string): string {
          return store.get(key);
        }
        """,
}


def _indexed(
    factory: pytest.TempPathFactory, name: str, files: dict[str, str], store_url: str
) -> Path:
    root = write(factory.mktemp(name).resolve(), files)
    api.index(root, jobs=1, embedder="none", store=store_url or None)
    return root


@pytest.fixture(scope="module")
def routing(tmp_path_factory: pytest.TempPathFactory, store_url: str) -> Path:
    return _indexed(tmp_path_factory, "routing", ROUTING, store_url)


@pytest.fixture(scope="module")
def response(tmp_path_factory: pytest.TempPathFactory, store_url: str) -> Path:
    return _indexed(tmp_path_factory, "response", RESPONSE, store_url)


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory, store_url: str) -> Path:
    return _indexed(tmp_path_factory, "stores", STORES, store_url)


def open_index(root: Path, store_url: str) -> api.Index:
    return api.open_index(root, store=store_url or None)
