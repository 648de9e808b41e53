"""TypeScript resolution rules the compiler's types give: function types, unions with members
no repository type is, type aliases of object types, returned functions, object-type
parameters, type arguments of instances. One fixture project each, exact call edges."""

from __future__ import annotations

from pathlib import Path

from tests.graph.graphs import build

TYPES = """
    export class Headers { get() {} }
    export class Foo { run() {} }
"""


def calls_in(edges: list, path: str) -> list[tuple[int, str, str]]:
    return sorted(
        (e.line, e.source, e.target) for e in edges if str(e.kind) == "calls" and e.path == path
    )


def test_a_call_of_a_function_typed_field_parameter_or_variable_gives_its_return_type(
    tmp_path: Path,
) -> None:
    # the declared function type (inline, optional, an alias) says what calling it gives
    edges = build(
        tmp_path,
        {
            "types.ts": TYPES,
            "app.ts": """
                import { Headers, Foo } from './types';
                type MakeFoo = () => Foo;
                export class Client {
                  baseHeaders: () => Headers;
                  constructor(h: () => Headers) { this.baseHeaders = h; }
                  run(fn: () => Headers, make?: MakeFoo) {
                    this.baseHeaders().get();
                    fn().get();
                    make!().run();
                  }
                }
                export const build: () => Foo = () => new Foo();
                export function use() { build().run(); }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (7, "app.ts::Client.run", "app.ts::Client.baseHeaders"),
        (7, "app.ts::Client.run", "types.ts::Headers.get"),
        (8, "app.ts::Client.run", "types.ts::Headers.get"),
        (8, "app.ts::Client.run", "unresolved::fn"),
        (9, "app.ts::Client.run", "types.ts::Foo.run"),
        (9, "app.ts::Client.run", "unresolved::make"),
        (12, "app.ts::build", "types.ts::Foo"),
        (13, "app.ts::use", "app.ts::build"),
        (13, "app.ts::use", "types.ts::Foo.run"),
    ]


def test_an_arrow_function_returns_its_expression_body(tmp_path: Path) -> None:
    # ``make = () => new Headers()``: what a field or const holding an arrow returns is its body
    edges = build(
        tmp_path,
        {
            "types.ts": TYPES,
            "app.ts": """
                import { Headers, Foo } from './types';
                const makeFoo = () => new Foo();
                export class Client {
                  make = () => new Headers();
                  block = () => { new Headers(); };
                  run() {
                    this.make().get();
                    makeFoo().run();
                    this.block().get();
                  }
                }
            """,
        },
    )
    assert [c for c in calls_in(edges, "app.ts") if c[0] >= 7] == [
        (7, "app.ts::Client.run", "app.ts::Client.make"),
        (7, "app.ts::Client.run", "types.ts::Headers.get"),
        (8, "app.ts::Client.run", "app.ts::makeFoo"),
        (8, "app.ts::Client.run", "types.ts::Foo.run"),
        (9, "app.ts::Client.run", "app.ts::Client.block"),
        (9, "app.ts::Client.run", "unresolved::?.get"),  # a block body returns nothing said
    ]


def test_a_union_with_members_no_repository_type_is_narrows_to_the_others(
    tmp_path: Path,
) -> None:
    # ``string | JSXNode``: a member only JSXNode has is JSXNode's (the code narrowed the
    # string away); a union with ``any`` is any; a member neither has stays unknown
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export class JSXNode { render() {} }
                export class Other { render() {} close() {} }
            """,
            "app.ts": """
                import { JSXNode, Other } from './types';
                export function show(
                  a: string | JSXNode, b: JSXNode | 1 | (() => void), c: JSXNode | any,
                  d: JSXNode | Other | string,
                ) {
                  if (typeof a !== 'string') a.render();
                  b.render();
                  c.render();
                  d.render();
                  d.close();
                }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (6, "app.ts::show", "types.ts::JSXNode.render"),
        (7, "app.ts::show", "types.ts::JSXNode.render"),
        (8, "app.ts::show", "unresolved::?.render"),
        (9, "app.ts::show", "types.ts::JSXNode.render"),
        (9, "app.ts::show", "types.ts::Other.render"),
        (10, "app.ts::show", "unresolved::?.close"),
    ]


def test_members_of_a_type_alias_of_an_object_type_are_definitions_and_call_targets(
    tmp_path: Path,
) -> None:
    # ``type Options = { handler: (e) => void }``: the compiler's ``Options.handler``; a member
    # holding only primitives or literals (``id: string``) is left out (no call reaches it), a
    # function-valued one of no named type (``check: ((x: string) => boolean) | undefined``) not
    edges = build(
        tmp_path,
        {
            "types.ts": """
                import { Foo } from './foo';
                export type Options = {
                  id: string;
                  check: ((x: string) => boolean) | undefined;
                  foo: Foo;
                  handler: (event: Foo) => void;
                  make(): Foo;
                };
                export type Mixed = { a(): void } & { b(): void };
            """,
            "foo.ts": "export class Foo { run() {} }\n",
            "app.ts": """
                import { Options, Mixed } from './types';
                export function fire(options: Options, m: Mixed) {
                  options.handler(options.make());
                  options.make().run();
                  m.a();
                  options.foo.run();
                  const check = options.check;
                  check!('x');
                }
            """,
        },
    )
    members = {
        e.target for e in edges if str(e.kind) == "contains" and e.source == "types.ts::Options"
    }
    assert members == {f"types.ts::Options.{m}" for m in ("check", "foo", "handler", "make")}
    assert calls_in(edges, "app.ts") == [
        (3, "app.ts::fire", "types.ts::Options.handler"),
        (3, "app.ts::fire", "types.ts::Options.make"),
        (4, "app.ts::fire", "foo.ts::Foo.run"),
        (4, "app.ts::fire", "types.ts::Options.make"),
        (5, "app.ts::fire", "unresolved::?.a"),  # an intersection declares no members here
        (6, "app.ts::fire", "foo.ts::Foo.run"),
        (8, "app.ts::fire", "types.ts::Options.check"),
    ]


def test_a_returned_function_takes_its_parameter_types_from_the_declared_return_type(
    tmp_path: Path,
) -> None:
    # ``(mw): MiddlewareHandler => async (c, next) => …`` and ``return (c) => …``: the
    # compiler types a returned function (or object literal) from the declared return type
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export class Context { json() {} }
                export class Next { go() {} }
                export type MiddlewareHandler = (c: Context, next: Next) => Promise<void>;
                export interface Handler { (c: Context): void }
                export interface Process { init(ctx: Context): void }
                export type Opts = { init(ctx: Context): void };
            """,
            "app.ts": """
                import { MiddlewareHandler, Handler, Context, Process, Opts } from './types';
                export const handle = (mw: string): MiddlewareHandler => {
                  return async (c, next) => { c.json(); next.go(); };
                };
                export const body = (mw: string): MiddlewareHandler => async (c) => { c.json(); };
                export function named(): Handler { return function (c) { c.json(); }; }
                export function inline(): (c: Context) => void { return (c) => { c.json(); }; }
                export function proc(): Process { return { init(ctx) { ctx.json(); } }; }
                export function opts(): Opts { return { init(ctx) { ctx.json(); } }; }
                export function untyped() { return (c) => { c.json(); }; }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (3, "app.ts::handle", "types.ts::Context.json"),
        (3, "app.ts::handle", "types.ts::Next.go"),
        (5, "app.ts::body", "types.ts::Context.json"),
        (6, "app.ts::named", "types.ts::Context.json"),
        (7, "app.ts::inline", "types.ts::Context.json"),
        (8, "app.ts::proc", "types.ts::Context.json"),
        (9, "app.ts::opts", "types.ts::Context.json"),
        (10, "app.ts::untyped", "unresolved::?.json"),
    ]


def test_a_parameter_typed_by_an_object_type_has_its_members_types(tmp_path: Path) -> None:
    # ``opts: { headers: Headers; build(): Foo; make: () => Foo }``: each member as declared;
    # the members themselves have no node (the compiler names them after the function)
    edges = build(
        tmp_path,
        {
            "types.ts": TYPES,
            "app.ts": """
                import { Headers, Foo } from './types';
                export function send(opts: { headers: Headers; build(): Foo; make: () => Foo }) {
                  opts.headers.get();
                  opts.build().run();
                  opts.make().run();
                  opts.other.run();
                }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (3, "app.ts::send", "types.ts::Headers.get"),
        (4, "app.ts::send", "types.ts::Foo.run"),
        (4, "app.ts::send", "unresolved::?.build"),
        (5, "app.ts::send", "types.ts::Foo.run"),
        (5, "app.ts::send", "unresolved::?.make"),
        (6, "app.ts::send", "unresolved::?.run"),
    ]


def test_an_instance_declared_with_type_arguments_carries_them(tmp_path: Path) -> None:
    # ``b: Box<Foo>`` (a parameter, a local, a field): a member typed by Box's parameter T is
    # a Foo (``T[]`` a collection of Foo); without arguments it stays the constraint
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export class Base { base() {} }
                export class Foo extends Base { run() {} }
                export class Box<T extends Base> {
                  item!: T;
                  all!: T[];
                  get(): T { return this.item; }
                }
            """,
            "app.ts": """
                import { Box, Foo } from './types';
                export function use(b: Box<Foo>, plain: Box) {
                  const local: Box<Foo> = b;
                  b.item.run();
                  b.get().run();
                  local.all[0].run();
                  plain.item.base();
                  plain.item.run();
                }
                export class Holder {
                  box: Box<Foo>;
                  constructor(private readonly injected: Box<Foo>) { this.box = injected; }
                  run() { this.box.item.run(); this.injected.get().run(); }
                }
            """,
        },
    )
    assert [c for c in calls_in(edges, "app.ts") if not c[2].endswith("Box.get")] == [
        (4, "app.ts::use", "types.ts::Foo.run"),
        (5, "app.ts::use", "types.ts::Foo.run"),
        (6, "app.ts::use", "types.ts::Foo.run"),
        (7, "app.ts::use", "types.ts::Base.base"),
        (8, "app.ts::use", "unresolved::Base.run"),
        (13, "app.ts::Holder.run", "types.ts::Foo.run"),  # a field's, a parameter property's
        (13, "app.ts::Holder.run", "types.ts::Foo.run"),
    ]


def test_this_fields_of_a_constructor_function_and_locals_holding_a_field(
    tmp_path: Path,
) -> None:
    # JavaScript: ``this.engine = …`` in ``function View()`` (which has prototype members)
    # declares ``View.engine``; ``var fn = this.handle; fn()`` calls the field it holds
    edges = build(
        tmp_path,
        {
            "view.js": """
                function View(name, opts) {
                  this.engine = opts.engines[name];
                  this.handle = opts.handle;
                }
                View.prototype.render = function render(options) {
                  this.engine(options);
                  var fn = this.handle;
                  fn(options);
                };
                function plain() { this.x = 1; this.x(); }
                module.exports = View;
            """,
        },
    )
    assert {
        e.target for e in edges if str(e.kind) == "contains" and e.source == "view.js::View"
    } == {"view.js::View.engine", "view.js::View.handle", "view.js::View.render"}
    assert calls_in(edges, "view.js") == [
        (6, "view.js::View.render", "view.js::View.engine"),
        (8, "view.js::View.render", "view.js::View.handle"),
        (10, "view.js::plain", "unresolved::?.x"),
    ]


def test_a_function_returned_by_a_function_bound_to_a_function_type_takes_its_return_type(
    tmp_path: Path,
) -> None:
    # ``const _parse: (e: Err) => Parse = (e) => (schema) => …``: the returned function is
    # typed by the return type of the function type the outer one is bound to
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export class Schema { run() {} }
                export class Err {}
                export type Parse = <T extends Schema>(schema: T, value: unknown) => void;
                export type Handler = (s: Schema) => void;
            """,
            "app.ts": """
                import { Parse, Err, Schema, Handler } from './types';
                export const _parse: (e: Err) => Parse = (e) => (schema, v) => { schema.run(); };
                export const inline: (e: Err) => (s: Schema) => void = (e) => (s) => { s.run(); };
                export const curried: (e: Err) => (x: Err) => Handler = (e) => (x) => (s) => {
                  s.run();
                };
                export const untyped = (e: Err) => (s) => { s.run(); };
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (2, "app.ts::_parse", "types.ts::Schema.run"),
        (3, "app.ts::inline", "types.ts::Schema.run"),
        (5, "app.ts::curried", "types.ts::Schema.run"),
        (7, "app.ts::untyped", "unresolved::?.run"),
    ]


def test_a_discriminant_test_narrows_a_union_to_the_members_whose_field_may_hold_it(
    tmp_path: Path,
) -> None:
    # ``if (effect.type === "preprocess") effect.transform()``: the union members whose
    # ``type`` is declared with literal types that include the value (or not literal at all)
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export type Pre = { type: "preprocess"; transform(x: number): void };
                export type Tr = { type: 'transform' | 'map'; transform(x: number): void };
                export type Ref = { type: "refinement"; refinement(x: number): void };
                export interface Loose { type: string; refinement(): void }
                export type Effect = Pre | Tr | Ref;
                export type Done = { type: "done"; at: number };
            """,
            "app.ts": """
                import { Effect, Loose, Ref, Done } from './types';
                export function run(effect: Effect, e2: Effect, l: Loose | Ref | Done) {
                  if (effect.type === "preprocess") {
                    effect.transform(1);
                  }
                  e2.type === 'map' && e2.transform(2);
                  l.type == "refinement" ? l.refinement() : null;
                  if (effect.type !== "refinement") return;
                  effect.refinement(3);
                }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (4, "app.ts::run", "types.ts::Pre.transform"),
        (6, "app.ts::run", "types.ts::Tr.transform"),
        (7, "app.ts::run", "types.ts::Loose.refinement"),
        (7, "app.ts::run", "types.ts::Ref.refinement"),
        (9, "app.ts::run", "types.ts::Ref.refinement"),
    ]


def test_a_switch_on_a_discriminant_narrows_each_case(tmp_path: Path) -> None:
    # ``switch (effect.type) { case "preprocess": … }``: the case's statements; a case the one
    # before falls into (``case "map": case "transform":``) holds no one value, so none
    edges = build(
        tmp_path,
        {
            "types.ts": """
                export type Pre = { type: "preprocess"; transform(x: number): void };
                export type Tr = { type: 'transform' | 'map'; transform(x: number): void };
                export type Ref = { type: "refinement"; refinement(x: number): void };
                export type Effect = Pre | Tr | Ref;
            """,
            "app.ts": """
                import { Effect } from './types';
                export function run(effect: Effect) {
                  switch (effect.type) {
                    case "preprocess":
                      effect.transform(1);
                      break;
                    case "map":
                    case "transform": {
                      effect.transform(2);
                      return;
                    }
                    case 'refinement':
                      effect.refinement(3);
                  }
                }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (5, "app.ts::run", "types.ts::Pre.transform"),
        (9, "app.ts::run", "unresolved::?.transform"),
        (13, "app.ts::run", "types.ts::Ref.refinement"),
    ]


