"""The TypeScript/JavaScript frontend on small inline snippets, with real tree-sitter grammars."""

from __future__ import annotations

from textwrap import dedent

from astrag.graph.facts import Binding, DefKind, FileFacts, Import, Param, Reference, RefKind
from astrag.lang.typescript.extract import extract


def ts(source: str, grammar: str = "typescript") -> FileFacts:
    return extract("src/x.ts", dedent(source).lstrip("\n").encode(), grammar)


def js(source: str) -> FileFacts:
    return extract("src/x.js", dedent(source).lstrip("\n").encode(), "javascript")


def defs(facts: FileFacts) -> dict[str, object]:
    return {d.qualname: d for d in facts.definitions}


def kinds(facts: FileFacts) -> list[tuple[str, DefKind]]:
    return [(d.qualname, d.kind) for d in facts.definitions]


def refs(facts: FileFacts, kind: RefKind) -> list[tuple[tuple[str, ...], str, int, int]]:
    return [(r.chain, r.scope, r.line, r.column) for r in facts.references if r.kind == kind]


# ------------------------------------------------------------------------------ definitions


def test_ts_classes_abstract_and_class_expressions() -> None:
    facts = ts(
        """
        export class A extends Base<T> implements I, ns.J {}
        export abstract class B extends mixin(A) {}
        const C = class Inner extends ns.Base {};
        """
    )
    assert kinds(facts) == [("A", DefKind.CLASS), ("B", DefKind.CLASS), ("C", DefKind.CLASS)]
    a, b, c = facts.definitions
    assert a.bases == (("Base",),)
    assert a.implements == (("I",), ("ns", "J"))
    assert a.signature == "class A extends Base<T> implements I, ns.J"
    assert a.exported and (a.start_line, a.end_line) == (1, 1)
    assert b.bases == (("mixin()",),) and b.modifiers == ("abstract",)
    assert c.bases == (("ns", "Base"),) and not c.exported
    assert c.signature == "const C = class Inner extends ns.Base"
    assert (c.start_line, c.start_byte) == (3, facts.definitions[2].start_byte)


def test_js_classes_and_class_expressions() -> None:
    facts = js(
        """
        class A extends B {}
        const C = class extends ns.D {};
        """
    )
    assert kinds(facts) == [("A", DefKind.CLASS), ("C", DefKind.CLASS)]
    assert facts.definitions[0].bases == (("B",),)
    assert facts.definitions[1].bases == (("ns", "D"),)
    assert facts.language == "javascript"


def test_ts_interfaces_enums_type_aliases() -> None:
    facts = ts(
        """
        export interface Foo<T> extends Bar, ns.Baz<T> {
          m(x: T): void;
          p: string;
          f: () => User;
          readonly q?: Foo<T>;
        }
        export enum Color { Red, Green }
        export type Id = string | number;
        """
    )
    assert kinds(facts) == [
        ("Foo", DefKind.INTERFACE),
        ("Foo.m", DefKind.METHOD),
        ("Foo.p", DefKind.FIELD),
        ("Foo.f", DefKind.METHOD),
        ("Foo.q", DefKind.FIELD),
        ("Color", DefKind.ENUM),
        ("Id", DefKind.TYPE_ALIAS),
    ]
    d = defs(facts)
    assert d["Foo"].signature == "interface Foo<T> extends Bar, ns.Baz<T>"
    assert d["Foo"].bases == (("Bar",), ("ns", "Baz"))
    assert d["Foo.f"].returns == ("User",) and d["Foo.f"].parent == "Foo"
    assert d["Foo.q"].type == ("Foo",) and d["Foo.q"].modifiers == ("readonly", "optional")
    assert d["Color"].signature == "enum Color"
    assert d["Id"].signature == "type Id = string | number"


def test_ts_functions_generators_and_overloads() -> None:
    facts = ts(
        """
        export function parse(a: string): Node;
        export function parse(a: Buffer): Node;
        export function parse(a: any): Node { return a; }
        function* gen() {}
        export async function load(): Promise<User> {}
        declare function lone(): void;
        """
    )
    mods = [(d.name, d.modifiers) for d in facts.definitions]
    assert mods == [
        ("parse", ("overload",)),
        ("parse", ("overload",)),
        ("parse", ()),
        ("gen", ("generator",)),
        ("load", ("async",)),
        ("lone", ("declare",)),
    ]
    assert facts.definitions[0].signature == "function parse(a: string): Node"
    assert facts.definitions[4].returns == ("User",)


