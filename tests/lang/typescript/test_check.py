"""The checker on TypeScript: the globals a file's program declares outside the index (its
tsconfig's libs and type packages, the declaration files its files reference), and calls of
what a getter returns. Each beside the mistake still reported."""

from __future__ import annotations

import difflib
import textwrap
from pathlib import Path

import pytest

from astrag import api
from astrag.lang.typescript.check_globals import declared_globals
from tests.verify.checked import indexed, rows

FILES = {
    # a project cut as the checker meets it: each folder its own program, nothing installed
    "common/tsconfig.json": '{ "compilerOptions": { "types": [], "lib": ["es2023"] } }',
    "common/api.ts": """
        /// <reference path="../typings/thenable.d.ts" />
        export function run(x: number): number { return x; }
    """,
    "common/test/tsconfig.json": """
        { // tsconfig allows comments and trailing commas
          "compilerOptions": { "types": ["mocha"], "lib": ["es2023"], } }
    """,
    "browser/tsconfig.json": '{"compilerOptions": {"types": [], "lib": ["es2023", "WebWorker"]}}',
    "node/tsconfig.json": '{ "compilerOptions": { "types": ["node"] } }',
    "odd/tsconfig.json": '{ "compilerOptions": { "types": ["some-runner"] } }',
    "typed/tsconfig.json": '{ "compilerOptions": { "types": ["runner"] } }',
    "typed/node_modules/@types/runner/package.json": '{"types": "main.d.ts"}',
    "typed/node_modules/@types/runner/main.d.ts": """
        /// <reference path="more.d.ts" />
        declare function check(name: string): void;
        declare global { const harness: unknown }
        export {};
    """,
    "typed/node_modules/@types/runner/more.d.ts": "declare function probe(): void;",
    "typed/use.ts": "export const x = 1;",
    "events.ts": """
        export interface Event<T> { (listener: (e: T) => any): void }
        export class Emitter<T, K extends string = "a"> {
            private _event: Event<T> | undefined;
            get event(): Event<T> { return this._event!; }
            fire(e: T): void {}
            done(n: number, last: string | void): void {}
            named(key: K): void {}
            pick<U, V extends number>(u: U, v: V): void {}
        }
        export class Decl { getValue(): number { return 1; } }
    """,
    "provider.ts": "export default interface Provider { get(): number; }",
    "beautify/beautify.js": "export function beautify(text) { return text; }",
    "beautify/beautify.d.ts": """
        export interface BeautifyOptions { indent?: number }
        export declare function beautify(text: string, options?: BeautifyOptions): string;
    """,
    "menu.ts": """
        export interface MenuNode { id: string }
        export interface Compound extends MenuNode { children: MenuNode[] }
        export namespace Compound {
            export function is(node: unknown): node is Compound { return !!node; }
        }
        export interface Observable { update(): void }
        export namespace Observable {
            export function update(run: () => void): void { run(); }
        }
    """,
}

