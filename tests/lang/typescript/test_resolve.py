"""One test per TypeScript/JavaScript resolution rule, each on a small fixture project."""

from __future__ import annotations

import textwrap
from pathlib import Path

from astrag.graph.run import resolve_all
from astrag.lang import extract_facts
from astrag.project_layout import read_layout
from tests.graph.graphs import build, targets, triples


def test_relative_imports_with_extension_and_index_resolution(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "src/util/index.ts": "export function slug(s: string) { return s; }\n",
            "src/math.ts": "export function add(a: number, b: number) { return a + b; }\n",
            "src/esm.ts": "export const twice = (n: number) => n * 2;\n",
            "src/app.ts": """
                import { slug } from './util';
                import { add } from './math';
                import { twice } from './esm.js';

                export function main() {
                  slug('x');
                  add(1, 2);
                  twice(3);
                }
            """,
        },
    )
    assert targets(edges, "calls", "src/app.ts::main") == {
        "src/util/index.ts::slug",
        "src/math.ts::add",
        "src/esm.ts::twice",
    }


def test_tsconfig_paths_and_base_url(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "tsconfig.json": """
                {
                  // comments and trailing commas are allowed here
                  "compilerOptions": {
                    "baseUrl": "./src",
                    "paths": { "@core/*": ["core/*"], },
                  },
                }
            """,
            "src/core/log.ts": "export function log(m: string) {}\n",
            "src/shared/time.ts": "export function now() { return 0; }\n",
            "src/feature/f.ts": """
                import { log } from '@core/log';
                import { now } from 'shared/time';

                export function f() { log('a'); now(); }
            """,
        },
    )
    assert targets(edges, "calls", "src/feature/f.ts::f") == {
        "src/core/log.ts::log",
        "src/shared/time.ts::now",
    }


def test_reexports_default_exports_and_export_star(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "lib/a.ts": "export default function alpha() {}\nexport function beta() {}\n",
            "lib/b.ts": "export class Gamma { go() {} }\n",
            "lib/index.ts": """
                export { default as alpha } from './a';
                export * from './b';
                export { beta as renamed } from './a';
            """,
            "main.ts": """
                import { alpha, Gamma, renamed } from './lib';
                import alphaDefault from './lib/a';

                function run() {
                  alpha();
                  renamed();
                  alphaDefault();
                  new Gamma().go();
                }
            """,
        },
    )
    assert targets(edges, "calls", "main.ts::run") == {
        "lib/a.ts::alpha",
        "lib/a.ts::beta",
        "lib/b.ts::Gamma",  # new Gamma(): a class without a constructor is what runs
        "lib/b.ts::Gamma.go",
    }
    assert targets(edges, "references", "main.ts::run") == {"lib/b.ts::Gamma"}


def test_commonjs_require(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "lib/helpers.js": """
                function double(n) { return n * 2; }
                function triple(n) { return n * 3; }
                module.exports = { double, triple };
            """,
            "lib/single.js": "class Store { get() {} }\nmodule.exports = Store;\n",
            "index.js": """
                const helpers = require('./lib/helpers');
                const { triple } = require('./lib/helpers');
                const Store = require('./lib/single');

                function go() {
                  helpers.double(1);
                  triple(2);
                  new Store().get();
                }
            """,
        },
    )
    assert targets(edges, "calls", "index.js::go") == {
        "lib/helpers.js::double",
        "lib/helpers.js::triple",
        "lib/single.js::Store",
        "lib/single.js::Store.get",
    }


def test_dependency_injection_through_constructor_parameter_properties(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "src/auth.service.ts": """
                export class AuthService {
                  login(user: string): boolean { return true; }
                }
            """,
            "src/users.controller.ts": """
                import { AuthService } from './auth.service';

                export class UsersController {
                  private cache: AuthService;

                  constructor(private readonly auth: AuthService) {
                    this.cache = auth;
                  }

                  signIn(name: string) {
                    this.check();
                    this.auth.login(name);
                    return this.cache.login(name);
                  }

                  private check() {}
                }
            """,
        },
    )
    assert targets(edges, "calls", "src/users.controller.ts::UsersController.signIn") == {
        "src/users.controller.ts::UsersController.check",
        "src/auth.service.ts::AuthService.login",
    }


def test_new_expression_typed_parameters_and_variables(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "m.ts": """
                export class Repo {
                  constructor(private url: string) {}
                  find(id: string) { return id; }
                }

                export function byParam(r: Repo) { r.find('1'); }

                export function byVariable() {
                  const r = new Repo('db');
                  r.find('2');
                  let typed: Repo | undefined = undefined;
                  typed!.find('3');
                }
            """,
        },
    )
    assert targets(edges, "calls", "m.ts::byParam") == {"m.ts::Repo.find"}
    assert targets(edges, "calls", "m.ts::byVariable") >= {
        "m.ts::Repo.find",
        "m.ts::Repo.constructor",
    }
    assert "m.ts::Repo" in targets(edges, "references", "m.ts::byVariable")


def test_extends_implements_and_interface_method_overrides(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "shapes.ts": """
                export interface Shape { area(): number; }

                export abstract class Base implements Shape {
                  abstract area(): number;
                  describe() { return this.area(); }
                }

                export class Square extends Base {
                  constructor(private side: number) { super(); }
                  area() { return this.side * this.side; }
                }

                export function total(shapes: Shape[], s: Shape) { return s.area(); }
            """,
        },
    )
    assert targets(edges, "inherits", "shapes.ts::Square") == {"shapes.ts::Base"}
    assert targets(edges, "implements", "shapes.ts::Base") == {"shapes.ts::Shape"}
    assert targets(edges, "overrides", "shapes.ts::Square.area") == {"shapes.ts::Base.area"}
    assert targets(edges, "overrides", "shapes.ts::Base.area") == {"shapes.ts::Shape.area"}
    assert targets(edges, "calls", "shapes.ts::Base.describe") == {"shapes.ts::Base.area"}
    assert targets(edges, "calls", "shapes.ts::total") == {"shapes.ts::Shape.area"}


def test_unresolved_and_external_placeholders(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "x.ts": """
                import express from 'express';
                import { Injectable } from '@nestjs/common';

                @Injectable()
                export class Api {
                  start(port: number) {
                    express().listen(port);
                    missing();
                    setTimeout(() => {}, 1);
                  }
                }
            """,
        },
    )
    assert targets(edges, "calls", "x.ts::Api.start") == {
        "external::express",
        "external::express().listen",
        "unresolved::missing",
        "external::setTimeout",
    }
    # TS decorator calls are attributed to the definition they decorate
    assert "external::@nestjs/common.Injectable" in targets(edges, "calls", "x.ts::Api")


def test_collection_elements_and_fallback_values_keep_their_type(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "obs.ts": """
                export interface Observer { next(v: number): void; }

                export class Subject {
                  private observers: Observer[] = [];
                  private fallback?: Subject;

                  emit(v: number) {
                    for (const o of this.observers) { o.next(v); }
                    this.observers[0].next(v);
                    const target = this.fallback ?? this;
                    target.emit(v);
                  }
                }
            """,
        },
    )
    assert targets(edges, "calls", "obs.ts::Subject.emit") == {
        "obs.ts::Observer.next",
        "obs.ts::Subject.emit",
    }


