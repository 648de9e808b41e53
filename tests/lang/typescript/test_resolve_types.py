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
    # ``type Options = { handler: (e) => void }``: the compiler's ``Options.handler``
    edges = build(
        tmp_path,
        {
            "types.ts": """
                import { Foo } from './foo';
                export type Options = {
                  id: string;
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
                }
            """,
        },
    )
    members = {
        e.target for e in edges if str(e.kind) == "contains" and e.source == "types.ts::Options"
    }
    assert members == {f"types.ts::Options.{m}" for m in ("id", "handler", "make")}
    assert calls_in(edges, "app.ts") == [
        (3, "app.ts::fire", "types.ts::Options.handler"),
        (3, "app.ts::fire", "types.ts::Options.make"),
        (4, "app.ts::fire", "foo.ts::Foo.run"),
        (4, "app.ts::fire", "types.ts::Options.make"),
        (5, "app.ts::fire", "unresolved::?.a"),  # an intersection declares no members here
    ]