CALLS = """
    suite('x', () => setup(() => {}));
    clearImmediate(setImmediate(() => {}));
    export function f(port: DedicatedWorkerGlobalScope, t: Thenable<number>) { return port; }
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return indexed(tmp_path_factory.mktemp("tsenv"), FILES)


def test_a_test_runners_globals_come_with_the_type_package_the_tsconfig_names(
    repo: Path,
) -> None:
    # mocha's declarations are not installed: its well-known globals stand in for them
    assert rows(repo, CALLS, "common/test/use.test.ts") == [
        ("unknown-function", 2),
        ("unknown-type", 3),
        ("unknown-type", 3),
    ]


def test_a_worker_lib_and_nodes_globals_come_with_the_tsconfig_that_asks(repo: Path) -> None:
    # (setImmediate is on the checker's list of host globals everywhere)
    assert rows(repo, CALLS, "browser/use.ts") == [
        ("unknown-function", 1),
        ("unknown-function", 1),
        ("unknown-function", 2),
        ("unknown-type", 3),
    ]
    assert rows(repo, CALLS, "node/use.ts") == [
        ("unknown-function", 1),
        ("unknown-function", 1),
        ("unknown-type", 3),
        ("unknown-type", 3),
    ]


def test_an_installed_type_package_is_read(repo: Path) -> None:
    # a module's own top-level declarations are no globals; its ``declare global`` and the
    # script it references declare them
    code = "probe(); harness;\ncheck('a');\n"
    assert rows(repo, code, "typed/use.ts") == [("unknown-function", 2)]


def severities(repo: Path, code: str, path: str) -> list[tuple[str, int, str]]:
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path=path)
    return [(f.rule, f.line, f.severity) for f in report.findings]


def test_a_name_a_program_may_declare_where_it_cannot_be_read_is_a_warning(repo: Path) -> None:
    # common/api.ts references a declaration file that is not there (it declares Thenable
    # upstream), and an unknown type package is not installed: a name nothing readable
    # declares may still be declared there, so it is reported unverified, naming what
    bare = [("unknown-function", 1), ("unknown-function", 1), ("unknown-function", 2)]
    types = [("unknown-type", 3), ("unknown-type", 3)]
    for path in ("common/use.ts", "odd/use.ts"):
        assert severities(repo, CALLS, path) == [(*r, "warning") for r in bare + types]
    report = api.check(repo, textwrap.dedent(CALLS).lstrip("\n"), path="odd/use.ts")
    assert "unverified" in report.findings[0].message
    assert "type package 'some-runner'" in report.findings[0].message
    common = api.check(repo, textwrap.dedent(CALLS).lstrip("\n"), path="common/use.ts")
    assert "declaration file 'typings/thenable.d.ts'" in common.findings[0].message
    # what the program does read still declares names: no finding at all for those
    assert severities(repo, "structuredClone(1);\n", "odd/use.ts") == []
    # a program that names no type package, with nothing installed: the well-known ones,
    # and what none declares is an error
    assert severities(repo, CALLS, "plain/use.ts") == [(*r, "error") for r in types]


def test_a_call_of_a_getter_calls_what_it_returns(repo: Path) -> None:
    code = """
        import { Emitter } from "./events"
        export function use(e: Emitter<number>) {
            e.event((x) => x);
            e.fire(1, 2);
        }
    """
    assert rows(repo, code, "use.ts") == [("wrong-arguments", 4)]


def test_an_argument_whose_type_accepts_void_may_be_left_out(repo: Path) -> None:
    # a type parameter may be void (Emitter<void>), unless its constraint excludes it
    code = """
        import { Emitter } from "./events"
        export function use(e: Emitter<void>) {
            e.fire();
            e.done(1);
            e.named();
            e.pick();
            e.done();
        }
    """
    assert rows(repo, code, "use.ts") == [
        ("wrong-arguments", 5),
        ("wrong-arguments", 6),
        ("wrong-arguments", 7),
    ]


def test_a_namespace_merged_with_an_interface_is_not_the_interface(repo: Path) -> None:
    code = """
        import { Observable } from "./menu"
        export function use(o: Observable) {
            Observable.update(() => {});
            o.update(1);
        }
    """
    assert rows(repo, code, "use.ts") == [("wrong-arguments", 4)]


def test_a_default_exported_interface_is_what_a_default_import_names(repo: Path) -> None:
    """``export default interface Provider``: the import binds it, and its members are judged
    as any closed interface's are."""
    code = """
        import Provider from './provider';
        export function read(p: Provider): number { return p.get() + p.gte(); }
    """
    assert rows(repo, code, "read.ts") == [("unknown-member", 2)]


def test_a_namespaces_type_guard_narrows(repo: Path) -> None:
    code = """
        import { Compound, MenuNode } from "./menu"
        export function use(root: MenuNode, other: MenuNode) {
            if (Compound.is(root)) {
                return root.children.length + other.children.length;
            }
        }
    """
    assert rows(repo, code, "use.ts") == [("unknown-member", 4)]


def test_what_a_declaration_file_declares_globally() -> None:
    script = """
        declare var process: any;
        declare function clearImmediate(h: any): void;
        interface Thenable<T> { then(): void }
        declare namespace Mocha { }
        declare const a: number, b: string;
        declare module "timers" { global { function setImmediate(): void } }
        declare module "fs" { function readFile(): void }
    """
    assert declared_globals(textwrap.dedent(script)) == {
        "process", "clearImmediate", "Thenable", "Mocha", "a", "b", "setImmediate"
    }  # fmt: skip
    module = """
        import { X } from "x";
        export declare function local(): X;
        declare global { let suite: X; interface Window { x: 1 } }
        export as namespace Lib;
    """
    assert declared_globals(textwrap.dedent(module)) == {"suite", "Window", "Lib"}


def test_a_javascript_module_is_typed_by_the_declarations_beside_it(repo: Path) -> None:
    code = """
        import { beautify, BeautifyOptions } from "./beautify/beautify.js"
        import { BeautifyOption } from "./beautify/beautify.js"
    """
    assert rows(repo, code, "use.ts") == [("unknown-import", 2)]