def test_workspace_packages_resolve_to_their_sources(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "package.json": '{"name": "monorepo", "private": true}',
            "packages/core/package.json": '{"name": "@acme/core", "main": "dist/index.js"}',
            "packages/core/src/index.ts": "export * from './clock';\n",
            "packages/core/src/clock.ts": "export class Clock { now() { return 0; } }\n",
            "packages/app/src/main.ts": """
                import { Clock } from '@acme/core';
                import { Clock as Deep } from '@acme/core/clock';

                export function tick(c: Clock, d: Deep) { c.now(); d.now(); }
            """,
        },
    )
    assert targets(edges, "calls", "packages/app/src/main.ts::tick") == {
        "packages/core/src/clock.ts::Clock.now"
    }


def test_a_package_directory_and_the_packages_own_name_resolve_to_its_entry(
    tmp_path: Path,
) -> None:
    # a package's tests: ``require('..')`` and ``require('<its own name>')`` (Node's
    # self-reference) are the package's main file, not an unresolved or external module
    edges = build(
        tmp_path,
        {
            "package.json": '{"name": "lib-x", "main": "lib/index.js", "exports": "./x.js"}',
            "lib/index.js": "exports.server = function (options) { return options; };\n",
            "test/a.test.js": """
                const X = require('..');
                const Y = require('lib-x');
                function check() { X.server({}); Y.server({}); }
            """,
            "test/deep/b.test.js": """
                const X = require('../../');
                function other() { X.server({}); }
            """,
        },
    )
    assert targets(edges, "calls", "test/a.test.js::check") == {"lib/index.js::server"}
    assert targets(edges, "calls", "test/deep/b.test.js::other") == {"lib/index.js::server"}


def test_a_root_package_without_exports_is_not_its_own_dependency(tmp_path: Path) -> None:
    # no ``exports``: Node looks ``lib-x`` up in node_modules, not in the package itself
    edges = build(
        tmp_path,
        {
            "package.json": '{"name": "lib-x", "main": "lib/index.js"}',
            "lib/index.js": "exports.server = function (options) { return options; };\n",
            "test/a.test.js": """
                const X = require('..');
                const Y = require('lib-x');
                function check() { X.server({}); Y.server({}); }
            """,
        },
    )
    assert targets(edges, "calls", "test/a.test.js::check") == {
        "lib/index.js::server",
        "external::lib-x.server",
    }


def test_unannotated_methods_return_their_returned_value(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "c.ts": """
                export class Meta { tags() { return []; } }

                export class Registry {
                  private map = new Map<string, Meta>();

                  get(key: string) {
                    let meta = this.map.get(key);
                    if (!meta) { meta = new Meta(); }
                    [1, 2].forEach((n) => { return n; });
                    return meta;
                  }

                  all() { return this.get('a').tags(); }
                }
            """,
        },
    )
    assert targets(edges, "calls", "c.ts::Registry.all") == {
        "c.ts::Registry.get",
        "c.ts::Meta.tags",
    }


def test_fluent_methods_keep_the_receivers_own_class(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "qb.ts": """
                export class QueryBuilder {
                  where(c: string) { return this; }
                }
                export class SelectQueryBuilder extends QueryBuilder {
                  getMany() { return []; }
                }
                export function run(qb: SelectQueryBuilder) { qb.where('a').getMany(); }
            """,
        },
    )
    assert targets(edges, "calls", "qb.ts::run") == {
        "qb.ts::QueryBuilder.where",
        "qb.ts::SelectQueryBuilder.getMany",
    }


def test_new_calls_the_constructor_or_the_class_or_the_constructor_function(
    tmp_path: Path,
) -> None:
    edges = build(
        tmp_path,
        {
            "m.ts": """
                export class Plain { x = 1; }
                export class Base { constructor() {} }
                export class Derived extends Base {}
                export function run() { new Plain(); new Derived(); }
            """,
            "f.js": """
                function Layer(path) { this.path = path; }
                function make() { return new Layer('/'); }
            """,
        },
    )
    assert triples(edges, "calls", "m.ts::run") == {
        ("m.ts::run", "calls", "m.ts::Plain"),
        ("m.ts::run", "calls", "m.ts::Base.constructor"),
    }
    assert targets(edges, "calls", "f.js::make") == {"f.js::Layer"}


def test_functions_bound_to_locals_are_called_by_name(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "m.ts": """
                export function format(issues: string[]) {
                  const processError = (e: string) => { processError(e); };
                  const visit = function (n: string) { return n; };
                  processError('x');
                  visit('y');
                }
            """,
        },
    )
    assert targets(edges, "calls", "m.ts::format") == {
        "m.ts::format.processError",
        "m.ts::format.visit",
    }
    assert targets(edges, "calls", "m.ts::format.processError") == {"m.ts::format.processError"}


def test_namespace_members_inside_the_namespace_and_through_its_name(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "util.ts": """
                export namespace util {
                  export const arrayToEnum = (xs: string[]) => xs;
                  export function joinValues(xs: string[]) { return arrayToEnum(xs); }
                }
            """,
            "use.ts": """
                import { util } from './util';
                export function run() { util.joinValues([]); util.arrayToEnum([]); }
            """,
        },
    )
    assert targets(edges, "calls", "util.ts::util.joinValues") == {"util.ts::util.arrayToEnum"}
    assert targets(edges, "calls", "use.ts::run") == {
        "util.ts::util.joinValues",
        "util.ts::util.arrayToEnum",
    }


def test_a_namespace_merged_into_an_enum_or_a_class_is_a_scope(tmp_path: Path) -> None:
    # the enum and the class keep the plain name; the namespace merged into each is ``#2``
    edges = build(
        tmp_path,
        {
            "scope.ts": """
                export enum Scope { Default, User }
                export namespace Scope {
                  export function is(x: unknown) { return all().length > 0; }
                  export function all(): Scope[] { return []; }
                }
                export class Box { open() { return 1; } }
                export namespace Box {
                  export function make() { return check(); }
                  function check() { return true; }
                }
                function loose() { return all(); }
            """,
        },
    )
    assert targets(edges, "calls", "scope.ts::Scope.is") == {"scope.ts::Scope.all"}
    assert targets(edges, "calls", "scope.ts::Box.make") == {"scope.ts::Box.check"}
    assert targets(edges, "calls", "scope.ts::loose") == {"unresolved::all"}  # outside it


def test_a_type_argument_left_unknown_after_a_known_one(tmp_path: Path) -> None:
    # Tree<Key, string>: the instance carries Key alone; V's member stays unknown (it used
    # to index past the arguments carried and stop the index run)
    edges = build(
        tmp_path,
        {
            "tree.ts": """
                export class Key { code() { return 1; } }
                export class Tree<K, V> {
                  first(): K { return null!; }
                  value(): V { return null!; }
                }
                export function use(tree: Tree<Key, string>) {
                  tree.first().code();
                  tree.value().trim();
                }
            """,
        },
    )
    assert "tree.ts::Key.code" in targets(edges, "calls", "tree.ts::use")


def test_object_literal_members_and_this_inside_them(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "m.ts": """
                function make(n: number) { return n; }
                export const coerce = {
                  bigint: (n: number) => make(n),
                  nested: { inner: () => make(1) },
                  twice() { return this.bigint(2); },
                };
                export function run() { coerce.nested.inner(); coerce.twice(); }
            """,
        },
    )
    assert targets(edges, "calls", "m.ts::coerce.bigint") == {"m.ts::make"}
    assert targets(edges, "calls", "m.ts::coerce.nested.inner") == {"m.ts::make"}
    assert targets(edges, "calls", "m.ts::coerce.twice") == {"m.ts::coerce.bigint"}
    assert targets(edges, "calls", "m.ts::run") == {
        "m.ts::coerce.nested.inner",
        "m.ts::coerce.twice",
    }