def test_js_functions_and_generators() -> None:
    facts = js(
        """
        function a(x, y = 1, ...rest) {}
        function* b() {}
        """
    )
    a, b = facts.definitions
    assert a.params == (
        Param("x"),
        Param("y", has_default=True),
        Param("rest", kind="var_positional"),
    )
    assert b.modifiers == ("generator",) and b.kind == DefKind.FUNCTION


def test_ts_arrow_and_function_expressions_bound_to_names() -> None:
    facts = ts(
        """
        /** Adds. */
        export const add = async (a: number, b = 2): Promise<Sum> => a + b;
        let f = function (x: Foo) {}, g = () => 1;
        """
    )
    d = defs(facts)
    assert kinds(facts) == [
        ("add", DefKind.FUNCTION),
        ("f", DefKind.FUNCTION),
        ("g", DefKind.FUNCTION),
    ]
    assert d["add"].modifiers == ("async", "arrow")
    assert d["add"].signature == "const add = async (a: number, b = 2): Promise<Sum> =>"
    assert d["add"].returns == ("Sum",) and d["add"].docstring == "Adds." and d["add"].exported
    assert d["add"].start_line == 2
    assert d["f"].params == (Param("x", ("Foo",)),) and d["f"].modifiers == ()
    # the first declarator starts at ``let``; a later one at its own name
    assert d["f"].start_byte == facts.definitions[1].start_byte
    assert d["g"].signature == "g = () =>"


def test_js_arrow_and_function_expressions_bound_to_names() -> None:
    facts = js("const f = x => x;\nvar g = function () {};\n")
    assert kinds(facts) == [("f", DefKind.FUNCTION), ("g", DefKind.FUNCTION)]
    assert facts.definitions[0].params == (Param("x"),)
    assert facts.definitions[0].modifiers == ("arrow",)


def test_ts_methods_accessors_static_async_constructor() -> None:
    facts = ts(
        """
        abstract class S {
          constructor(a: string) {}
          static async make(): Promise<S> {}
          get name(): string { return ""; }
          set name(v: string) {}
          protected abstract run(): void;
          #hidden() {}
          *items() {}
        }
        """
    )
    got = [(d.name, d.modifiers, d.visibility, d.exported) for d in facts.definitions[1:]]
    assert got == [
        ("constructor", ("constructor",), "public", True),
        ("make", ("static", "async"), "public", True),
        ("name", ("getter",), "public", True),
        ("name", ("setter",), "public", True),
        ("run", ("abstract",), "protected", True),
        ("#hidden", (), "private", False),
        ("items", ("generator",), "public", True),
    ]
    make = defs(facts)["S.make"]
    assert make.signature == "static async make(): Promise<S>" and make.returns == ("S",)
    assert make.parent == "S" and make.kind == DefKind.METHOD


def test_js_methods_accessors_static_constructor() -> None:
    facts = js("class K { constructor(a) {} static s() {} get v() {} async *g() {} }\n")
    got = [(d.name, d.modifiers) for d in facts.definitions[1:]]
    assert got == [
        ("constructor", ("constructor",)),
        ("s", ("static",)),
        ("v", ("getter",)),
        ("g", ("async", "generator")),
    ]


def test_ts_fields_private_and_arrow_fields() -> None:
    facts = ts(
        """
        class K {
          private repo?: Repository<User> = makeRepo();
          #secret = 1;
          static readonly n: number;
          handle = async (e: Event) => {};
          @Input() label: string;
        }
        """
    )
    d = defs(facts)
    repo = d["K.repo"]
    assert (repo.kind, repo.visibility, repo.exported) == (DefKind.FIELD, "private", False)
    assert repo.type == ("Repository",) and repo.value == ("makeRepo()",)
    assert repo.signature == "private repo?: Repository<User>" and repo.modifiers == ("optional",)
    assert d["K.#secret"].visibility == "private"
    assert d["K.n"].modifiers == ("static", "readonly")
    assert d["K.handle"].kind == DefKind.METHOD
    assert d["K.handle"].modifiers == ("async", "arrow")
    assert d["K.handle"].params == (Param("e", ("Event",)),)
    assert d["K.label"].decorators == ("Input()",) and d["K.label"].signature == "label: string"


def test_js_fields_private_and_arrow_fields() -> None:
    facts = js("class K { #p = 1; static s = other; h = () => {} }\n")
    d = defs(facts)
    assert d["K.#p"].visibility == "private" and not d["K.#p"].exported
    assert d["K.s"].value == ("other",) and d["K.s"].modifiers == ("static",)
    assert d["K.h"].kind == DefKind.METHOD and d["K.h"].modifiers == ("arrow",)


