"""TypeScript resolution rules for types made of other types or of values: intersections,
``typeof``, ``Object.assign``, call signatures of interfaces. One fixture project each,
exact call edges."""

from __future__ import annotations

from pathlib import Path

from tests.graph.graphs import build
from tests.lang.typescript.test_resolve_types import TYPES, calls_in


def test_a_member_of_an_intersection_is_a_member_of_one_of_its_parts(tmp_path: Path) -> None:
    # ``A & B``: each part's members; an object type written in it declares its own, and a
    # part outside the repository (which claims every name) yields to a repository one
    edges = build(
        tmp_path,
        {
            "types.ts": TYPES,
            "app.ts": """
                import { Headers, Foo } from './types';
                import { Builder } from 'external-builder';
                type Both = Headers & Foo;
                export function use(
                  both: Both,
                  wide: Builder & Foo & { make(): Headers; extra: Foo },
                ) {
                  both.get();
                  both.run();
                  wide.run();
                  wide.make().get();
                  wide.extra.run();
                  wide.other();
                }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (8, "app.ts::use", "types.ts::Headers.get"),
        (9, "app.ts::use", "types.ts::Foo.run"),
        (10, "app.ts::use", "types.ts::Foo.run"),
        (11, "app.ts::use", "types.ts::Headers.get"),
        (11, "app.ts::use", "unresolved::?.make"),
        (12, "app.ts::use", "types.ts::Foo.run"),
        (13, "app.ts::use", "external::external-builder.Builder.other"),
    ]


def test_a_typeof_type_is_the_type_of_its_value(tmp_path: Path) -> None:
    # ``typeof helpers`` has the object literal's members, ``typeof Action`` is the class
    # (``new`` of a field holding it constructs an Action), ``typeof makeFoo`` the function
    edges = build(
        tmp_path,
        {
            "types.ts": TYPES,
            "app.ts": """
                import { Foo } from './types';
                export const helpers = { make() { return new Foo(); } };
                export function makeFoo(): Foo { return new Foo(); }
                export class Action { constructor(n: number) {} schedule() {} }
                export class Scheduler {
                  constructor(private ctor: typeof Action) {}
                  run(h: typeof helpers, f: typeof makeFoo, all: typeof import('./types')) {
                    h.make();
                    new this.ctor(1).schedule();
                    f().run();
                  }
                }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (2, "app.ts::helpers.make", "types.ts::Foo"),
        (3, "app.ts::makeFoo", "types.ts::Foo"),
        (8, "app.ts::Scheduler.run", "app.ts::helpers.make"),
        (9, "app.ts::Scheduler.run", "app.ts::Action.constructor"),
        (9, "app.ts::Scheduler.run", "app.ts::Action.schedule"),
        (10, "app.ts::Scheduler.run", "app.ts::makeFoo"),
        (10, "app.ts::Scheduler.run", "types.ts::Foo.run"),
    ]


def test_object_assign_gives_the_intersection_of_its_arguments(tmp_path: Path) -> None:
    # ``Object.assign(target, a, b)`` has the members of each argument (an object literal's
    # are anonymous); a cast over it says what it is, an intersection with ``typeof`` too
    edges = build(
        tmp_path,
        {
            "types.ts": TYPES,
            "app.ts": """
                import { Headers, Foo } from './types';
                export const base = { make() { return new Foo(); } };
                const headers = new Headers();
                export const both = Object.assign({}, base, headers);
                const t = Object.assign({}, base) as unknown as typeof base & { extra(): Foo };
                export function use(foo: Foo) {
                  const mixed = Object.assign(foo, { extra: 1 });
                  mixed.run();
                  both.make();
                  both.get();
                  t.make();
                  t.extra().run();
                }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (2, "app.ts::base.make", "types.ts::Foo"),
        (3, "app.ts", "types.ts::Headers"),
        (4, "app.ts", "external::Object.assign"),
        (5, "app.ts", "external::Object.assign"),
        (7, "app.ts::use", "external::Object.assign"),
        (8, "app.ts::use", "types.ts::Foo.run"),
        (9, "app.ts::use", "app.ts::base.make"),
        (10, "app.ts::use", "types.ts::Headers.get"),
        (11, "app.ts::use", "app.ts::base.make"),
        (12, "app.ts::use", "types.ts::Foo.run"),
        (12, "app.ts::use", "unresolved::?.extra"),
    ]


def test_calling_an_instance_of_an_interface_gives_its_call_signatures_return_type(
    tmp_path: Path,
) -> None:
    # ``interface UnaryFunction<T, R> { (source: T): R }``: calling one gives an R, the type
    # argument a derived interface passes for it; overloaded signatures say nothing alone
    edges = build(
        tmp_path,
        {
            "types.ts": TYPES,
            "iface.ts": """
                import { Foo } from './types';
                export interface UnaryFunction<T, R> { (source: T): R; }
                export interface MakeFoo extends UnaryFunction<number, Foo> {}
                export interface Factory { (n: number): Foo; }
                export interface Two { (n: number): Foo; (s: string): number; }
                export function make(): MakeFoo { return null!; }
                export function use(f: Factory, two: Two) {
                  make()(1).run();
                  f(2).run();
                  two(1).run();
                }
            """,
        },
    )
    assert calls_in(edges, "iface.ts") == [
        (8, "iface.ts::use", "iface.ts::make"),
        (8, "iface.ts::use", "types.ts::Foo.run"),
        (9, "iface.ts::use", "types.ts::Foo.run"),
        (9, "iface.ts::use", "unresolved::f"),
        (10, "iface.ts::use", "unresolved::?.run"),
        (10, "iface.ts::use", "unresolved::two"),
    ]


def test_a_generic_callee_s_callback_parameter_takes_the_call_s_declared_type_argument(
    tmp_path: Path,
) -> None:
    # ``const ZodType: $constructor<ZodType> = $constructor("ZodType", (inst) => …)``: the
    # compiler infers T from the declared type, where the return type passes T; a callee
    # whose return type does not pass it leaves the parameter at its constraint
    edges = build(
        tmp_path,
        {
            "core.ts": """
                export interface Trait { _zod: Internals; }
                export interface Internals { run(): void; }
                export interface $constructor<T extends Trait, D = unknown> { name: string; }
                export function $constructor<T extends Trait, D = unknown>(
                  name: string, init: (inst: T, def: D) => void,
                ): $constructor<T, D> { return null!; }
                export function plain<T extends Trait>(init: (inst: T) => void): Trait {
                  return null!;
                }
            """,
            "schemas.ts": """
                import * as core from './core';
                export interface ZodType extends core.Trait { clone(): ZodType; check(): void; }
                export const ZodType: core.$constructor<ZodType> =
                  core.$constructor("ZodType", (inst, def) => {
                  inst.clone().check();
                  inst._zod.run();
                  inst.refine = () => inst.check();
                });
                export const Other: core.$constructor<ZodType> = core.plain((inst) => {
                  inst.check();
                });
            """,
        },
    )
    assert calls_in(edges, "schemas.ts") == [
        (4, "schemas.ts", "core.ts::$constructor"),
        (5, "schemas.ts", "schemas.ts::ZodType.check"),
        (5, "schemas.ts", "schemas.ts::ZodType.clone"),
        (6, "schemas.ts", "core.ts::Internals.run"),
        (7, "schemas.ts", "schemas.ts::ZodType.check"),
        (9, "schemas.ts", "core.ts::plain"),
        (10, "schemas.ts", "unresolved::Trait.check"),
    ]


def test_a_heritage_clause_naming_a_type_and_a_value_names_the_type(tmp_path: Path) -> None:
    # ``interface Base`` + ``const Base``: the name means the value in code, the interface
    # where a type is extended
    edges = build(
        tmp_path,
        {
            "app.ts": """
                export interface Base { check(): void; }
                export const Base = { kind: 'base' };
                export interface Derived extends Base { more(): void; }
                export function use(d: Derived) {
                  d.check();
                  d.more();
                }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (5, "app.ts::use", "app.ts::Base.check"),
        (6, "app.ts::use", "app.ts::Derived.more"),
    ]


def test_a_static_mixin_gives_a_class_the_members_it_copies(tmp_path: Path) -> None:
    # ``Object.assign(C.prototype, events, Other.prototype)`` at the top of a module: what
    # the sources hold is C's at run time; a method of C is no override of a mixed-in one
    edges = build(
        tmp_path,
        {
            "app.ts": """
                export const events = { on() {}, render() {} };
                class Other { other() {} }
                export class Widget { render() {} }
                Object.assign(Widget.prototype, events, Other.prototype);
                export function use(w: Widget) {
                  w.on();
                  w.other();
                  w.missing();
                }
            """,
            "lib.js": """
                const proto = { handle() {} };
                class App {}
                Object.assign(App.prototype, proto);
                function use() { new App().handle(); }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (4, "app.ts", "external::Object.assign"),
        (6, "app.ts::use", "app.ts::events.on"),
        (7, "app.ts::use", "app.ts::Other.other"),
        (8, "app.ts::use", "unresolved::Widget.missing"),
    ]
    assert calls_in(edges, "lib.js") == [
        (3, "lib.js", "external::Object.assign"),
        (4, "lib.js::use", "lib.js::App"),
        (4, "lib.js::use", "lib.js::proto.handle"),
    ]
    assert not [e for e in edges if str(e.kind) == "overrides"]


def test_a_function_returning_a_generic_class_type_gives_an_instance_with_its_arguments(
    tmp_path: Path,
) -> None:
    # ``make(): Box<Foo>`` (through ``Promise<…>`` too): ``make().item`` of ``item: T`` is a
    # Foo; a type argument astrag cannot type (``string``) leaves its parameter unknown, also
    # on a declared instance (``p: Pair<Foo, number>``), where it used to stop the resolver
    edges = build(
        tmp_path,
        {
            "app.ts": """
                export class Foo { run() {} }
                export class Box<T> { item: T; get(): T { return this.item; } }
                export class Pair<A, B> { a: A; b: B; }
                export function make(): Box<Foo> { return new Box(); }
                export async function load(): Promise<Box<Foo>> { return new Box(); }
                export function pair(): Pair<Foo, string> { return new Pair(); }
                export async function use(p: Pair<Foo, number>) {
                  make().item.run();
                  (await load()).get().run();
                  pair().a.run();
                  pair().b.run();
                  p.b.run();
                }
            """,
        },
    )
    assert calls_in(edges, "app.ts") == [
        (4, "app.ts::make", "app.ts::Box"),
        (5, "app.ts::load", "app.ts::Box"),
        (6, "app.ts::pair", "app.ts::Pair"),
        (8, "app.ts::use", "app.ts::Foo.run"),
        (8, "app.ts::use", "app.ts::make"),
        (9, "app.ts::use", "app.ts::Box.get"),
        (9, "app.ts::use", "app.ts::Foo.run"),
        (9, "app.ts::use", "app.ts::load"),
        (10, "app.ts::use", "app.ts::Foo.run"),
        (10, "app.ts::use", "app.ts::pair"),
        (11, "app.ts::use", "app.ts::pair"),
        (11, "app.ts::use", "unresolved::?.run"),
        (12, "app.ts::use", "unresolved::?.run"),
    ]