def test_this_in_functions_assigned_onto_an_object_or_a_prototype(tmp_path: Path) -> None:
    # the shape of express's lib/response.js and lib/router/layer.js
    edges = build(
        tmp_path,
        {
            "response.js": """
                var http = require('http');
                var res = Object.create(http.ServerResponse.prototype);
                module.exports = res;
                res.send = function send(body) { return this; };
                res.json = function json(obj) {
                  var body = JSON.stringify(obj);
                  return this.send(body);
                };
            """,
            "layer.js": """
                function Layer(path) { this.path = path; }
                Layer.prototype.match = function match(path) { return path === this.path; };
                Layer.prototype.handle = function handle(req) { return this.match(req); };
            """,
        },
    )
    assert targets(edges, "calls", "response.js::res.json") == {
        "response.js::res.send",
        "external::JSON.stringify",
    }
    assert targets(edges, "calls", "layer.js::Layer.handle") == {"layer.js::Layer.match"}


def test_classes_kept_on_an_object_and_exported_by_a_chain_of_assignments(
    tmp_path: Path,
) -> None:
    # the shape of hapi's lib/*.js: ``exports = module.exports = internals.Auth = class {}``
    edges = build(
        tmp_path,
        {
            "auth.js": """
                const internals = {};
                exports = module.exports = internals.Auth = class {
                    strategy(name) { return this._strategy(name); }
                    _strategy(name) { return new internals.Helper().help(name); }
                };
                internals.Helper = class {
                    help(name) { return name; }
                };
                module.exports.named = exports.other = internals.make = function () {
                    return new internals.Helper();
                };
            """,
            "core.js": """
                const Auth = require('./auth');
                const { named, other } = require('./auth');
                const internals = {};
                internals.start = function () {
                    const auth = new Auth();
                    auth.strategy('basic');
                    named();
                    other();
                };
                let a = internals.b = 0;
                a = internals.c = internals.d = 1;
            """,
        },
    )
    assert targets(edges, "calls", "auth.js::internals.Auth.strategy") == {
        "auth.js::internals.Auth._strategy"
    }
    assert targets(edges, "calls", "auth.js::internals.Auth._strategy") == {
        "auth.js::internals.Helper",
        "auth.js::internals.Helper.help",
    }
    assert targets(edges, "calls", "core.js::internals.start") == {
        "auth.js::internals.Auth",
        "auth.js::internals.Auth.strategy",
        "auth.js::internals.make",
    }
    # a chain whose value is no function or class defines nothing
    assert targets(edges, "contains", "core.js") == {"core.js::internals", "core.js::a"}
    assert targets(edges, "contains", "core.js::internals") == {"core.js::internals.start"}


def test_a_chain_of_names_for_one_function_defines_it_once(tmp_path: Path) -> None:
    # express's ``res.contentType = res.type = function contentType() {}``: the innermost
    # target is the function's one definition; the outer name is a variable holding it (as
    # ``const alias = fn``), not a second copy of the function, so express's documented
    # ``res.set`` / ``res.contentType`` can be looked up and their calls resolve to them
    edges = build(
        tmp_path,
        {
            "response.js": """
                var http = require('http');
                var res = Object.create(http.ServerResponse.prototype);
                module.exports = res;
                res.contentType =
                res.type = function contentType(type) { return this.set('Content-Type', type); };
                res.set =
                res.header = function header(field, val) { return this; };
                res.json = function json(obj) { return this.type('json'); };
            """,
        },
    )
    assert targets(edges, "contains", "response.js::res") == {
        "response.js::res.contentType",
        "response.js::res.type",
        "response.js::res.set",
        "response.js::res.header",
        "response.js::res.json",
    }
    assert targets(edges, "calls", "response.js::res.json") == {"response.js::res.type"}
    assert targets(edges, "calls", "response.js::res.type") == {"response.js::res.set"}
    # the function is read into its alias where the chain names it, as ``alias = fn`` reads
    # fn: the read starts at the alias (what it holds), not at the module
    assert targets(edges, "references", "response.js::res.contentType") == {"response.js::res.type"}
    assert targets(edges, "references", "response.js::res.set") == {"response.js::res.header"}
    assert not targets(edges, "references", "response.js") & {
        "response.js::res.type",
        "response.js::res.header",
    }


def test_exports_is_the_module_itself(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "utils.js": """
                exports.normalizeType = function (type) { return type; };
                exports.normalizeTypes = function (types) {
                  return types.map(function (t) { return exports.normalizeType(t); });
                };
            """,
        },
    )
    assert targets(edges, "calls", "utils.js::normalizeTypes") == {
        "utils.js::normalizeType",
        "unresolved::?.map",
    }


def test_static_and_instance_members_of_one_name_stay_apart(tmp_path: Path) -> None:
    # vendure's Logger: an instance warn (the primary id) and a static warn (#2)
    edges = build(
        tmp_path,
        {
            "logger.ts": """
                export class Logger {
                  warn(m: string) { this.log(m); }
                  static warn(m: string) { Logger.instance().warn(m); }
                  static instance() { return new Logger(); }
                  log(m: string) {}
                }
                export function run() { Logger.warn('x'); }
            """,
        },
    )
    assert targets(edges, "calls", "logger.ts::run") == {"logger.ts::Logger.warn#2"}
    assert targets(edges, "calls", "logger.ts::Logger.warn#2") == {
        "logger.ts::Logger.instance",
        "logger.ts::Logger.warn",
    }
    assert targets(edges, "calls", "logger.ts::Logger.warn") == {"logger.ts::Logger.log"}


def test_a_named_function_expression_is_the_source_of_its_calls(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "m.ts": """
                declare function forwardRef(f: () => void): void;
                function log(x: string) { return x; }
                forwardRef(function Inner() { log('i'); });
                export function outer() { [1].map(function each() { log('e'); }); }
            """,
        },
    )
    assert targets(edges, "calls", "m.ts::Inner") == {"m.ts::log"}
    assert targets(edges, "calls", "m.ts::outer.each") == {"m.ts::log"}


def test_members_of_module_exports_objects_are_the_modules_own(tmp_path: Path) -> None:
    # the shape of koa's lib/context.js
    edges = build(
        tmp_path,
        {
            "context.js": """
                const proto = module.exports = {
                  onerror(err) { this.emitError(err); },
                  emitError: function (err) { return err; },
                  get body() { return 1; },
                  set body(val) { this.emitError(val); },
                };
            """,
            "app.js": """
                const context = require('./context');
                function handle(err) { context.onerror(err); }
            """,
        },
    )
    assert targets(edges, "calls", "context.js::onerror") == {"context.js::emitError"}
    assert targets(edges, "calls", "context.js::body#2") == {"context.js::emitError"}
    assert targets(edges, "calls", "app.js::handle") == {"context.js::onerror"}