def test_ts_constructor_parameter_properties() -> None:
    facts = ts(
        """
        @Injectable()
        export class UserService {
          constructor(
            private readonly auth: AuthService,
            @Inject(TOKEN) protected cfg: Config | undefined,
            public x = 1,
            plain: string,
          ) {}
        }
        """
    )
    fields = [d for d in facts.definitions if d.kind == DefKind.FIELD]
    assert [(f.name, f.parent, f.visibility, f.modifiers, f.type) for f in fields] == [
        ("auth", "UserService", "private", ("readonly",), ("AuthService",)),
        ("cfg", "UserService", "protected", (), ("Config",)),
        ("x", "UserService", "public", (), None),
    ]
    assert fields[0].signature == "private readonly auth: AuthService"
    assert fields[1].decorators == ("Inject(TOKEN)",)
    assert (fields[0].start_line, fields[0].exported) == (4, False)
    ctor = defs(facts)["UserService.constructor"]
    assert [p.name for p in ctor.params] == ["auth", "cfg", "x", "plain"]


def test_ts_this_assignments_declare_fields() -> None:
    facts = ts(
        """
        class K {
          declared = 1;
          constructor() {
            this.declared = 2;
            this.repo = new Repo();
            this.repo = other;
          }
          m() { this.cache = this.repo.load(); }
        }
        function notAMethod() { this.y = 1; }
        """
    )
    fields = [(d.qualname, d.value, d.start_line) for d in facts.definitions if d.kind == "field"]
    assert fields == [
        ("K.declared", None, 2),
        ("K.repo", ("Repo()",), 5),
        ("K.cache", ("this", "repo", "load()"), 8),
    ]


def test_js_this_assignments_declare_fields() -> None:
    facts = js("class K { constructor(a) { this.a = a; this.b = await x.y(); } }\n")
    fields = [(d.qualname, d.value) for d in facts.definitions if d.kind == "field"]
    assert fields == [("K.a", ("a",)), ("K.b", ("x", "y()"))]


def test_ts_module_variables_including_destructuring() -> None:
    facts = ts(
        """
        export const x: Foo = make();
        let { a, b: c } = obj, [d, ...e] = arr;
        declare const env: Env;
        function f() { const local = 1; }
        if (ok) { var inBlock = 1; }
        """
    )
    got = [(d.name, d.type, d.value, d.exported) for d in facts.definitions if d.kind == "variable"]
    assert got == [
        ("x", ("Foo",), ("make()",), True),
        ("a", None, None, False),
        ("c", None, None, False),
        ("d", None, None, False),
        ("e", None, None, False),
        ("env", ("Env",), None, False),
    ]
    d = defs(facts)
    assert d["x"].signature == "const x: Foo" and d["env"].modifiers == ("declare",)


def test_js_module_variables_including_destructuring() -> None:
    facts = js("var a = b.c, { d } = e;\n")
    got = [(d.name, d.value) for d in facts.definitions]
    assert got == [("a", ("b", "c")), ("d", None)]


def test_js_commonjs_exports() -> None:
    facts = js(
        """
        exports.f = function (a) {};
        module.exports.g = (a, b) => a;
        exports.K = class extends Base {};
        exports.v = other.thing;
        """
    )
    got = [(d.name, d.kind, d.exported) for d in facts.definitions]
    assert got == [
        ("f", DefKind.FUNCTION, True),
        ("g", DefKind.FUNCTION, True),
        ("K", DefKind.CLASS, True),
        ("v", DefKind.VARIABLE, True),
    ]
    assert facts.definitions[2].bases == (("Base",),)
    assert facts.definitions[3].value == ("other", "thing")


def test_js_functions_attached_to_a_top_level_definition() -> None:
    # express's style: the API is functions assigned onto an object or a prototype
    facts = js(
        """
        var send = require('send');
        var res = Object.create(null);
        res.send = function send(body) {
          return this.end(body);
        };
        function Router() {}
        Router.prototype.handle = (req) => req;
        other.thing = function () {};
        res.a.b = function () {};
        """
    )
    assert kinds(facts) == [
        ("res", DefKind.VARIABLE),
        ("res.send", DefKind.FUNCTION),
        ("Router", DefKind.FUNCTION),
        ("Router.handle", DefKind.FUNCTION),
    ]
    send = defs(facts)["res.send"]
    assert (send.parent, send.start_line, send.end_line) == ("res", 3, 5)
    assert send.signature == "res.send = function send(body)"
    # the body is its scope; the module-level `send` import is not shadowed by it
    assert refs(facts, RefKind.CALL) == [
        (("Object", "create"), "", 2, 18),
        (("this", "end"), "res.send", 4, 15),
    ]
    assert facts.imports[0].alias == "send"


