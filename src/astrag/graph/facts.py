"""What one file says about itself, and the graph the resolver makes of all of them.

A language frontend turns ``(path, bytes)`` into a :class:`FileFacts` without looking at any
other file: definitions, references, imports and local bindings exactly as written. Nothing in a
``FileFacts`` is resolved; the resolver (``graph/resolve.py``) is the only place that knows how
names in one file reach definitions in another, and it produces :class:`Symbol` and :class:`Edge`.

Conventions shared by every stage:

* paths are repository-relative with ``/``;
* lines are 1-based and inclusive, columns are 1-based (counted in characters of the line);
* a *qualname* is the dotted path of a definition inside its file (``AuthService.login``; a
  nested function is ``outer.inner``); ``""`` is the module itself;
* a :data:`Chain` is an access path as written, one element per dotted part. An element that
  ends in ``()`` is the result of calling that part (``("make_app()", "run")`` for
  ``make_app().run``; ``new Foo()`` is written ``("Foo()",)``). The roots ``self``, ``cls``,
  ``this``, ``super()`` (Python ``super()``) and ``super`` (TS ``super.m``) keep their names; a
  receiver the frontend cannot express (a subscript, a literal, a parenthesised expression) is
  the root ``"?"``. The element ``[i]`` is "an element of" what precedes it, as iterating it
  gives (``for x in xs`` binds x to ``("xs", "[i]")``), ``[k]`` what indexing it gives
  (``xs[0]``, ``d[key]`` are ``("xs", "[k]")``, ``("d", "[k]")``: for a mapping, a value).
  The element ``(is:C)`` narrows what precedes it to an instance of C, ``(is:g:k)`` to the
  type function g's type predicate declares for its parameter k (the pseudo-binding ``(is:k)``
  of g), else leaves it as it is: ``if (isC(x)) x.m()`` is ``("x", "(is:isC:0)", "m")``;
  ``(in:m)`` to the members of a union that have m (``if ('m' in x)``), ``(eq:k:v)`` to
  those whose member k may hold the literal v (``if (x.k === 'v')``; a member declared with
  literal types is the pseudo-binding ``(lit:k)`` of its owner, typed by their values). The
  element ``<Q:i>`` names type parameter i of class Q of the same file (its constraint is the
  pseudo-binding ``<i>`` of Q; what Q passes to its k-th base as argument j, ``<k:j>``).
  ``(ctx:A,B)`` after a callee: the type arguments the declared type of the variable the
  call initialises passes (``const X: Box<Foo> = make(…)``), from which the callee's type
  parameters are inferred where its return type passes them (its pseudo-binding ``(k:j:ret)``
  typed ``(q,)``: its callback k's parameter j is typed by the type parameter its return type
  passes as argument q).
* a *principal type* is the one named type an annotation is about, as a chain
  (``Optional[Foo]`` -> ``("Foo",)``); a homogeneous collection ends in ``[]``
  (``List[Foo]``, ``Foo[]`` -> ``("Foo", "[]")``), a mapping to Foo values in ``{}``
  (``Dict[str, Foo]``, ``Map<string, Foo>``, ``Record<string, Foo>`` -> ``("Foo", "{}")``);
  a union of named types joins theirs with ``|`` (``A | ns.B`` -> ``("A", "|", "ns", "B")``),
  an intersection with ``&`` (``A & typeof B`` -> ``("A", "&", "typeof", "B")``: a member of
  any part); ``("typeof", ...)`` is the type of the value the rest of the chain names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from astrag.graph.slots import fast_init

Chain = tuple[str, ...]


class DefKind(StrEnum):
    MODULE = "module"
    CLASS = "class"
    INTERFACE = "interface"
    ENUM = "enum"
    TYPE_ALIAS = "type_alias"
    FUNCTION = "function"
    METHOD = "method"
    VARIABLE = "variable"
    FIELD = "field"


# definitions that have members, and definitions that can be called with arguments
CLASS_KINDS = frozenset({DefKind.CLASS, DefKind.INTERFACE, DefKind.ENUM})
FUNCTION_KINDS = frozenset({DefKind.FUNCTION, DefKind.METHOD})


# A variable or field whose value, as written, is another definition's name (``compat =
# real``, ``__repr__ = __str__``, ``export const alias = fn``, ``res.contentType = res.type =
# function…``) is an ALIAS of it: the room records the READ of that name with the alias as its
# scope (the read's edge starts at the alias: what it holds), and the names it reads are looked
# up where the alias is declared. REBOUND: the alias is assigned again in its file (or the name
# bound otherwise there), so what it holds when called is not certain.
ALIAS = "alias"
REBOUND = "rebound"


class RefKind(StrEnum):
    CALL = "call"  # a call expression; the chain's last element is the callee (decorators too)
    NEW = "new"  # TS/JS ``new X(...)``; chain is the class expression
    READ = "read"  # a name or attribute chain used as a value (not called, not assigned to)
    TYPE = "type"  # a named type inside an annotation / type expression
    INHERIT = "inherit"  # a base class (Python) or ``extends`` (TS/JS classes and interfaces)
    IMPLEMENT = "implement"  # TS ``implements``


class Resolution(StrEnum):
    """How an edge's target was found: what a reader may trust it for."""

    RESOLVED = "resolved"  # as a compiler binds it (scopes, imports, types): the default
    NAME = "name"  # matched by name only (name-level languages): a likely target, not proof