def test_untyped_callback_parameters_take_the_types_the_callee_declares(tmp_path: Path) -> None:
    # the compiler's contextual typing: `operate((source, sub) => …)` gives `sub` the type
    # of parameter 1 of operate's function-typed parameter 0; `new Stream(cb)` reads the
    # constructor's, skipping a `this:` parameter on either side
    edges = build(
        tmp_path,
        {
            "lib.ts": """
                export class Sink { next(v: number) {} done() {} }
                export class Source { pipe() {} }
                export function operate(init: (source: Source, sink: Sink) => void) {}
                export class Stream {
                  constructor(subscribe: (this: Stream, sink: Sink) => void) {}
                }
            """,
            "use.ts": """
                import { operate, Stream } from './lib';

                export function map() {
                  operate((source, sink) => { source.pipe(); sink.next(1); });
                  return new Stream(function (this: Stream, sink) { sink.done(); });
                }
            """,
        },
    )
    assert targets(edges, "calls", "use.ts::map") == {
        "lib.ts::operate",
        "lib.ts::Stream.constructor",
        "lib.ts::Source.pipe",
        "lib.ts::Sink.next",
        "lib.ts::Sink.done",
    }


def test_callback_parameters_without_a_declared_function_type_stay_unknown(
    tmp_path: Path,
) -> None:
    # a callee parameter that is no function type, a callback parameter past the declared
    # ones, and a callback parameter with its own annotation (which wins) give no guess
    edges = build(
        tmp_path,
        {
            "lib.ts": """
                export class Sink { next(v: number) {} }
                export class Other { next(v: number) {} }
                export function run(init: Function) {}
                export function operate(init: (sink: Sink) => void) {}
            """,
            "use.ts": """
                import { run, operate, Other } from './lib';

                export function map() {
                  run((sink) => { sink.next(1); });
                  operate((sink, extra) => { extra.next(2); });
                  operate((sink: Other) => { sink.next(3); });
                }
            """,
        },
    )
    assert targets(edges, "calls", "use.ts::map") == {
        "lib.ts::run",
        "lib.ts::operate",
        "lib.ts::Other.next",
        "unresolved::?.next",
    }


def test_a_call_returning_a_generic_class_gives_that_class(tmp_path: Path) -> None:
    # `innerFrom(x).subscribe()`: innerFrom returns Observable<T>, so the call's result is an
    # Observable (whose overload signatures yield to the implementation), not a T
    edges = build(
        tmp_path,
        {
            "lib.ts": """
                export class Item { subscribe() {} }
                export class Observable<T> { subscribe() {} pipe() {} }
                export function innerFrom<O>(input: O): Observable<O>;
                export function innerFrom<T>(input: T): Observable<T> {
                  return new Observable<T>();
                }
                export function items(): Observable<Item> { return new Observable<Item>(); }
            """,
            "use.ts": """
                import { innerFrom, items } from './lib';

                export function go(n: number) {
                  innerFrom(n).subscribe();
                  items().pipe();
                }
            """,
        },
    )
    assert targets(edges, "calls", "use.ts::go") == {
        "lib.ts::innerFrom",
        "lib.ts::items",
        "lib.ts::Observable.subscribe",
        "lib.ts::Observable.pipe",
    }


def test_an_awaited_promise_still_gives_its_value(tmp_path: Path) -> None:
    # the negative side: Promise<Item> is unwrapped (what `await` gives), so `.subscribe` on
    # the awaited value is Item's; a member the value lacks (`.pipe`) is no guess
    edges = build(
        tmp_path,
        {
            "lib.ts": """
                export class Item { subscribe() {} }
                export class Observable<T> { subscribe() {} pipe() {} }
                export async function load(): Promise<Item> { return new Item(); }
            """,
            "use.ts": """
                import { load } from './lib';

                export async function go() {
                  const item = await load();
                  item.subscribe();
                  item.pipe();
                }
            """,
        },
    )
    assert targets(edges, "calls", "use.ts::go") == {
        "lib.ts::load",
        "lib.ts::Item.subscribe",
        "unresolved::Item.pipe",
    }