def test_js_module_exports_assignments() -> None:
    assert js("module.exports = X;\n").exports == (("X", "="),)
    assert js("module.exports = { a, b: c };\n").exports == (("a", "a"), ("c", "b"))
    facts = js("module.exports = class Foo {};\n")
    assert kinds(facts) == [("Foo", DefKind.CLASS)] and facts.exports == (("Foo", "="),)
    facts = js("module.exports = function foo() {};\n")
    assert kinds(facts) == [("foo", DefKind.FUNCTION)] and facts.exports == (("foo", "="),)


def test_ts_namespaces_and_declare_module() -> None:
    facts = ts(
        """
        export namespace NS {
          export const z = 1;
          export function g() {}
          export class K { m() {} }
        }
        declare module 'lib' { export function h(): void; }
        namespace A.B { const q = 1; }
        """
    )
    assert kinds(facts) == [
        ("NS", DefKind.VARIABLE),
        ("NS.z", DefKind.VARIABLE),
        ("NS.g", DefKind.FUNCTION),
        ("NS.K", DefKind.CLASS),
        ("NS.K.m", DefKind.METHOD),
        ("lib", DefKind.VARIABLE),
        ("lib.h", DefKind.FUNCTION),
        ("A.B", DefKind.VARIABLE),
        ("A.B.q", DefKind.VARIABLE),
    ]
    d = defs(facts)
    assert d["NS"].modifiers == ("namespace",) and d["NS"].exported
    assert d["lib"].modifiers == ("declare", "namespace")


def test_ts_members_of_object_literals_bound_to_module_names_are_definitions() -> None:
    facts = ts(
        """
        const api = { get() {}, post: () => 1, nested: { put: function () {} }, n: 1 };
        enum E { A, B = 2 }
        let t: { m(): void; p: string };
        register({ anonymous() {} });
        function f() { const local = { inner: () => 2 }; }
        """
    )
    assert kinds(facts) == [
        ("api", DefKind.VARIABLE),
        ("api.get", DefKind.FUNCTION),
        ("api.post", DefKind.FUNCTION),
        ("api.nested", DefKind.VARIABLE),
        ("api.nested.put", DefKind.FUNCTION),
        ("E", DefKind.ENUM),
        ("t", DefKind.VARIABLE),
        ("f", DefKind.FUNCTION),
    ]
    this = [(b.scope, b.value) for b in facts.bindings if b.name == "this"]
    assert this == [("api.get", ("api",)), ("api.nested.put", ("api", "nested"))]


def test_ts_docstrings_and_decorators() -> None:
    facts = ts(
        """
        /**
         * Serves users.
         *
         * @public
         */
        @Injectable()
        @Other
        export class UserService {
          /** Finds one. */
          @Get(':id')
          async findOne(id: string): Promise<User> { return this.repo.find(); }

          /* not a doc */
          plain() {}
        }

        /** Detached. */

        function far() {}
        """
    )
    d = defs(facts)
    svc = d["UserService"]
    assert svc.docstring == "Serves users.\n\n@public"
    assert svc.decorators == ("Injectable()", "Other")
    assert (svc.start_line, svc.end_line) == (8, 15)
    find = d["UserService.findOne"]
    assert find.docstring == "Finds one." and find.decorators == ("Get(':id')",)
    assert find.signature == "async findOne(id: string): Promise<User>"
    assert d["UserService.plain"].docstring == ""
    assert d["far"].docstring == ""


def test_js_docstrings_and_decorators() -> None:
    facts = js(
        """
        /** Makes things. */
        export function make() {}
        class K {
          /** M. */
          @dec m() {}
        }
        """
    )
    d = defs(facts)
    assert d["make"].docstring == "Makes things." and d["make"].exported
    assert d["K.m"].docstring == "M." and d["K.m"].decorators == ("dec",)