class EdgeKind(StrEnum):
    CONTAINS = "contains"
    IMPORTS = "imports"
    CALLS = "calls"
    REFERENCES = "references"
    INHERITS = "inherits"
    IMPLEMENTS = "implements"
    OVERRIDES = "overrides"


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    annotation: Chain | None = None  # principal named type of the annotation, if any
    has_default: bool = False
    # positional | positional_only | keyword_only | var_positional | var_keyword
    kind: str = "positional"


@dataclass(frozen=True, slots=True)
class Definition:
    kind: DefKind
    name: str
    qualname: str
    parent: str  # qualname of the enclosing definition, "" for the module
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int
    signature: str = ""  # the header without the body, whitespace collapsed
    docstring: str = ""
    decorators: tuple[str, ...] = ()  # decorator expressions as written, without "@"
    exported: bool = True  # TS/JS: has an export; Python: name not starting with "_"
    visibility: str = "public"  # public | protected | private
    # any of: static, classmethod, async, abstract, readonly, getter, setter, constructor,
    # overload, default_export, generator, arrow, declare, optional, namespace; a variable or
    # field: ALIAS, REBOUND (see there)
    modifiers: tuple[str, ...] = ()
    bases: tuple[Chain, ...] = ()  # classes/interfaces: what it extends, in source order
    implements: tuple[Chain, ...] = ()  # TS classes: what it implements
    params: tuple[Param, ...] = ()  # functions/methods, including self/cls
    returns: Chain | None = None  # principal type of the return annotation (Promise<X> -> X)
    type: Chain | None = None  # variables/fields: principal declared type
    value: Chain | None = None  # variables/fields: assigned value when it is a chain