def test_export_star_chains_find_first_declarer_and_depend_on_every_module_asked(
    tmp_path: Path,
) -> None:
    """A barrel of barrels: a name is found through the first `export *` that declares it
    (nested, behind an `export =`, across a cycle), and the importer depends on every module
    the lookup consulted, for a name found nowhere too."""
    files = {
        "lib/index.ts": "export * from './a';\nexport * from './b';\nexport * from './c';\n",
        "lib/a.ts": "export * from './deep';\n",
        "lib/deep.ts": "export function shared() {}\nexport function fromDeep() {}\n",
        "lib/b.ts": "class Box {\n  static made() {}\n}\nexport = Box;\n",
        "lib/c.ts": "export * from './index';\nexport function shared() {}\n"
        "export function fromC() {}\n",
        "lib/unused.ts": "export function fromDeep() {}\n",
        "main.ts": """
            import { shared, fromDeep, made, fromC } from './lib';

            function run() {
              shared();
              fromDeep();
              made();
              fromC();
            }
        """,
        "other.ts": "import { missing } from './lib/a';\nmissing();\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    facts = {rel: extract_facts(rel, (tmp_path / rel).read_bytes()) for rel in files}
    resolved, _ = resolve_all(facts, read_layout(tmp_path, facts))
    edges = [e for r in resolved.values() for e in r.edges]
    assert targets(edges, "calls", "main.ts::run") == {
        "lib/deep.ts::shared",  # a.ts's chain comes before c.ts's
        "lib/deep.ts::fromDeep",
        "lib/b.ts::Box.made",  # a member of what b.ts exports as a whole
        "lib/c.ts::fromC",
    }
    assert resolved["main.ts"].depends_on == {
        "lib/index.ts", "lib/a.ts", "lib/deep.ts", "lib/b.ts", "lib/c.ts",
    }  # fmt: skip
    # a name no module of a.ts's chain declares: both were asked, nothing else
    assert targets(edges, "calls", "other.ts") == {"unresolved::missing"}
    assert resolved["other.ts"].depends_on == {"lib/a.ts", "lib/deep.ts"}


def test_an_interface_merged_with_a_class_is_one_type_with_both_bases(tmp_path: Path) -> None:
    # `interface X` + `class X` are one symbol to the compiler: the class (the code) holds the
    # plain id, inherits from its own base and from what the interface extends, and calls
    # reach members of both declarations and of both bases
    edges = build(
        tmp_path,
        {
            "base.ts": """
                export class Base { key() {} }
                export interface Mixin { mixed(): void }
            """,
            "node.ts": """
                import { Base, Mixin } from './base';
                export interface Node extends Mixin { extra(): void; }
                export class Node extends Base {
                  run() { this.extra(); this.key(); this.mixed(); }
                }
                export function build() { return new Node().run(); }
            """,
        },
    )
    assert targets(edges, "calls", "node.ts::Node.run") == {
        "node.ts::Node.extra",
        "base.ts::Base.key",
        "base.ts::Mixin.mixed",
    }
    assert targets(edges, "calls", "node.ts::build") == {"node.ts::Node", "node.ts::Node.run"}
    assert triples(edges, "inherits") == {
        ("node.ts::Node", "inherits", "base.ts::Base"),
        ("node.ts::Node#2", "inherits", "base.ts::Mixin"),
    }


def test_a_function_merged_with_an_interface_keeps_the_plain_id_for_its_scope(
    tmp_path: Path,
) -> None:
    # `interface make {}` + `function make() {}` (a factory and its type): what the function
    # defines inside is `make.inner`, and calls there come from it
    edges = build(
        tmp_path,
        {
            "f.ts": """
                export interface make { init(): void }
                export function make() {
                  function inner() { helper(); }
                  inner();
                }
                function helper() {}
            """,
        },
    )
    assert triples(edges, "calls") == {
        ("f.ts::make.inner", "calls", "f.ts::helper"),
        ("f.ts::make", "calls", "f.ts::make.inner"),
    }


def test_an_annotation_naming_a_function_merged_with_an_interface_means_the_interface(
    tmp_path: Path,
) -> None:
    # zod's `$constructor`: the interface types what the factory makes; `init` is declared by
    # the interface (what the compiler names for `made.init`) and implemented by the
    # factory's local `init`, a second definition of the qualname (no overload of it)
    edges = build(
        tmp_path,
        {
            "core.ts": """
                export interface $ctor { init(x: number): void }
                export function $ctor(): $ctor {
                  function init(x: number) { helper(); }
                  return { init } as any;
                }
                function helper() {}
            """,
            "use.ts": """
                import * as core from './core';
                export const made: core.$ctor = core.$ctor();
                export function go() { made.init(1); }
            """,
        },
    )
    assert targets(edges, "calls", "use.ts::go") == {"core.ts::$ctor.init"}
    assert targets(edges, "calls", "core.ts::$ctor.init#2") == {"core.ts::helper"}


def test_mapped_utility_types_keep_their_arguments_members(tmp_path: Path) -> None:
    # vendure's `get orderOptions(): Required<OrderOptions>`: a member read through Required,
    # Partial, Readonly, NonNullable, Omit or Pick is the argument type's own
    edges = build(
        tmp_path,
        {
            "opts.ts": """
                export interface Strategy { run(): void; stop(): void; }
                export interface Options { strategy?: Strategy; other: number; }
                export class Config {
                  get options(): Required<Options> { return {} as any; }
                  partial: Partial<Options> = {};
                  picked?: Pick<Options, 'strategy'>;
                  omitted!: NonNullable<Omit<Options, 'other'>>;
                }
                export function go(c: Config) {
                  const { strategy } = c.options;
                  strategy.run();
                  c.partial.strategy!.stop();
                  c.picked!.strategy!.run();
                  c.omitted.strategy!.stop();
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target) for e in edges if str(e.kind) == "calls" and e.source == "opts.ts::go"
    ) == [
        (11, "opts.ts::Strategy.run"),
        (12, "opts.ts::Strategy.stop"),
        (13, "opts.ts::Strategy.run"),
        (14, "opts.ts::Strategy.stop"),
    ]


def test_a_type_alias_of_one_named_type_is_that_type(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export class ZodType<T = any> { parse(): T { return null as any; } }
                export type ZodTypeAny = ZodType<any>;
                export type Schema = ZodTypeAny;
                export type Loop = Loop2;
                export type Loop2 = Loop;
            """,
            "use.ts": """
                import { Schema, ZodTypeAny, Loop } from './types';
                export function check(s: Schema, t: ZodTypeAny, l: Loop) {
                  s.parse();
                  t.parse();
                  l.parse();
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target) for e in edges if str(e.kind) == "calls" and e.source == "use.ts::check"
    ) == [
        (3, "types.ts::ZodType.parse"),
        (4, "types.ts::ZodType.parse"),
        (5, "unresolved::?.parse"),
    ]


def test_members_typed_by_a_class_type_parameter_take_the_subclass_argument(
    tmp_path: Path,
) -> None:
    # zod's shape: ZodType<Def> declares `_def: Def`; ZodArray passes ZodArrayDef<T> for Def,
    # whose `type: T` is constrained to ZodTypeAny (an alias of ZodType<any>)
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export interface ZodTypeDef { errorMap?: string }
                export abstract class ZodType<Output = any, Def extends ZodTypeDef = ZodTypeDef> {
                  readonly _def!: Def;
                  _parse(): Output { return null as any; }
                  get def(): Def { return this._def; }
                  parse() { return this._parse(); }
                }
                export type ZodTypeAny = ZodType<any, any>;
                export interface ZodArrayDef<T extends ZodTypeAny = ZodTypeAny> extends ZodTypeDef {
                  type: T;
                  check(): void;
                }
                export class ZodArray<T extends ZodTypeAny> extends ZodType<T[], ZodArrayDef<T>> {
                  _parse(): any {
                    this._def.check();
                    this.def.type._parse();
                    const def = this._def;
                    return def.type.parse();
                  }
                }
                export class Middle<D extends ZodTypeDef> extends ZodType<string, D> {}
                export class Leaf extends Middle<ZodArrayDef> {
                  run() { this._def.check(); }
                }
            """,
        },
    )
    assert triples(edges, "calls", "types.ts::ZodArray._parse") == {
        ("types.ts::ZodArray._parse", "calls", "types.ts::ZodArrayDef.check"),
        ("types.ts::ZodArray._parse", "calls", "types.ts::ZodType._parse"),
        ("types.ts::ZodArray._parse", "calls", "types.ts::ZodType.parse"),
    }
    # through a middle class that passes its own parameter on
    assert targets(edges, "calls", "types.ts::Leaf.run") == {"types.ts::ZodArrayDef.check"}


def test_instanceof_and_type_guards_narrow_the_subject_where_they_hold(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "nodes.ts": """
                export class LexicalNode { getKey() {} remove() {} }
                export class ElementNode extends LexicalNode { getChildren() {} }
                export class TextNode extends LexicalNode { getTextContent() {} }
                export function $isElementNode(
                  node: LexicalNode | null | undefined,
                ): node is ElementNode {
                  return node instanceof ElementNode;
                }
                export function isReady(node: LexicalNode): boolean { return true; }
            """,
            "use.ts": """
                import { $isElementNode, isReady, LexicalNode, TextNode } from './nodes';
                export function visit(node: LexicalNode, other: any, third: LexicalNode) {
                  if ($isElementNode(node)) {
                    node.getChildren();
                  }
                  if (other instanceof TextNode && other.getTextContent()) {}
                  const text = other instanceof TextNode ? other : null;
                  if (isReady(third)) {
                    third.getKey();
                  }
                  if (!$isElementNode(third)) {
                    third.remove();
                    return;
                  }
                  third.getChildren();
                  const kids = third;
                  kids.getChildren();
                }
                export function reassigned(node: LexicalNode) {
                  if ($isElementNode(node)) {
                    node = node.getParent();
                    node.getChildren();
                  }
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target) for e in edges if str(e.kind) == "calls" and e.source == "use.ts::visit"
    ) == [
        (3, "nodes.ts::$isElementNode"),
        (4, "nodes.ts::ElementNode.getChildren"),  # the guard's `node is ElementNode`
        (6, "nodes.ts::TextNode.getTextContent"),  # the right side of `&&`
        (8, "nodes.ts::isReady"),
        (9, "nodes.ts::LexicalNode.getKey"),  # no predicate: the subject's own type
        (11, "nodes.ts::$isElementNode"),
        (12, "nodes.ts::LexicalNode.remove"),  # `!guard`: the consequence is not narrowed
        (15, "nodes.ts::ElementNode.getChildren"),  # after `if (!guard) return`
        (17, "nodes.ts::ElementNode.getChildren"),  # a binding made there
    ]
    # a subject assigned in the region is not narrowed there
    assert targets(edges, "calls", "use.ts::reassigned") == {
        "nodes.ts::$isElementNode",
        "unresolved::LexicalNode.getParent",
        "unresolved::LexicalNode.getChildren",
    }


def test_object_literal_members_in_parentheses_or_a_cast_are_definitions(tmp_path: Path) -> None:
    # zod's `coerce = { string: ((arg) => ZodString.create(arg)) as Create }`
    edges = build(
        tmp_path,
        {
            "coerce.ts": """
                export class ZodString { static create(a: any) { return new ZodString(); } }
                type Create = (typeof ZodString)["create"];
                export const coerce = {
                  string: ((arg: any) => ZodString.create(arg)) as Create,
                  plain: (function (arg: any) { return ZodString.create(arg); }),
                  value: (1 + 2) as number,
                };
            """,
        },
    )
    assert triples(edges, "calls") == {
        ("coerce.ts::ZodString.create", "calls", "coerce.ts::ZodString"),
        ("coerce.ts::coerce.string", "calls", "coerce.ts::ZodString.create"),
        ("coerce.ts::coerce.plain", "calls", "coerce.ts::ZodString.create"),
    }


def test_untyped_parameters_of_object_literal_members_take_the_declared_types(
    tmp_path: Path,
) -> None:
    # vendure's `const process: FulfillmentProcess = { init(injector) { injector.get(...) } }`,
    # and a literal passed as an argument (`defineHandler({ handler(event) { ... } })`)
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export class Injector { get(t: any): any { return null; } }
                export class H3Event { respond() {} }
                export interface Strategy { init?: (injector: Injector) => void }
                export interface Process extends Strategy { onEnd(event: H3Event): void }
                export interface HandlerObject { handler(event: H3Event): void; nested: Process }
                export function defineHandler(options: HandlerObject) {}
            """,
            "use.ts": """
                import { Process, defineHandler } from './types';
                export const process: Process = {
                  init(injector) { injector.get(1); },
                  onEnd: (event) => { event.respond(); },
                };
                export function setup() {
                  defineHandler({
                    handler(event) { event.respond(); },
                    nested: { init: injector => injector.get(2), onEnd(e) {} },
                  });
                  const untyped = { init(inj) { inj.get(3); } };
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target) for e in edges if str(e.kind) == "calls" and e.path == "use.ts"
    ) == [
        (3, "types.ts::Injector.get"),
        (4, "types.ts::H3Event.respond"),
        (7, "types.ts::defineHandler"),
        (8, "types.ts::H3Event.respond"),
        (9, "types.ts::Injector.get"),
        (11, "unresolved::?.get"),  # no declared type: nothing to read the parameter's from
    ]


def test_a_call_returning_an_instance_of_its_class_argument_gives_that_class(
    tmp_path: Path,
) -> None:
    # vendure's `injector.get(TransactionalConnection)`: get<T, R = T>(type: Type<T>): R
    edges = build(
        tmp_path,
        {
            "di.ts": """
                export interface Type<T> extends Function { new (...args: any[]): T }
                export class Injector {
                  get<T, R = T>(typeOrToken: Type<T> | string): R { return null as any; }
                  async resolve<T>(ctor: new () => T): Promise<T> { return null as any; }
                  find<T>(name: string, fallback: Type<T>): T { return null as any; }
                  other<T>(value: T): T { return value; }
                }
                export class Connection { query() {} }
                export class Service { run() {} }
            """,
            "use.ts": """
                import { Injector, Connection, Service } from './di';
                export async function boot(injector: Injector) {
                  const connection = injector.get(Connection);
                  connection.query();
                  injector.get(Service).run();
                  (await injector.resolve(Service)).run();
                  const found = await injector.resolve(Connection);
                  found.query();
                  injector.find('x', Service).run();
                  injector.other(Service).run();
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target)
        for e in edges
        if str(e.kind) == "calls" and e.source == "use.ts::boot" and "Injector" not in e.target
    ) == [
        (4, "di.ts::Connection.query"),
        (5, "di.ts::Service.run"),
        (6, "di.ts::Service.run"),  # through `(await ...)`
        (8, "di.ts::Connection.query"),
        (9, "di.ts::Service.run"),
        (10, "unresolved::?.run"),  # `other<T>(value: T)`: T is the class object, not an instance
    ]


def test_destructured_parameters_take_members_of_their_declared_or_contextual_type(
    tmp_path: Path,
) -> None:
    # vendure's `new ScheduledTask({ execute: async ({ injector }) => ... })`
    edges = build(
        tmp_path,
        {
            "task.ts": """
                export class Injector { get(t: any): any { return null; } }
                export class Logger { log() {} }
                export interface TaskContext { injector: Injector; logger: Logger }
                export interface TaskConfig { execute(ctx: TaskContext): void }
                export class ScheduledTask { constructor(config: TaskConfig) {} }
                export function run(cb: (ctx: TaskContext) => void) {}
            """,
            "use.ts": """
                import { ScheduledTask, TaskContext, run } from './task';
                export const task = new ScheduledTask({
                  execute: async ({ injector }) => { injector.get(1); },
                });
                export function typed({ logger: log }: TaskContext) { log.log(); }
                export function passed() { run(({ logger }) => logger.log()); }
            """,
        },
    )
    assert sorted(
        (e.line, e.target) for e in edges if str(e.kind) == "calls" and e.path == "use.ts"
    ) == [
        (2, "task.ts::ScheduledTask.constructor"),
        (3, "task.ts::Injector.get"),
        (5, "task.ts::Logger.log"),
        (6, "task.ts::Logger.log"),
        (6, "task.ts::run"),
    ]


def test_this_in_anonymous_methods_and_constructor_functions(tmp_path: Path) -> None:
    # express: `methods.forEach(function (method) { app[method] = function () {
    # this.lazyrouter() } })`, and `function View() { this.lookup() }` with
    # `View.prototype.lookup = function`
    edges = build(
        tmp_path,
        {
            "app.js": """
                var app = module.exports = {};
                app.lazyrouter = function lazyrouter() {};
                ['get', 'post'].forEach(function (method) {
                  app[method] = function (path) {
                    this.lazyrouter();
                  };
                });
                function View(name) {
                  this.lookup(name);
                }
                View.prototype.lookup = function lookup(name) {};
                function plain() { this.lookup(); }
            """,
        },
    )
    assert sorted((e.line, e.source, e.target) for e in edges if str(e.kind) == "calls") == [
        (3, "app.js", "unresolved::?.forEach"),
        (5, "app.js", "app.js::app.lazyrouter"),
        (9, "app.js::View", "app.js::View.lookup"),
        (12, "app.js::plain", "unresolved::?.lookup"),
    ]


def test_a_name_declared_as_a_type_and_a_value_means_the_value_in_code(tmp_path: Path) -> None:
    # zod v4: `export interface $ZodType {...}` + `export const $ZodType: $constructor<$ZodType>
    # = $constructor(...)`; `core.$ZodType.init(...)` calls the value's `init`, and an
    # annotation `$ZodType` means the interface (also for `type X` + `const X`)
    edges = build(
        tmp_path,
        {
            "core.ts": """
                export interface $constructor<T> { init(inst: T): void }
                export interface $ZodType { parse(): void }
                export const $ZodType: $constructor<$ZodType> = null as any;
                export type Shape = { size(): number };
                export interface Sized { size(): number }
                export type Box = Sized;
                export const Box = { make() {} };
                export interface Failure extends Error {}
                export const Failure: new () => Failure = null as any;
            """,
            "use.ts": """
                import * as core from './core';
                export function go(t: core.$ZodType, b: core.Box) {
                  core.$ZodType.init(t);
                  t.parse();
                  core.Box.make();
                  b.size();
                  throw new core.Failure();
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target) for e in edges if str(e.kind) == "calls" and e.source == "use.ts::go"
    ) == [
        (3, "core.ts::$constructor.init"),
        (4, "core.ts::$ZodType.parse"),
        (5, "core.ts::Box.make"),
        (6, "core.ts::Sized.size"),
        (7, "core.ts::Failure"),  # `new` of a variable holding a constructor (rxjs's errors)
    ]


def test_mapping_values_by_key_get_and_values_but_not_by_iteration(tmp_path: Path) -> None:
    # vendure's `this.allActions[action.code].execute()`; zod's `this.optionsMap.get(key)`
    edges = build(
        tmp_path,
        {
            "promo.ts": """
                export class Action { execute() {} }
                export class Promotion {
                  allActions: { [code: string]: Action } = {};
                  byName: Record<string, Action> = {};
                  optionsMap!: Map<string, Action>;
                  apply(code: string) {
                    this.allActions[code].execute();
                    this.byName[code].execute();
                    const option = this.optionsMap.get(code);
                    option.execute();
                    for (const a of this.optionsMap.values()) { a.execute(); }
                    for (const entry of this.optionsMap) { entry.execute(); }
                  }
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target)
        for e in edges
        if str(e.kind) == "calls" and e.source == "promo.ts::Promotion.apply"
    ) == [
        (7, "promo.ts::Action.execute"),
        (8, "promo.ts::Action.execute"),
        (9, "external::Map.get"),
        (10, "promo.ts::Action.execute"),
        (11, "external::Map.values"),
        (11, "promo.ts::Action.execute"),
        (12, "unresolved::?.execute"),  # iterating a Map gives its entries
    ]


def test_a_member_every_member_of_a_union_has_is_a_call_of_each(tmp_path: Path) -> None:
    # rxjs's `destination: Subscriber<any> | Observer<any>`: `destination.next(v)` calls
    # whichever it is; a member one of them lacks is no member of the union
    edges = build(
        tmp_path,
        {
            "sub.ts": """
                export class Subscriber { next(v: any) {} unsubscribe() {} }
                export interface Observer { next(v: any): void }
                export class Base { close() {} }
                export class A extends Base {}
                export class B extends Base {}
                export function emit(d: Subscriber | Observer | null, ab: A | B) {
                  d.next(1);
                  d.unsubscribe();
                  ab.close();
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target) for e in edges if str(e.kind) == "calls" and e.source == "sub.ts::emit"
    ) == [
        (7, "sub.ts::Observer.next"),
        (7, "sub.ts::Subscriber.next"),
        (8, "unresolved::?.unsubscribe"),
        (9, "sub.ts::Base.close"),  # both inherit it: one edge
    ]


def test_in_narrows_a_union_to_the_members_that_have_the_key(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "sub.ts": """
                export class Subscriber { next(v: any) {} closed = false; }
                export class Observer { next(v: any) {} }
                export function emit(d: Subscriber | Observer) {
                  if ('closed' in d) {
                    d.next(1);
                  }
                  d.next(2);
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target) for e in edges if str(e.kind) == "calls" and e.source == "sub.ts::emit"
    ) == [
        (5, "sub.ts::Subscriber.next"),
        (7, "sub.ts::Observer.next"),
        (7, "sub.ts::Subscriber.next"),
    ]


def test_members_of_an_object_type_a_function_returns(tmp_path: Path) -> None:
    # zod's `const { status, ctx } = this._processInputParams(input)`
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export class ParseStatus { dirty() {} }
                export class Context { addIssue() {} }
                export class ZodType {
                  _processInputParams(input: any): { status: ParseStatus; ctx: Context } {
                    return null as any;
                  }
                  _parse(input: any) {
                    const { status, ctx } = this._processInputParams(input);
                    status.dirty();
                    ctx.addIssue();
                    this._processInputParams(input).ctx.addIssue();
                    this._processInputParams(input).other.addIssue();
                  }
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target)
        for e in edges
        if str(e.kind) == "calls" and e.source == "types.ts::ZodType._parse"
    ) == [
        (8, "types.ts::ZodType._processInputParams"),
        (9, "types.ts::ParseStatus.dirty"),
        (10, "types.ts::Context.addIssue"),
        (11, "types.ts::Context.addIssue"),
        (11, "types.ts::ZodType._processInputParams"),
        (12, "types.ts::ZodType._processInputParams"),
        (12, "unresolved::?.addIssue"),
    ]


def test_an_import_type_names_the_exported_type(tmp_path: Path) -> None:
    # vendure: `let connection: import('../connection/transactional-connection').Connection;`
    edges = build(
        tmp_path,
        {
            "conn.ts": "export class Connection { query() {} }\n",
            "process.ts": """
                let connection: import('./conn').Connection;
                export function init(c: import('./conn').Connection) { connection = c; }
                export function run() {
                  connection.query();
                }
            """,
        },
    )
    assert targets(edges, "calls", "process.ts::run") == {"conn.ts::Connection.query"}


def test_a_this_parameter_types_this_in_its_function(tmp_path: Path) -> None:
    # rxjs: `scheduler.schedule(function (this: SchedulerAction<T>, state) { this.schedule() })`
    edges = build(
        tmp_path,
        {
            "sched.ts": """
                export class SchedulerAction<T> { schedule(state?: T) {} }
                export function run(s: any) {
                  s.schedule(function (this: SchedulerAction<number>, state: number) {
                    this.schedule(state);
                  });
                }
                export function named(this: SchedulerAction<string>) { this.schedule(); }
            """,
        },
    )
    assert sorted(
        (e.line, e.source, e.target)
        for e in edges
        if str(e.kind) == "calls" and e.target.startswith("sched.ts")
    ) == [
        (4, "sched.ts::run", "sched.ts::SchedulerAction.schedule"),
        (7, "sched.ts::named", "sched.ts::SchedulerAction.schedule"),
    ]


def test_array_methods_give_elements_or_the_array(tmp_path: Path) -> None:
    # rxjs: `observers.shift()!.error(err)`
    edges = build(
        tmp_path,
        {
            "subj.ts": """
                export class Observer { error(e: any) {} }
                export class Subject {
                  observers: Observer[] = [];
                  fail(err: any) {
                    const { observers } = this;
                    observers.shift()!.error(err);
                    observers.filter(Boolean).at(0)!.error(err);
                    observers.push(new Observer());
                  }
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target)
        for e in edges
        if str(e.kind) == "calls" and e.source == "subj.ts::Subject.fail"
    ) == [
        (6, "external::Array.shift"),
        (6, "subj.ts::Observer.error"),
        (7, "external::Array.at"),
        (7, "external::Array.filter"),
        (7, "subj.ts::Observer.error"),
        (8, "external::Array.push"),
        (8, "subj.ts::Observer"),
    ]


def test_this_in_a_function_callback_is_what_the_callee_declares(tmp_path: Path) -> None:
    # rxjs `scheduler.schedule(function () { this.schedule() })` where
    # `schedule(work: (this: SchedulerAction<T>, state?: T) => void)`
    edges = build(
        tmp_path,
        {
            "sched.ts": """
                export class SchedulerAction<T> { schedule(state?: T) {} }
                export class Scheduler {
                  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void) {}
                }
                export function range(scheduler: Scheduler) {
                  scheduler.schedule(function () {
                    this.schedule();
                  });
                }
            """,
        },
    )
    assert targets(edges, "calls", "sched.ts::range") == {
        "sched.ts::Scheduler.schedule",
        "sched.ts::SchedulerAction.schedule",
    }


def test_callbacks_passed_to_interface_methods_take_their_declared_types(tmp_path: Path) -> None:
    # rxjs's `SchedulerLike.schedule(work: (this: SchedulerAction<T>, state?: T) => void)`,
    # declared by body-less (overloaded) signatures
    edges = build(
        tmp_path,
        {
            "sched.ts": """
                export class SchedulerAction<T> { schedule(state?: T) {} }
                export class Subscriber { next(v: any) {} }
                export interface SchedulerLike {
                  schedule<T>(work: (this: SchedulerAction<T>, state: T) => void, d: number): void;
                  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void): void;
                  each(f: (s: Subscriber) => void): void;
                }
                export function range(scheduler: SchedulerLike) {
                  scheduler.schedule(function () {
                    this.schedule();
                  });
                  scheduler.each((s) => s.next(1));
                }
            """,
        },
    )
    assert targets(edges, "calls", "sched.ts::range") == {
        "sched.ts::SchedulerLike.schedule",
        "sched.ts::SchedulerLike.each",
        "sched.ts::SchedulerAction.schedule",
        "sched.ts::Subscriber.next",
    }


def test_a_function_bound_to_a_declared_function_type_takes_its_parameter_types(
    tmp_path: Path,
) -> None:
    # `const middleware: MiddlewareHandler = async (c, next) => { c.json() }` (hono/h3 style),
    # an inline function type, an interface with a call signature, and a typed field's value
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export class Context { json() {} }
                export class Next { go() {} }
                export type MiddlewareHandler = (c: Context, next: Next) => Promise<void>;
                export type Alias = MiddlewareHandler;
                export interface Handler { (c: Context): void }
                export interface Options { onRequest: Handler }
            """,
            "app.ts": """
                import { MiddlewareHandler, Alias, Handler, Options, Context } from './types';
                export const middleware: MiddlewareHandler = async (c, next) => {
                  c.json();
                  next.go();
                };
                export const aliased: Alias = (c) => { c.json(); };
                export const inline: (c: Context) => void = (c) => { c.json(); };
                export const called: Handler = function (c) { c.json(); };
                export const options: Options = { onRequest: (c) => { c.json(); } };
            """,
        },
    )
    assert sorted(
        (e.line, e.source, e.target) for e in edges if str(e.kind) == "calls" and e.path == "app.ts"
    ) == [
        (3, "app.ts::middleware", "types.ts::Context.json"),
        (4, "app.ts::middleware", "types.ts::Next.go"),
        (6, "app.ts::aliased", "types.ts::Context.json"),
        (7, "app.ts::inline", "types.ts::Context.json"),
        (8, "app.ts::called", "types.ts::Context.json"),
        (9, "app.ts::options.onRequest", "types.ts::Context.json"),
    ]