def test_ts_default_exports_and_export_clauses() -> None:
    facts = ts("export default function () {}\nexport default class {}\n")
    assert [(d.name, d.kind, d.modifiers) for d in facts.definitions] == [
        ("default", DefKind.FUNCTION, ("default_export",)),
        ("default", DefKind.CLASS, ("default_export",)),
    ]
    assert ts("export default class Foo {}\n").definitions[0].modifiers == ("default_export",)
    assert ts("export default foo;\n").exports == (("foo", "default"),)
    assert ts("export { a as b, c };\n").exports == (("a", "b"), ("c", "c"))
    assert ts("export = bar;\n").exports == (("bar", "="),)


def test_js_default_exports_and_export_clauses() -> None:
    facts = js("export default () => 1;\nexport { x as default };\n")
    assert [(d.name, d.modifiers) for d in facts.definitions] == [
        ("default", ("default_export", "arrow"))
    ]
    assert facts.exports == (("x", "default"),)


def test_ts_principal_types() -> None:
    facts = ts(
        """
        let a: Foo; let b: ns.Foo; let c: Foo<T>; let d: Foo | null | undefined;
        let e: Readonly<Foo>; let f: Promise<Foo>; let g: Foo[]; let h: [Foo];
        let i: { x: Foo }; let j: () => Foo; let k: 'lit'; let l: Foo | Bar;
        let m: any; let n: string; let o: (Foo);
        let p: string | Foo; let q: Foo | any; let s: (() => Foo)[]; let t: string | 1;
        let u: () => Foo[]; let v: (() => Foo) | undefined;
        function r1(): Promise<Foo | null> {}
        function r2(): Observable<ns.Bar> {}
        function r3(): Readonly<Promise<Baz>> {}
        """
    )
    types = {d.name: d.type for d in facts.definitions if d.kind == "variable"}
    assert types == {
        "a": ("Foo",), "b": ("ns", "Foo"), "c": ("Foo",), "d": ("Foo",), "e": ("Foo",),
        "f": ("Promise",), "g": ("Foo", "[]"), "h": None, "i": None, "j": ("=>", "Foo"),
        "k": None, "l": ("Foo", "|", "Bar"), "m": None, "n": None, "o": ("Foo",),
        # a union member no repository type is: ``*``; a function type: ``=>`` and its return
        "p": ("*", "|", "Foo"), "q": None, "s": None, "t": None, "u": ("=>", "Foo", "[]"),
        "v": ("=>", "Foo"),
    }  # fmt: skip
    returns = {d.name: d.returns for d in facts.definitions if d.kind == "function"}
    # a Promise is what ``await`` unwraps (the chain drops the await); an Observable is not
    assert returns == {"r1": ("Foo",), "r2": ("Observable",), "r3": ("Baz",)}


# ------------------------------------------------------------------------------- references


def test_ts_calls() -> None:
    facts = ts(
        """
        class K extends B {
          m() {
            super(1, 2);
            super.m(...args);
            this.repo.find(a);
            a?.b.c();
            make().run();
            items[0].go();
            require('x');
            import('y');
          }
        }
        foo();
        """
    )
    calls = [(r.chain, r.scope, r.line, r.column, r.arg_count) for r in facts.references
             if r.kind == RefKind.CALL]  # fmt: skip
    assert calls == [
        (("super",), "K.m", 3, 5, 2),
        (("super", "m"), "K.m", 4, 11, -1),
        (("this", "repo", "find"), "K.m", 5, 15, 1),
        (("a", "b", "c"), "K.m", 6, 10, 0),
        (("make",), "K.m", 7, 5, 0),
        (("make()", "run"), "K.m", 7, 12, 0),
        (("items", "[k]", "go"), "K.m", 8, 14, 0),
        (("foo",), "", 13, 1, 0),
    ]


def test_js_calls() -> None:
    facts = js("function f() { a.b(1); new X.Y(); }\n")
    assert refs(facts, RefKind.CALL) == [(("a", "b"), "f", 1, 18)]
    assert [r.arg_count for r in facts.references if r.kind == RefKind.CALL] == [1]


def test_ts_decorators_are_calls_of_the_decorated_definition() -> None:
    facts = ts(
        """
        @Injectable()
        export class S {
          @Get(':id') find() {}
          @Input() name: string;
          @ns.Bare m() {}
        }
        """
    )
    assert refs(facts, RefKind.CALL) == [
        (("Injectable",), "S", 1, 2),
        (("Get",), "S.find", 3, 4),
        (("Input",), "S.name", 4, 4),
        (("ns", "Bare"), "S.m", 5, 7),
    ]


def test_js_decorators_are_calls_of_the_decorated_definition() -> None:
    facts = js("class K { @dec() m() {} }\n")
    assert refs(facts, RefKind.CALL) == [(("dec",), "K.m", 1, 12)]