def test_a_receiver_declared_again_without_a_type_may_be_the_other_one(repo: Path) -> None:
    # the loop's ``const node`` is another variable than the parameter, of another type
    code = """
        import { Decl, Emitter } from "./events"
        export function use(node: Emitter<number>, other: Emitter<number>, items: Decl[]) {
            for (const item of items) {
                const node = item;
                node.getValue();
            }
            let kept: Emitter<number>;
            kept = other;
            return kept.getValue();
        }
    """
    # an assignment keeps the declared type: ``kept`` is still an Emitter
    assert rows(repo, code, "use.ts") == [("unknown-member", 9)]


def test_a_call_of_a_parameter_is_counted_against_its_function_type(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("fntype"), {"a.ts": "export const a = 1;\n"})
    code = """
        type Listener<T> = (s: T) => void;
        export function on<T>(
            listener: (s: T, p: T) => void,
            counted: (n: number, s: string) => void,
            opt: (a?: number) => void,
            rest: (a: number, ...more: number[]) => void,
            alias: Listener<T>,
        ): void {
            listener(1 as T, 2 as T, 3 as T);
            listener(1 as T, 2 as T);
            listener(1 as T);
            counted(1);
            counted(1, "a");
            opt();
            opt(1, 2);
            rest(1, 2, 3);
            rest();
            alias(1 as T, 2 as T);
            const inner = (listener: () => void) => listener();
        }
    """
    # a bare type parameter may be void: listener(1) is no sure mistake; an alias is followed
    # to the function type it names (alias(a, b) against (s: T) => void); the arrow's own
    # listener is its own parameter
    assert rows(root, code, "b.ts") == [
        ("wrong-arguments", 9),
        ("wrong-arguments", 12),
        ("wrong-arguments", 15),
        ("wrong-arguments", 17),
        ("wrong-arguments", 18),
    ]
    reassigned = """
        export function on(listener: (s: number) => void): void {
            listener = (a: number, b?: number) => {};
            listener(1, 2);
        }
    """
    assert rows(root, reassigned, "c.ts") == []