def test_callbacks_take_the_parameter_types_of_a_named_function_type(tmp_path: Path) -> None:
    # hono's shape: `app.get(path, (c) => c.json())` where `get` is a field typed by an
    # interface whose call signatures take `...handlers: H[]`, `H extends Handler`
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export class Context { json() {} }
                export type Handler = (c: Context) => void;
                export interface HandlerInterface {
                  <H extends Handler>(...handlers: H[]): void;
                  <H extends Handler>(path: string, ...handlers: H[]): void;
                }
                export class App {
                  get!: HandlerInterface;
                  use(mw: Handler) {}
                  on(name: string, ...handlers: Handler[]) {}
                }
            """,
            "main.ts": """
                import { App } from './types';
                export function setup(app: App) {
                  app.get('/', (c) => { c.json(); });
                  app.use((ctx) => ctx.json());
                  app.on('x', (a) => a.json(), (b) => b.json());
                }
            """,
        },
    )
    assert sorted(
        (e.line, e.target) for e in edges if str(e.kind) == "calls" and e.path == "main.ts"
    ) == [
        (3, "types.ts::App.get"),
        (3, "types.ts::Context.json"),
        (4, "types.ts::App.use"),
        (4, "types.ts::Context.json"),
        (5, "types.ts::App.on"),
        (5, "types.ts::Context.json"),  # a.json()
        (5, "types.ts::Context.json"),  # b.json(): both rest arguments
    ]


def test_members_of_a_class_declared_again_belong_to_that_declaration(tmp_path: Path) -> None:
    # test files declare `class TestArgs` in several callbacks: the second one's field is
    # `TestArgs#2.query`, and its decorator's call comes from there
    edges = build(
        tmp_path,
        {
            "spec.ts": """
                function Field() { return (t: any, k: string) => {}; }
                it('a', () => {
                  class TestArgs {
                    @Field() query!: string;
                  }
                });
                it('b', () => {
                  class TestArgs {
                    @Field() query!: string;
                    run() { Field(); }
                  }
                });
            """,
        },
    )
    assert {
        (e.source, e.target)
        for e in edges
        if str(e.kind) == "calls" and e.target != "unresolved::it"
    } == {
        ("spec.ts::TestArgs.query", "spec.ts::Field"),
        ("spec.ts::TestArgs#2.query", "spec.ts::Field"),
        ("spec.ts::TestArgs#2.run", "spec.ts::Field"),
    }


def test_a_function_bound_in_parentheses_or_a_cast_is_a_definition(tmp_path: Path) -> None:
    # zustand's `export const createStore = ((createState) => …) as CreateStore`: the compiler
    # names the function createStore, so the calls inside it come from createStore, and the
    # cast's type is its parameters' context (`s` is a Store)
    edges = build(
        tmp_path,
        {
            "vanilla.ts": """
                export class Store { get() { return 1; } }
                type CreateStore = (f?: () => number) => Store;
                type Read = (s: Store) => number;
                const createStoreImpl = (f: () => number) => new Store();
                export const createStore = ((createState) =>
                  createState ? createStoreImpl(createState) : createStoreImpl) as CreateStore;
                export const read = ((s) => s.get()) satisfies Read;
                export const value = (createStoreImpl(() => 1)) as Store;
                function outer() {
                  const inner = ((n: number) => createStoreImpl(() => n)) as (n: number) => Store;
                  return inner(1);
                }
            """,
            "legacy.js": """
                const { Store } = require('./vanilla');
                const make = (function () { return new Store(); });
            """,
        },
    )
    assert triples(edges, "calls") == {
        ("vanilla.ts::createStoreImpl", "calls", "vanilla.ts::Store"),
        ("vanilla.ts::createStore", "calls", "vanilla.ts::createStoreImpl"),
        ("vanilla.ts::read", "calls", "vanilla.ts::Store.get"),
        ("vanilla.ts", "calls", "vanilla.ts::createStoreImpl"),
        ("vanilla.ts::outer.inner", "calls", "vanilla.ts::createStoreImpl"),
        ("vanilla.ts::outer", "calls", "vanilla.ts::outer.inner"),
        ("legacy.js::make", "calls", "vanilla.ts::Store"),
    }