def test_ts_new_inherit_implement() -> None:
    facts = ts(
        """
        class A extends ns.Base<T> implements I, Gen<U> {
          m() { return new Foo(a, b); }
        }
        interface J extends K, L<M> {}
        """
    )
    assert refs(facts, RefKind.NEW) == [(("Foo",), "A.m", 2, 20)]
    assert [r.arg_count for r in facts.references if r.kind == RefKind.NEW] == [2]
    assert refs(facts, RefKind.INHERIT) == [
        (("ns", "Base"), "A", 1, 20),
        (("K",), "J", 4, 21),
        (("L",), "J", 4, 24),
    ]
    assert refs(facts, RefKind.IMPLEMENT) == [(("I",), "A", 1, 39), (("Gen",), "A", 1, 42)]


def test_js_new_and_inherit() -> None:
    facts = js("class A extends mixin(B) { m() { new lib.Thing(); } }\n")
    assert refs(facts, RefKind.INHERIT) == [(("mixin()",), "A", 1, 17)]
    assert refs(facts, RefKind.NEW) == [(("lib", "Thing"), "A.m", 1, 42)]


def test_ts_type_references() -> None:
    facts = ts(
        """
        type Alias<T> = Map<Key, T> | ns.Val;
        class C<T> implements I<Arg> {
          f: Repo<User>;
          m<U>(a: U, b: T): Promise<Out> { return x as Cast; }
        }
        """
    )
    assert refs(facts, RefKind.TYPE) == [
        (("Map",), "Alias", 1, 17),
        (("Key",), "Alias", 1, 21),
        (("ns", "Val"), "Alias", 1, 34),
        (("Arg",), "C", 2, 25),
        (("Repo",), "C", 3, 6),
        (("User",), "C", 3, 11),
        (("Promise",), "C.m", 4, 21),
        (("Out",), "C.m", 4, 29),
        (("Cast",), "C.m", 4, 48),
    ]


def test_ts_reads() -> None:
    facts = ts(
        """
        import { helper } from './h';
        function f(p: P, { q }: Q) {
          const local = helper;
          use(p, q, local, CONFIG, CONFIG, console, undefined, this.x, a.b.c);
          for (const item of items) use(item);
          try {} catch (err) { use(err); }
          obj.prop = value;
          return { shorthand, later };
          var later = 1;
        }
        """
    )
    assert refs(facts, RefKind.READ) == [
        (("helper",), "f", 3, 17),
        (("CONFIG",), "f", 4, 20),
        (("a", "b", "c"), "f", 4, 68),
        (("items",), "f", 5, 22),
        (("value",), "f", 7, 14),
        (("shorthand",), "f", 8, 12),
    ]


def test_tsx_jsx_reads() -> None:
    facts = ts(
        """
        const el = <ui.Button onClick={handler}><Foo /><div /></ui.Button>;
        """,
        grammar="tsx",
    )
    assert refs(facts, RefKind.READ) == [
        (("ui", "Button"), "", 1, 16),
        (("handler",), "", 1, 32),
        (("Foo",), "", 1, 42),
    ]


def test_js_reads() -> None:
    facts = js(
        """
        function f(a, ...rest) {
          let [x, y] = pair;
          g(a, x, rest, other, other, window, module.exports);
          return <Comp prop={value} />;
        }
        """
    )
    assert refs(facts, RefKind.READ) == [
        (("pair",), "f", 2, 16),
        (("other",), "f", 3, 17),
        (("Comp",), "f", 4, 11),
        (("value",), "f", 4, 22),
    ]


# ---------------------------------------------------------------------------------- imports


def test_ts_imports() -> None:
    facts = ts(
        """
        import D, { a as b, type C } from './x';
        import * as ns from "y";
        import type { T } from 'z';
        import './side';
        import q = require('q');
        export * from './all';
        export * as nsx from './all2';
        export { u as v, w } from './u';
        function f() { const { r } = require('./r'); }
        """
    )
    assert facts.imports == (
        Import("./x", "default", "D", 1),
        Import("./x", "a", "b", 1),
        Import("./x", "C", "C", 1, type_only=True),
        Import("y", None, "ns", 2),
        Import("z", "T", "T", 3, type_only=True),
        Import("./side", None, "", 4),
        Import("q", None, "q", 5),
        Import("./all", "*", "", 6, reexport=True),
        Import("./all2", None, "nsx", 7, reexport=True),
        Import("./u", "u", "v", 8, reexport=True),
        Import("./u", "w", "w", 8, reexport=True),
        Import("./r", "r", "r", 9, scope="f"),
    )