def test_an_intersection_with_a_part_whose_members_are_unseen_is_open(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(
        tmp_path_factory.mktemp("isect"),
        {"opts.ts": "export interface Options {\n  typeName?: string;\n}\n"},
    )
    code = """
        import { Options } from "./opts"
        export function use<T>(
            plain: Options,
            written: { path?: string; now: () => number } & Options,
            generic: T & Options,
            fn: (() => void) & Options,
        ) {
            return [plain.path, written.path, written.now(), written.typeName,
                generic.extra, fn.extra];
        }
    """
    # the members of an object type written with no named type, of a type parameter, of a
    # function type are not all seen: only Options alone is closed
    assert rows(root, code, "use.ts") == [("unknown-member", 8)]


def test_a_function_taken_from_a_collection_is_counted_against_its_alias(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(
        tmp_path_factory.mktemp("fnalias"),
        {
            "types.ts": """
                export type Listener<T> = (state: T, prev: T) => void;
                export type Plain = (a: number) => void;
                export type Either = Plain | ((a: string, b: string) => void);
                export type Wide = (a: number, b: number) => void;
            """
        },
    )
    code = """
        import { Listener, Plain, Either } from "./types";
        export function make<T>(s: T, byName: Map<string, Plain>, record: Record<string, Plain>) {
            const listeners: Set<Listener<T>> = new Set();
            const plain: Plain[] = [];
            listeners.forEach((listener) => listener(s, s, s));
            for (const cb of plain) cb(1, 2);
            plain.forEach(function (each) { each(1, 2); });
            const got = byName.get("a");
            got!(1, 2);
            const indexed = record["a"];
            indexed(1, 2);
            const first = plain[0];
            first(1, 2);
        }
    """
    # the zustand shape: Set<Listener>.forEach's parameter; an element of an array, a map's
    # value by get or index
    assert rows(root, code, "use.ts") == [
        ("wrong-arguments", 5),
        ("wrong-arguments", 6),
        ("wrong-arguments", 7),
        ("wrong-arguments", 9),
        ("wrong-arguments", 11),
        ("wrong-arguments", 13),
    ]
    right = """
        import { Listener, Plain, Either, Wide } from "./types";
        export function make<T>(
            s: T, byName: Map<string, Plain>, either: Either[], other: Plain[]
        ) {
            const listeners: Set<Listener<T>> = new Set();
            listeners.forEach((listener) => listener(s, s));
            listeners.forEach((listener) => listener(s));
            byName.forEach((value) => value(1));
            for (const pair of byName) pair(1, 2);
            either.forEach((e) => e("a", "b"));
            other.forEach((cb) => cb(1));
            const wide: Wide[] = [];
            wide.forEach((cb) => cb(1, 2));
        }
    """
    # a type parameter may be void (listener(s)); iterating a map gives pairs; a union is not
    # counted; the two callbacks' cb (other's and wide's) are two declarations of one name
    # in the function's scope, so neither is sure
    assert rows(root, right, "use.ts") == []


def test_a_local_read_from_a_declared_member_is_declared(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(
        tmp_path_factory.mktemp("memberread"),
        {
            "store.ts": """
                export interface PersistStorage { getItem(name: string): string | null }
                export interface PersistOptions { name: string; storage?: PersistStorage }
            """
        },
    )
    code = """
        import { PersistOptions } from "./store";
        export function load(options: PersistOptions, loose) {
            const storage = options.storage;
            storage?.getItme("a");
            storage?.getItem("a");
            const guessed = loose.storage;
            guessed.getItme("a");
        }
    """
    # a read of a declared member is as declared as the chain itself (options.storage.getItme
    # is judged); a read off an untyped parameter is not
    assert rows(root, code, "use.ts") == [("unknown-member", 4)]


TWIN_CLASSES = """
    declare function test(name: string, body: () => void): void;
    class Baz { run(): number { return 1; } }
    test("plain", () => {
        class Bar {}
        const b = new Bar();
    });
    test("with a method", () => {
        class Bar { repeat(s: string): string { return s + s; } }
        function twice(bar: Bar, baz: Baz): string {
            baz.rnu();
            return bar.repeat("a");
        }
    });
"""


def test_a_class_its_scope_declares_twice_is_not_judged(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("twins"), {"bar.test.ts": TWIN_CLASSES})
    # each callback's own `class Bar`: `bar: Bar` in the second means the second, which the
    # index cannot tell from the first; Baz, declared once, is still judged
    assert rows(root, TWIN_CLASSES, "bar.test.ts") == [("unknown-member", 10)]


def test_a_class_declared_once_in_a_callback_is_judged(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    once = TWIN_CLASSES.replace("class Bar {}", "class Other {}").replace("new Bar", "new Other")
    root = indexed(tmp_path_factory.mktemp("once"), {"bar.test.ts": once})
    wrong = once.replace('bar.repeat("a")', 'bar.repaet("a")')
    assert rows(root, wrong, "bar.test.ts") == [("unknown-member", 10), ("unknown-member", 11)]


NESTED = {
    "keys.ts": """
        export const keys = (value: object): string[] => {
          return Object.entries(value).flatMap(([k, v]) =>
            keys(v, [k])
          )
        }
    """,
    "lagging.ts": """
        export const keys = (value: object): string[] => {
          return Object.entries(value).flatMap(([k, v]) =>
            keys(v, [k])
          )
        }
        const broken = [1, 2;
    """,
}


def _diff(root: Path, rel: str, old: str, new: str) -> str:
    text = (root / rel).read_text()
    changed = text.replace(old, new)
    return "".join(
        difflib.unified_diff(
            text.splitlines(keepends=True),
            changed.splitlines(keepends=True),
            f"a/{rel}",
            f"b/{rel}",
        )
    )


def test_a_slip_inside_a_statement_begun_above_is_the_changes(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("nested"), NESTED)
    # the unclosed `(` is on line 3; the region the parser cannot read begins on line 2,
    # which the change did not write. The old version parsed cleanly: the change did it
    report = api.check(root, _diff(root, "keys.ts", "keys(v, [k])", "keys(v, [k]"))
    assert [(f.rule, f.line) for f in report.findings] == [("syntax-error", 3)]


def test_a_region_begun_above_in_a_file_the_grammar_lagged_on_is_not_blamed(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("lagging"), NESTED)
    # the old version had damage of its own: the grammar may lack a construct there
    report = api.check(root, _diff(root, "lagging.ts", "keys(v, [k])", "keys(v, [k]"))
    assert [(f.rule, f.line) for f in report.findings] == []


def _barrel(damaged: str) -> dict[str, str]:
    return {
        "a.ts": "export function kept(): number { return 1; }",
        "b.ts": f"""
            // this module never defines gone
            export const other = 1;
            {damaged}
        """,
        "barrel.ts": 'export * from "./a";\nexport * from "./b";',
    }


def test_a_name_a_damaged_module_mentions_only_in_clean_statements_is_missing(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("cleanmention"), _barrel("export const x = [1, 2;"))
    code = 'import { kept, gone } from "./barrel";\n'
    # b.ts has a statement the parser cannot read, but it does not name `gone`: the comment
    # that does is read whole, so no definition of it was lost
    assert rows(root, code, "use.ts") == [("unknown-import", 1)]


def test_a_name_a_damaged_statement_mentions_may_be_defined_there(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("lostdef"), _barrel("export const gone = [1, 2;"))
    code = 'import { kept, gone } from "./barrel";\n'
    assert rows(root, code, "use.ts") == []


def test_a_call_of_a_collections_element_is_counted_against_its_alias(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(
        tmp_path_factory.mktemp("elementcall"),
        {"hooks.ts": "export type Listener = (a: number, b: string) => void;\n"},
    )
    code = """
        import { Listener } from "./hooks";
        export function run(xs: Listener[], byName: Record<string, Listener>) {
            xs[0](1, "a", 3);
            byName["k"](1);
        }
    """
    assert rows(root, code, "use.ts") == [("wrong-arguments", 3), ("wrong-arguments", 4)]


def test_a_call_of_an_element_of_an_untyped_collection_is_not_counted(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(
        tmp_path_factory.mktemp("elementopen"),
        {"hooks.ts": "export type Listener = (a: number, b: string) => void;\n"},
    )
    code = """
        import { Listener } from "./hooks";
        export function run(xs: Listener[], loose: any[], fs: Function[]) {
            xs[0](1, "a");
            loose[0](1, 2, 3);
            fs[0](1);
            let ys: Listener[] = xs;
            ys = [];
            ys[0](1, "a", 3);
        }
    """
    # the right count, an element of no declared function type, a local assigned again
    # (which value it holds at the call is not followed)
    assert rows(root, code, "use.ts") == []


def test_a_call_of_an_overloaded_function_is_counted_against_its_overloads(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(
        tmp_path_factory.mktemp("overloads"),
        {
            "options.ts": """
                export function flag(name: string, opts: { required: true }): boolean;
                export function flag(name: string, opts?: { x?: 1 }): boolean | undefined;
                export function flag(name: string, initial: boolean, opts?: { x?: 1 }): boolean;
                export function flag(name: string, base: { x?: 1 } | boolean, opts?: { x?: 1 }) {
                    return !!name;
                }
                export function plain(name: string, initial: boolean) {
                    return initial;
                }
            """,
            "index.ts": 'import * as Option from "./options";\nexport { Option };\n',
        },
    )
    # the implementation takes two or three, but no caller sees it: the signatures take one
    # to three (clipanion's Option.Boolean(descriptor))
    right = """
        import { Option } from "./index";
        import { flag } from "./options";
        export const a = Option.flag("-v");
        export const b = flag("-q", true);
        export const c = flag("-q", { required: true });
    """
    assert rows(root, right, "use.ts") == []
    wrong = """
        import { Option } from "./index";
        import { flag, plain } from "./options";
        export const a = Option.flag("-v", true, {}, 4);
        export const b = flag();
        export const c = plain("-q");
    """
    assert rows(root, wrong, "use.ts") == [
        ("wrong-arguments", 3),
        ("wrong-arguments", 4),
        ("wrong-arguments", 5),
    ]


def test_a_local_of_a_test_callback_shadows_a_namespace_import(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(
        tmp_path_factory.mktemp("shadow"),
        {"result.ts": "export function ok(v: number): number { return v; }\n"},
    )
    code = """
        import * as result from "./result";

        describe("result", () => {
          test("ok", () => {
            expect(result.ok(1)).toBe(1);
            result.okk(1);
          });
          test("shadow", () => {
            const result = { toString: () => "x" };
            expect(result.toString()).toBe("x");
          });
        });
    """
    # inside the second callback `result` is the local object, not the module (true-myth's
    # tests); in the first it is still the module, whose `okk` does not exist
    assert rows(root, code, "use.test.ts") == [("unknown-member", 6)]


MAYBE = {
    "maybe.ts": """
        class MaybeImpl<T extends {}> {
          value?: T;
          map(f: (t: T) => T): MaybeImpl<T> {
            return this;
          }
          and(other: MaybeImpl<T>): MaybeImpl<T> {
            return other;
          }
        }

        export interface Just<T extends {}> extends MaybeImpl<T> {
          isJust: true;
        }

        export interface Nothing<T extends {}> extends Omit<MaybeImpl<T>, 'value'> {
          isJust: false;
        }

        export type Maybe<T extends {}> = Just<T> | Nothing<T>;

        export interface Open {
          [key: string]: unknown;
        }

        export type Loose<T extends {}> = Just<T> | Open;
    """
}


def test_a_union_of_closed_interfaces_is_judged(tmp_path_factory: pytest.TempPathFactory) -> None:
    root = indexed(tmp_path_factory.mktemp("union"), MAYBE)
    code = """
        import type { Maybe, Loose } from './maybe';

        export function use(m: Maybe<number>, l: Loose<number>): void {
          m.map((x) => x);
          m.ands(m);
          m.and(m);
          l.ands(m);
          m.toString();
        }
    """
    # true-myth's ``Maybe<T> = Just<T> | Nothing<T>`` (``Nothing`` through ``Omit`` of the
    # class): a member none of them has is reported; one every member has, or a union with an
    # open member (an index signature), is not
    assert rows(root, code, "use.ts") == [("unknown-member", 5)]


def test_a_directory_import_goes_through_its_package_json(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    files = {
        "src/platform/package.json": '{"main": "./node", "browser": "./browser"}\n',
        "src/platform/node.ts": "export function depth(): number {\n  return 1;\n}\n",
        "src/platform/browser.ts": "export function depth(): number {\n  return 8;\n}\n",
        "src/other/readme.txt": "x\n",
    }
    root = indexed(tmp_path_factory.mktemp("pkgdir"), files)
    code = """
        import * as platform from '../platform';
        import { depth } from '../platform';
        import { nothing } from '../platform';
        import { x } from '../other';
        export const d = platform.depth() + depth();
    """
    # clipanion's ``sources/platform/`` names its entry in its package.json; a name the
    # entry lacks, and a directory with neither an index nor a package.json, are reported
    assert rows(root, code, "src/advanced/Cli.ts") == [
        ("unknown-import", 3),
        ("unknown-import", 4),
    ]


def test_a_parameter_typed_by_an_alias_that_may_be_void_may_be_left_out(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    cli = """
        type VoidIfEmpty<T> = keyof T extends never ? void : never;
        type Plain<T> = T;
        type TypeFn = (returns?: void) => number;

        export class Cli<Context extends object> {
          run(input: string[], context: VoidIfEmpty<Context>): number;
          run(input: string[], context: Plain<Context>): number;
          run(input: string[], context: any): number {
            return input.length;
          }

          go(input: string[], context: Plain<Context>): number {
            return input.length;
          }

          take(fn: TypeFn): number {
            return fn();
          }
        }
    """
    root = indexed(tmp_path_factory.mktemp("voidalias"), {"cli.ts": cli})
    code = """
        import { Cli } from './cli';

        export function use(cli: Cli<{}>): number {
          return cli.run([]) + cli.go([]) + cli.take();
        }
    """
    # clipanion's ``cli.run([])``: an overload whose context is ``VoidIfEmpty<...>`` takes one
    # argument; an alias that may not be ``void`` is still required, a function type taking
    # ``void`` too (nestjs-graphql's ``ReturnTypeFunc``)
    findings = api.check(root, textwrap.dedent(code).lstrip("\n"), path="use.ts").findings
    assert [(f.rule, f.line, f.message) for f in findings] == [
        ("wrong-arguments", 4, "Cli.go() takes 2 positional arguments, 1 given"),
        ("wrong-arguments", 4, "Cli.take() takes 1 positional argument, 0 given"),
    ]


RESULT = {
    "result.ts": """
        export class Ok<T> {
          constructor(readonly value: T) {}
          map(f: (t: T) => T): Ok<T> {
            return new Ok(f(this.value));
          }
          get(a: number): number {
            return a;
          }
        }

        export class Err<T> {
          constructor(readonly error: string) {}
          map(_f: (t: T) => T): Err<T> {
            return this;
          }
          get(a: number, b: number): number {
            return a + b;
          }
        }

        export type Result<T> = Ok<T> | Err<T>;
    """
}


def test_a_call_on_a_union_of_classes_is_counted_when_they_agree(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("unionargs"), RESULT)
    code = """
        import type { Result } from './result';

        export function use(r: Result<number>): void {
          r.map((x) => x);
          r.map();
          r.get(1);
          r.maps((x) => x);
        }
    """
    # every member's ``map`` takes one argument: a call with none is reported; ``get`` takes
    # one or two depending on the member, so the count is not known; ``maps``: none has it
    findings = api.check(root, textwrap.dedent(code).lstrip("\n"), path="use.ts").findings
    assert [(f.rule, f.line) for f in findings] == [
        ("wrong-arguments", 5),
        ("unknown-member", 7),
    ]


THENABLE = {
    "result.ts": """
        export class Ok {
          isOk(): boolean {
            return true;
          }
        }

        export class ResultAsync implements PromiseLike<Ok> {
          constructor(private readonly promise: Promise<Ok>) {}

          then<A, B>(
            onFulfilled?: (value: Ok) => A | PromiseLike<A>,
            onRejected?: (reason: unknown) => B | PromiseLike<B>,
          ): PromiseLike<A | B> {
            return this.promise.then(onFulfilled, onRejected);
          }

          map(): ResultAsync {
            return this;
          }
        }
    """
}


def test_an_awaited_thenable_is_what_its_then_resolves_to(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("thenable"), THENABLE)
    code = """
        import { ResultAsync } from './result';

        export async function use(ra: ResultAsync): Promise<boolean> {
          const teed = await ra;
          const same = ra.map();
          const awaitedCall = await ra.mapp();
          return teed.isOk() && same.isOk() && (await ra).isOk();
        }
    """
    # neverthrow's ``ResultAsync implements PromiseLike<Result>``: awaited, it is a Result
    # (the index records ``await ra`` as ``ra``); not awaited, it has no ``isOk``; ``await
    # ra.mapp()`` awaits the call, whose member is still judged
    findings = api.check(root, textwrap.dedent(code).lstrip("\n"), path="use.ts").findings
    assert [(f.rule, f.line, f.message) for f in findings] == [
        ("unknown-member", 6, "ResultAsync has no member 'mapp' (did you mean map?)"),
        ("unknown-member", 7, "ResultAsync has no member 'isOk'"),
    ]


def test_a_static_member_is_not_found_in_an_interface_the_class_implements(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("staticimpl"), THENABLE)
    code = """
        import { ResultAsync } from './result';

        export const a = ResultAsync.combines([]);
        export const b = ResultAsync.bind(null);
        export const c = new ResultAsync(Promise.reject()).then();
    """
    # neverthrow's ``ResultAsync.combine`` misspelt, on a class that implements
    # ``PromiseLike``: the interface gives instances ``then``, the class no static member;
    # what every function has (``bind``) is still there
    findings = api.check(root, textwrap.dedent(code).lstrip("\n"), path="use.ts").findings
    assert [(f.rule, f.line) for f in findings] == [("unknown-member", 3)]


def test_a_type_parameter_the_receiver_instantiates_is_not_void(repo: Path) -> None:
    # typescript-collections' ``this.list.add()`` on ``list: LinkedList<T>``: the compiler
    # lets a call leave out only an argument whose instantiated type is ``void``; a type
    # parameter (the class's own, through ``this``) or ``number`` is not
    code = """
        import { Emitter } from "./events"
        export class Holder<T> {
            private list: Emitter<T>;
            constructor(e: Emitter<T>) { this.list = e; }
            own(e: T): void {}
            go(t: T, numbers: Emitter<number>) {
                this.list.fire();
                this.own();
                numbers.fire();
                this.list.fire(t);
                this.own(t);
            }
        }
    """
    assert rows(repo, code, "use.ts") == [
        ("wrong-arguments", 7),
        ("wrong-arguments", 8),
        ("wrong-arguments", 9),
    ]


def test_a_receiver_instantiated_with_void_or_unseen_may_leave_it_out(repo: Path) -> None:
    code = """
        import { Emitter } from "./events"
        function make(): Emitter<void> { return new Emitter<void>(); }
        export class Holder {
            private voided = new Emitter<void>();
            go(either: Emitter<void | string>) {
                this.voided.fire();
                either.fire();
                const made = make();
                made.fire();
            }
        }
    """
    # ``void`` written (alone or in a union), or an instantiation the declaration does not
    # spell out (a function's result): the argument may be left out, as before
    assert rows(repo, code, "use.ts") == []


MERGED = {
    "opts.ts": """
        export interface Ext<P = string> {
          pedantic?: boolean;
          hooks?: P | null;
        }
        export interface Opts<P = string> extends Omit<Ext<P>, 'hooks'> {
          hooks?: number | null;
        }
    """,
    "schema.ts": """
        export default class Schema<T = any> {
          spec: number = 1;
          clone(): this { return this; }
          when(then: (schema: this) => Schema): this { return this; }
        }
        export default interface Schema<T = any> {
          validateAt(path: string): T;
        }
        export class Loose<T = any> {
          spec: number = 1;
        }
        export interface Loose<T = any> {
          [key: string]: unknown;
        }
        export class NumberSchema extends Schema<number> {
          min(n: number): this { return this; }
        }
        export class ObjectSchema extends Schema<object> {
          shape(): this { return this; }
        }
    """,
    "locale.ts": """
        export let mixed = { required: "x" };
        export default Object.assign(Object.create(null), { mixed });
    """,
    "plain.ts": "export const x = 1;",
}


def test_members_a_type_gets_through_a_subset_base_or_a_merged_interface_are_its_own(
    tmp_path: Path,
) -> None:
    root = indexed(tmp_path, MERGED)
    code = """
        import { Opts } from "./opts"
        import Schema from "./schema"
        export class Lexer {
          constructor(private options: Opts, private schema: Schema) {}
          run() {
            this.schema.validateAt("a");
            this.schema.validateAtt("a");
            const spec = this.schema.specs;
            this.options.pedantic = true;
            this.options.pedanticc = true;
            return this.options.pedantic || this.options.pedanticc || spec;
          }
        }
    """
    # marked's ``Opts extends Omit<Ext, ...>``: an attribute of ``Ext`` is a member, read or
    # written; yup's class merged with an interface of its name in its file: one closed type
    assert rows(root, code, "use.ts") == [
        ("unknown-member", 7),
        ("unknown-member", 8),
        ("unknown-member", 10),
        ("unknown-member", 11),
    ]


def test_this_rebound_or_an_open_merge_or_an_expression_default_is_not_judged(
    tmp_path: Path,
) -> None:
    root = indexed(tmp_path, MERGED)
    code = """
        import Schema, { Loose, ObjectSchema, NumberSchema } from "./schema"
        import locale from "./locale"
        export class Holder {
          constructor(private schema: Schema, private loose: Loose) {}
          run(n: NumberSchema) {
            const made = { test() { return this.schemaa; } };
            const fn = function (this: any) { return this.other(); };
            n.when((schema) => schema.min(1));
            return [made, fn, this.loose.anything, locale.mixed];
          }
        }
    """
    # ``this`` in an object literal's method or a ``function`` is not the class's; a merged
    # interface with an index signature opens the class; a callback parameter typed through
    # ``this`` may be any subclass (``min`` is ``NumberSchema``'s); ``export default`` of an
    # expression is a default export
    assert rows(root, code, "use.ts") == []
    missing = 'import thing from "./plain"\nexport const y = thing;\n'
    assert rows(root, missing, "use2.ts") == [("unknown-import", 1)]


def test_an_inferred_class_is_judged_against_its_whole_hierarchy(tmp_path: Path) -> None:
    root = indexed(tmp_path, MERGED)
    code = """
        import Schema from "./schema"
        function make(): Schema { return new Schema(); }
        export function run() {
          const s = make();
          s.min(1);
          return s.minn(1);
        }
    """
    # an inferred type may be the wrong class of its hierarchy (yup's callbacks typed
    # through ``this``): a member a subclass declares is not judged, one no class has is
    assert rows(root, code, "use.ts") == [("unknown-member", 6)]


def test_this_in_a_typed_object_literal_is_the_object(tmp_path: Path) -> None:
    files = {
        "quoting.ts": """
            export interface Quoting {
                weak(arg: string): string;
                strong(arg: string): string;
            }
        """
    }
    root = indexed(tmp_path, files)
    code = """
        import { Quoting } from "./quoting"
        export const Cmd: Quoting = {
            weak(arg) { return arg; },
            strong(arg): string {
                return this.weak(arg, 1);
            },
        };
    """
    # theia's shell quoting: an object literal bound to a typed name records its methods,
    # whose ``this`` is the object: still judged
    assert rows(root, code, "use.ts") == [("wrong-arguments", 5)]


PRIVATE = """
    export class Queue {
        #fn = (a: number, b: number): number => a + b;
        #m(a: number, b: number): number { return a + b; }
        #o(a: number, b?: number): number { return a; }
        #v(...args: number[]): number { return args.length; }
        #r(a: number, ...rest: number[]): number { return a; }
        run(): number {
            return CALL;
        }
    }
"""


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("this.#m(1)", [("wrong-arguments", 8)]),
        ("this.#m(1, 2, 3)", [("wrong-arguments", 8)]),
        ("this.#o()", [("wrong-arguments", 8)]),
        ("this.#r()", [("wrong-arguments", 8)]),
        ("this.#fn(1)", [("wrong-arguments", 8)]),
        ("this.#m(1, 2)", []),
        ("this.#o(1)", []),
        ("this.#o(1, 2)", []),
        ("this.#v()", []),
        ("this.#v(1, 2, 3)", []),
        ("this.#r(1, 2, 3)", []),
        ("this.#fn(1, 2)", []),
    ],
)
def test_a_private_method_is_judged_for_its_arguments(
    tmp_path_factory: pytest.TempPathFactory, call: str, expected: list[tuple[str, int]]
) -> None:
    # p-queue's ``this.#onEvent()``: an ECMAScript private member (``Queue.#m`` in the
    # index) is counted like a public one; ``...rest`` takes more, never fewer than the
    # parameters before it require
    files = {"tsconfig.json": "{}", "queue.ts": PRIVATE.replace("CALL", "this.#m(1, 2)")}
    root = indexed(tmp_path_factory.mktemp("private"), files)
    assert rows(root, PRIVATE.replace("CALL", call), "queue.ts") == expected