def test_a_built_in_collection_constructed_with_type_arguments_has_their_types(
    tmp_path: Path,
) -> None:
    # ``handlers = new Map<string, Array<Opt>>()``: a mapping to arrays of Opt (collections
    # nest), ``new Set<Opt>()`` a collection of Opt, as the compiler reads the initialiser
    edges = build(
        tmp_path,
        {
            "app.ts": """
                export class Opt { handler() {} }
                export class Bus {
                  private handlers = new Map<string, Array<Opt>>();
                  private seen = new Set<Opt>();
                  run(k: string) {
                    const hs = this.handlers.get(k);
                    for (const o of hs || []) { o.handler(); }
                    for (const s of this.seen) { s.handler(); }
                    const local = new Map<string, Opt>();
                    local.get(k)!.handler();
                  }
                }
            """,
        },
    )
    assert [c for c in calls_in(edges, "app.ts") if not c[2].startswith("external::")] == [
        (7, "app.ts::Bus.run", "app.ts::Opt.handler"),
        (8, "app.ts::Bus.run", "app.ts::Opt.handler"),
        (10, "app.ts::Bus.run", "app.ts::Opt.handler"),
    ]


def test_members_of_an_alias_of_readonly_partial_required_of_an_object_type_are_its_own(
    tmp_path: Path,
) -> None:
    # ``type F = Readonly<{ raw(): Foo }>``: Readonly, Partial, Required (mapped types keeping
    # each member of T) and NonNullable of an object type have T's members, which the compiler
    # names ``F.raw``; a const declared with the alias is called through them. Pick and Omit
    # keep only some members, and a wrapped union is no object type: neither declares members
    edges = build(
        tmp_path,
        {
            "foo.ts": "export class Foo { run() {} }\n",
            "nodes.ts": """
                import { Foo } from './foo';
                type RawFactory = Readonly<{
                  raw(sql: string): Foo;
                  make(): Foo;
                }>;
                type Opts = Partial<Readonly<{ init(): Foo }>>;
                type Need = Required<{ done?(): void }>;
                type Sure = NonNullable<{ check(): void }>;
                type Some = Pick<{ keep(): void; drop(): void }, 'keep'>;
                export const Raw: RawFactory = Object.freeze<RawFactory>({
                  raw(sql) { return new Foo(); },
                  make() { return new Foo(); },
                });
                export function use(o: Opts, n: Need, s: Sure, p: Some) {
                  Raw.raw('x').run();
                  Raw.make();
                  o.init!().run();
                  n.done();
                  s.check();
                  p.keep();
                }
            """,
        },
    )
    members = {
        (e.source, e.target)
        for e in edges
        if str(e.kind) == "contains" and e.source.startswith("nodes.ts::") and "." in e.target
    }
    assert members == {
        ("nodes.ts::RawFactory", "nodes.ts::RawFactory.raw"),
        ("nodes.ts::RawFactory", "nodes.ts::RawFactory.make"),
        ("nodes.ts::Opts", "nodes.ts::Opts.init"),
        ("nodes.ts::Need", "nodes.ts::Need.done"),
        ("nodes.ts::Sure", "nodes.ts::Sure.check"),
    }
    assert [c for c in calls_in(edges, "nodes.ts") if c[0] >= 15] == [
        (15, "nodes.ts::use", "foo.ts::Foo.run"),
        (15, "nodes.ts::use", "nodes.ts::RawFactory.raw"),
        (16, "nodes.ts::use", "nodes.ts::RawFactory.make"),
        (17, "nodes.ts::use", "foo.ts::Foo.run"),
        (17, "nodes.ts::use", "nodes.ts::Opts.init"),
        (18, "nodes.ts::use", "nodes.ts::Need.done"),
        (19, "nodes.ts::use", "nodes.ts::Sure.check"),
        (20, "nodes.ts::use", "unresolved::?.keep"),
    ]