@dataclass(frozen=True, slots=True)
class Reference:
    kind: RefKind
    chain: Chain
    scope: str  # qualname of the innermost enclosing definition, "" for module level
    line: int  # position of the chain's last element (the callee's name for calls)
    column: int
    arg_count: int = -1  # calls: number of positional arguments; -1 if unknown (*args, spread)
    keywords: tuple[str, ...] = ()  # calls: keyword argument names (Python)
    # calls: each positional argument as a chain when it is one (a name, a member chain, a
    # call; a literal as its type called, ``("String()",)``), else None; empty when the
    # language does not record them. What a language choosing overloads by argument type reads.
    args: tuple[Chain | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Import:
    """One name bound by an import statement.

    Python ``import a.b.c`` binds ``a``: module="a.b.c", name=None, alias="a".
    ``import a.b as x``: module="a.b", name=None, alias="x". ``from .m import f as g``:
    module="m", level=1, name="f", alias="g". ``from m import *``: name="*", alias="".
    TS ``import X from './x'``: name="default", alias="X"; ``import * as ns``: name=None;
    ``export * from './x'``: name="*", alias="", reexport=True; ``export {a as b} from``:
    name="a", alias="b", reexport=True; ``const {a: c} = require('./x')``: name="a", alias="c".
    A side-effect import (``import './polyfill'``) has name=None and alias="".
    """

    module: str
    name: str | None
    alias: str
    line: int
    level: int = 0
    scope: str = ""
    reexport: bool = False
    type_only: bool = False


@dataclass(frozen=True, slots=True)
class Binding:
    """A local name bound inside a function/method: parameter, assignment, loop variable, ...

    Every local binding is recorded, typed or not, so that a local name shadows a module-level
    one during resolution. The name ``return`` (a keyword, so never a real name) records the
    value of a ``return <chain>`` statement of the function ``scope``: what an unannotated
    function returns. The name ``(k:j)`` records the declared type of parameter j of the
    function the function ``scope`` takes as its argument k (TS ``init: (source: Observable<T>,
    subscriber: Subscriber<R>) => void`` as argument 0 gives ``(0:1)`` typed ``Subscriber``);
    the chain element ``(k:j)`` after a callee reads it, so a callback's untyped parameter
    ``operate((source, subscriber) => …)`` is bound to ``("operate", "(0:1)")``. The element
    ``(p:j)`` after a function reads the declared type of its own parameter j: an untyped
    parameter of a member of an object literal read as a declared type (``const p: Process =
    { init(injector) {…} }``) is bound to ``("p", "init", "(p:0)")``. The pseudo-binding
    ``(r:j)`` of a function is the declared type of member j of its ``tuple[...]`` return:
    ``a, b = f()`` binds b to ``("f", "(r:1)")``; ``(r:name)`` that of member ``name`` of an
    object type it returns (TS ``f(): { ctx: Context }``: ``f().ctx`` is a Context). A
    parameter typed by an object type written inline (TS ``opts: { headers: Headers }``) has
    the type ``("{:N}",)`` (N its offset in the file), whose member ``name`` is the
    pseudo-binding ``({:N}.name)`` of the same scope. ``(x<j>)`` is the declared type
    argument j of local x (``b: Box<Foo>`` gives ``(b<0>)`` typed Foo), or of field x when
    the scope is its class. ``(call)`` of an interface is the return type of its one call
    signature (``interface Factory { (n: number): Foo }``): what calling an instance gives.
    ``(return<j>)`` of a function is the type argument j of the generic class type it is
    declared to return (``make(): Box<Foo>`` gives ``(return<0>)`` typed Foo).
    ``(mixin)`` of a class is valued by a source a static mixin copies onto it (TS
    ``Object.assign(C.prototype, m)``): m's members are C's.

    ``block`` is the first and last line of the block a block-scoped local is declared in
    when that block is not the whole of ``scope`` (TS ``const``/``let`` in a loop's body or
    in an anonymous callback inside the named function ``scope``): the name means the local
    only on those lines, and an outer declaration of it elsewhere in ``scope``.
    """

    scope: str
    name: str
    line: int
    type: Chain | None = None
    value: Chain | None = None
    block: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class FileFacts:
    path: str
    language: str  # python | typescript | javascript
    lines: int
    errors: int  # ERROR and MISSING nodes in the syntax tree
    definitions: tuple[Definition, ...] = ()
    references: tuple[Reference, ...] = ()
    imports: tuple[Import, ...] = ()
    bindings: tuple[Binding, ...] = ()
    # (local name, exported name): TS/JS ``export { a as b }``, ``export default a`` -> ("a",
    # "default"), ``export = a`` / ``module.exports = a`` -> ("a", "=")
    exports: tuple[tuple[str, str], ...] = ()
    docstring: str = ""
    all_names: tuple[str, ...] | None = None  # Python ``__all__`` when it is a static list


# ---------------------------------------------------------------------------- resolved graph


class PlaceholderKind(StrEnum):
    EXTERNAL = "external"  # from a package outside the repository, or a builtin
    UNRESOLVED = "unresolved"  # could not be resolved statically


@dataclass(frozen=True, slots=True)
class Symbol:
    id: str  # "path::Qualified.Name"; a module's id is its path; placeholders "external::x.y"
    kind: str  # a DefKind value, or a PlaceholderKind value
    name: str
    qualname: str
    path: str  # "" for placeholders
    start_line: int = 0
    end_line: int = 0
    parent: str = ""  # id of the containing symbol, "" for modules and placeholders
    language: str = ""
    signature: str = ""
    docstring: str = ""
    decorators: tuple[str, ...] = ()
    exported: bool = True
    visibility: str = "public"
    modifiers: tuple[str, ...] = ()


# built by the million during an index run: __init__ fills the slots directly (graph/slots.py)
for _cls in (Param, Definition, Reference, Import, Binding, FileFacts, Symbol):
    fast_init(_cls)


class Edge(NamedTuple):
    """A typed edge. A named tuple, not a dataclass: an index holds hundreds of thousands, and
    building or shipping a tuple between processes costs a fraction of a dataclass."""

    source: str
    target: str
    kind: EdgeKind
    path: str = ""  # file where the edge occurs (the source's file)
    line: int = 0  # where in that file; 0 for structural edges without a site
    column: int = 0
    resolution: Resolution = Resolution.RESOLVED


@dataclass(slots=True)
class ResolvedFile:
    """The resolver's output for one file: its symbols, and the edges that start in it."""

    path: str
    symbols: list[Symbol] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    depends_on: set[str] = field(default_factory=set)  # other files consulted while resolving