def test_js_imports_commonjs() -> None:
    facts = js(
        """
        const x = require('./y'), { a, b: c } = require('./z');
        const foo = require('./w').foo;
        require('./side');
        async function f() { const m = await import('./m'); }
        """
    )
    assert facts.imports == (
        Import("./y", None, "x", 1),
        Import("./z", "a", "a", 1),
        Import("./z", "b", "c", 1),
        Import("./w", "foo", "foo", 2),
        Import("./side", None, "", 3),
        Import("./m", None, "m", 4, scope="f"),
    )
    assert facts.definitions[-1].name == "f"  # required names are imports, not variables
    assert len(facts.definitions) == 1
    assert refs(facts, RefKind.CALL) == []


# --------------------------------------------------------------------------------- bindings


def test_ts_bindings() -> None:
    facts = ts(
        """
        const top = 1;
        function f(a: Foo, { b }: Opts, c?: Bar | null) {
          const d: Baz = make();
          let e = new Thing();
          for (const k of ks) {}
          try {} catch (err) {}
          items.map((item) => item);
        }
        items.map((outside) => outside);
        """
    )
    assert facts.bindings == (
        Binding("f", "a", 2, ("Foo",)),
        Binding("f", "b", 2, None, ("Opts()", "b")),  # a member of an Opts
        Binding("f", "c", 2, ("Bar",)),
        Binding("f", "d", 3, ("Baz",), ("make()",)),
        Binding("f", "e", 4, None, ("Thing()",)),
        Binding("f", "k", 5, None, ("ks", "[i]"), (5, 5)),  # the loop is its block
        Binding("f", "err", 6),
        Binding("f", "item", 7, None, ("items", "[i]")),  # an array callback's element
        # a callback at module level binds in scope "" (module-level names are definitions)
        Binding("", "outside", 9, None, ("items", "[i]")),
    )


def test_ts_destructuring_and_reassignment_bind_values() -> None:
    facts = ts(
        """
        let counter = 0;
        function f(src: Src) {
          const { repo, cache: store, ...rest } = this.deps;
          let current = src.first();
          current = src.next();
          counter = 1;
        }
        """
    )
    assert facts.bindings == (
        Binding("f", "src", 2, ("Src",)),
        Binding("f", "repo", 3, None, ("this", "deps", "repo")),
        Binding("f", "store", 3, None, ("this", "deps", "cache")),
        Binding("f", "rest", 3),
        Binding("f", "current", 4, None, ("src", "first()")),
        Binding("f", "current", 5, None, ("src", "next()")),
    )


def test_js_bindings() -> None:
    facts = js(
        """
        class K {
          m(a = 1, ...rest) {
            var [x, { y }] = z;
            for (const key in obj) {}
            return (cb) => cb;
          }
        }
        """
    )
    assert [(b.scope, b.name, b.line) for b in facts.bindings] == [
        ("K.m", "a", 2),
        ("K.m", "rest", 2),
        ("K.m", "x", 3),
        ("K.m", "y", 3),
        ("K.m", "key", 4),
        ("K.m", "cb", 5),
    ]


# -------------------------------------------------------------------------- errors, columns


def test_ts_syntax_errors_are_counted_and_recovered() -> None:
    facts = ts("class A { m() { foo( } }\nfunction ok() {}\n")
    assert facts.errors >= 1
    assert "ok" in defs(facts)
    assert facts.lines == 2
    assert ts("").lines == 0 and ts("").errors == 0


def test_js_syntax_errors_are_counted_and_recovered() -> None:
    facts = js("function ok() {}\nconst = ;\n")
    assert facts.errors >= 1 and "ok" in defs(facts) and facts.lines == 2


def test_ts_columns_count_characters_not_bytes() -> None:
    facts = ts("const s = 'héllo'; go(s);\n")
    assert [(r.chain, r.column) for r in facts.references] == [(("go",), 20), (("s",), 23)]
    assert isinstance(facts.references[0], Reference)


def test_ts_return_statements_bind_return_of_the_named_function_only() -> None:
    facts = ts(
        """
        export const f = () => { return new Foo(); };
        class C {
          m() {
            items.map((x) => { return x.y; });
            return this.repo;
          }
        }
        """
    )
    assert [b for b in facts.bindings if b.name == "return"] == [
        Binding("f", "return", 1, None, ("Foo()",)),
        Binding("C.m", "return", 5, None, ("this", "repo")),
    ]