def test_a_const_or_let_declared_in_a_nested_block_is_visible_only_in_that_block(
    tmp_path: Path,
) -> None:
    # block scope: ``const t`` inside a loop of an anonymous callback is that block's; the
    # module's ``t`` holds elsewhere in the named function (a parameter's default value, before
    # the block, after it), and ``for (const t of …)`` is the loop's
    edges = build(
        tmp_path,
        {
            "foo.ts": "export class Foo { run() {} }\nexport class Bar { go() {} }\n",
            "app.ts": """
                import { Foo, Bar } from './foo';
                const t = new Foo();
                export function make(a = t.run(), xs: Bar[] = []) {
                  t.run();
                  xs.forEach((x) => {
                    for (const y of xs) {
                      const t = new Bar();
                      t.go();
                    }
                  });
                  for (const t of xs) { t.go(); }
                  t.run();
                  if (a) { let t = new Bar(); t.go(); }
                }
            """,
        },
    )
    assert [c for c in calls_in(edges, "app.ts") if c[2].endswith((".run", ".go"))] == [
        (3, "app.ts::make", "foo.ts::Foo.run"),
        (4, "app.ts::make", "foo.ts::Foo.run"),
        (8, "app.ts::make", "foo.ts::Bar.go"),
        (11, "app.ts::make", "foo.ts::Bar.go"),
        (12, "app.ts::make", "foo.ts::Foo.run"),
        (13, "app.ts::make", "foo.ts::Bar.go"),
    ]