def test_ts_extraction_is_identical_on_every_run() -> None:
    source = """
        export class Live {
          private screen = false;
          constructor(private readonly repo: Repo) { this.nested = false; }
          start() { this.nested = true; this.screen = this.make(); this.repo.find(); }
          make() { return items.map((x) => x.y).filter(Boolean); }
        }
        """
    runs = {ts(source) for _ in range(20)}
    assert len(runs) == 1


def test_ts_casts_type_bindings_and_infer_names_are_not_type_references() -> None:
    facts = ts(
        """
        export type Unwrap<T> = T extends Promise<infer U> ? U : { [K in keyof T]: T[K] };
        function f() { const repo = getRepo() as MongoRepo<X>; }
        """
    )
    assert Binding("f", "repo", 2, ("MongoRepo",), ("getRepo()",)) in facts.bindings
    types = {r.chain for r in facts.references if r.kind == RefKind.TYPE}
    assert types == {("Promise",), ("MongoRepo",), ("X",)}


def test_ts_nested_calls_starting_at_one_byte_extract_identically_every_time() -> None:
    source = "export function f(x: J) { return x.getValue.bind(this)(); }\n"
    runs = {ts(source) for _ in range(30)}
    assert len(runs) == 1


def test_calls_without_the_arguments_their_shape_usually_has_are_read() -> None:
    # py-tree-sitter raises IndexError for a missing child; these dropped whole files
    facts = ts(
        """
        const a = require();
        async function f() { const b = await import(); return b; }
        """
    )
    assert kinds(facts) == [("a", DefKind.VARIABLE), ("f", DefKind.FUNCTION)]
    assert facts.imports == ()


def test_a_damaged_file_keeps_every_statement_that_parses_alone() -> None:
    # damaged_ts.txt: generic call signatures whose type parameters default to generic types (the
    # shape of a middleware framework's types.ts) send tree-sitter-typescript 0.23.2 into one
    # ERROR region to the end of the file
    from pathlib import Path

    from astrag.query.report import error_spans

    source = (Path(__file__).parent / "damaged_ts.txt").read_bytes()
    facts = extract("damaged.ts", source, "typescript")
    assert [(d.qualname, d.start_line) for d in facts.definitions] == [
        ("before", 1),
        ("After", 44),
        ("After.go", 45),
        ("last", 48),
    ]
    assert defs(facts)["After"].docstring == "After the damage."
    assert facts.errors > 0
    # the lines that could not be read: the interface, not the statements after it
    assert error_spans("damaged.ts", source) == [(3, 22), (24, 39), (41, 41)]


def test_an_alias_reads_its_value_and_is_marked_rebound_when_assigned_again() -> None:
    facts = ts(
        """
        export function fn(): void {}
        export const alias = fn;
        export let moving = lib.fn;
        var kept = fn;
        export const called = make(fn);
        export function reset(): void {
          moving = fn;
        }
        """
    )
    found = defs(facts)
    assert {q: found[q].modifiers for q in ("alias", "moving", "kept", "called")} == {
        "alias": ("alias",),
        "moving": ("alias", "rebound"),  # a ``let`` reset() assigns
        "kept": ("alias",),  # a ``var`` nothing assigns again
        "called": (),  # a call's result, not a name
    }
    assert refs(facts, RefKind.READ) == [
        (("fn",), "alias", 2, 22),
        (("lib", "fn"), "moving", 3, 25),
        (("fn",), "kept", 4, 12),
        (("fn",), "", 5, 28),
        (("fn",), "reset", 7, 12),
    ]


def test_an_express_alias_chain_is_read_by_each_alias() -> None:
    facts = js(
        """
        var res = module.exports = {};
        res.contentType =
        res.type = function contentType(type) {};
        res.set = res.header = function header() {};
        res.set = function set() {};
        """
    )
    marks = [(d.qualname, d.kind, d.modifiers) for d in facts.definitions if d.parent == "res"]
    assert marks == [
        ("res.contentType", DefKind.VARIABLE, ("alias",)),
        ("res.type", DefKind.FUNCTION, ()),
        ("res.set", DefKind.VARIABLE, ("alias", "rebound")),  # assigned again below
        ("res.header", DefKind.FUNCTION, ()),
        ("res.set", DefKind.FUNCTION, ()),
    ]
    assert refs(facts, RefKind.READ) == [
        (("res", "type"), "res.contentType", 3, 5),
        (("res", "header"), "res.set", 4, 15),
    ]
