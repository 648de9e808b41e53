"""What the resolver infers beyond the names as declared: the type-level rules.

``graph/resolve.py`` walks chains through scopes, imports and members; this mixin holds the
rules that give a value a more precise type than its declaration names, each one a compiler's
inference the frontends make visible as plain facts (``graph/facts.py``):

* narrowing elements in a chain: ``(is:C)``, ``(is:guard:k)``, ``(in:key)``, ``(eq:key:v)``
  (a discriminant: the union members whose ``key`` may hold ``v``), and ``(new:k:C)``
  after a call of a function returning an instance of its class argument k;
* generic classes: a member typed by a type parameter takes the type argument the receiver's
  class passes through its bases (``<Q:i>``, ``<k:j>``), else the parameter's constraint;
* type aliases, and names declared as a type and a value (the type meaning in annotations);
* unions (``("union", values)``) and the built-in collections' own methods;
* contextual parameter types: the pseudo-bindings ``(k:j)``, ``(p:j)``, ``(r:j)``/``(r:name)``,
  ``(is:k)``, ``(k:fn)`` read through functions, classes, aliases, interfaces and variables;
* the iteration protocol of repository classes (the language names its methods).

Like the rest of the resolver it knows no language: what differs it asks the file's
``LanguageSemantics``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from astrag.graph.facts import CLASS_KINDS, FUNCTION_KINDS, Chain, Definition, DefKind
from astrag.graph.tables import FileTables, Site
from astrag.graph.values import ClassKey, Value

if TYPE_CHECKING:
    from astrag.graph.resolve import Resolver

COLLECTIONS = frozenset({"map", "elems"})  # values standing for a built-in collection


class Inference:
    """The resolver's type-level rules (a mixin of ``Resolver``: ``self`` is the resolver)."""

    def refined(
        self: Resolver, site: Site, denot: Value | None, value: Value | None, element: str
    ) -> Value | None:
        """The value a narrowing element (``(is:...)``, ``(in:...)``, ``(new:...)``) makes of
        ``value``; ``denot`` is what the element before it denotes (the function a ``(new:``
        element's call called)."""
        if element.startswith("(is:"):
            return self._narrowed(site, value, element)
        if element.startswith("(in:"):  # the union's members that have the key
            if value is not None and value[0] == "union":
                key = element[4:-1]
                return union(v for v in value[1] if self.member(v, key) is not None)
            return value
        if element.startswith("(eq:"):  # a discriminant: the members whose key may hold it
            if value is not None and value[0] == "union":
                key, _, literal = element[4:-1].partition(":")
                return union(v for v in value[1] if self._may_hold(v, key, literal))
            return value
        if element.startswith("(ctx:"):  # the type arguments of the call's declared type
            if denot is None or denot[0] != "sym":
                return value
            return ("ctx", denot, site.t.path, site.scope, site.line, element[5:-1])
        return self._constructed(site, denot, value, element)

    def _may_hold(self: Resolver, value: Value, key: str, literal: str) -> bool:
        """Whether member ``key`` of ``value`` may hold ``literal``: not when it is declared
        with literal types that do not include it (the pseudo-binding ``(lit:key)`` of the
        declaring class, facts.py)."""
        found = self.member(value, key)
        d = self.definition(found) if found is not None and found[0] == "sym" else None
        if d is not None:
            path, owner = found[1], d.parent
        elif value[0] == "inst":  # a literal-typed member that is no definition (an alias's)
            path, owner = value[1], value[2]
        else:
            return True
        bound = self.table(path).bindings.get(owner, {}).get(f"(lit:{key})")
        return not bound or literal in (bound[0].type or ())

    def _callback_param(self: Resolver, value: Value, name: str) -> Value | None:
        """``(k:j)``: the declared type of parameter j of the function that ``value`` (a
        function, or a class through its constructor) takes as its argument k; ``(p:j)``: the
        declared type of its own parameter j; see facts.py. A type (an alias of a function
        type, an interface with a call signature) answers from its own pseudo-bindings, a
        variable or field from its declared type's."""
        key = ("cbp", value, name)
        return self.memoised(key, lambda: self._callback_param_uncached(value, name))  # type: ignore[return-value]

    def _callback_param_uncached(self: Resolver, value: Value, name: str) -> Value | None:
        d = self._def(value)
        if d is None:
            return None
        t = self.table(value[1])
        if d.kind not in FUNCTION_KINDS:
            bound = t.bindings.get(value[2], {}).get(name, ())
            if bound:  # a function type's alias, an interface's call signature
                typed = self._binding_value(t, value[2], bound[0])
                return ("local", typed) if typed is not None else None
            callback = callback_position(name)
            if callback is not None and d.kind in CLASS_KINDS:
                found = self._callback_of_signature(t, value[2], *callback)
                if found is not None:
                    return found
            if d.kind in (DefKind.VARIABLE, DefKind.FIELD, DefKind.TYPE_ALIAS) and d.type:
                declared, _ = self.walk(Site(t, d.parent, d.start_line), d.type)
                return self._callback_param(declared, name) if declared else None
            if not self.is_class(value):
                return None
            ctor_name = t.sem.constructor
            constructor = self.class_member(value[1], value[2], ctor_name)
            if constructor is None or constructor[0] != "sym":
                return None
            value = constructor
            d = self._def(value)
            if d is None or d.kind not in FUNCTION_KINDS:
                return None
            t = self.table(value[1])
        if name.startswith("(p:"):
            j = int(name[3:-1])
            annotation = d.params[j].annotation if j < len(d.params) else None
            typed = self.eval_type(Site(t, value[2], d.start_line), annotation)
            return ("local", typed) if typed is not None else None
        bound = t.bindings.get(value[2], {}).get(name, ())
        if bound:
            typed = self._binding_value(t, value[2], bound[0])
            return ("local", typed) if typed is not None else None
        callback = callback_position(name)
        if callback is None:
            return None
        # a parameter typed by a named function type (``use(mw: MiddlewareHandler)``, ``...h:
        # H[]`` with ``H extends Handler``): that type's parameter j
        k, j = callback
        params = d.params
        if k >= len(params) and params and params[-1].kind == "var_positional":
            k = len(params) - 1
        param = params[k] if k < len(params) else None
        annotation = param.annotation if param is not None else None
        if annotation and param.kind == "var_positional" and annotation[-1] == "[]":
            annotation = annotation[:-1]
        return self._callback_of_type(Site(t, value[2], d.start_line), annotation, j)

    def _inferred_parameter(self: Resolver, ctx: Value, name: str) -> Value | None:
        """``(k:j)`` of a call whose declared type passes type arguments (``("ctx", callee,
        path, scope, line, "ZodType")``): the argument the return type passes for the type
        parameter the callee's callback parameter is typed by (its pseudo-binding ``(k:j:ret)``,
        facts.py), as the compiler infers it from the contextual type; else the declared type."""
        fn = ctx[1]
        ret = self.table(fn[1]).bindings.get(fn[2], {}).get(f"{name[:-1]}:ret)")
        if ret and ret[0].type:
            q = int(ret[0].type[0])
            args = ctx[5].split(",")
            if q < len(args) and args[q]:
                site = Site(self.table(ctx[2]), ctx[3], ctx[4])
                typed = self.eval_type(site, tuple(args[q].split(".")))
                if typed is not None:
                    return ("local", typed)
        return self._callback_param(fn, name)

    def _callback_of_signature(
        self: Resolver, t: FileTables, scope: str, k: int, j: int
    ) -> Value | None:
        """``(k:j)`` of an interface's call signature whose parameter k has a named function
        type (its pseudo-binding ``(k:fn)``, or ``(*r:fn)`` for a rest parameter from r on)."""
        bound = t.bindings.get(scope, {})
        typed = bound.get(f"({k}:fn)")
        if not typed:
            rest = [b for name, b in bound.items() if name.startswith("(*")]
            typed = next((b for b in rest if int(b[0].name[2:-4]) <= k), None)
        if not typed:
            return None
        d = t.defs.get(scope)
        line = d.start_line if d is not None else typed[0].line
        return self._callback_of_type(Site(t, scope, line), typed[0].type, j)

    def _callback_of_type(
        self: Resolver, site: Site, annotation: Chain | None, j: int
    ) -> Value | None:
        if not annotation or annotation[0][:1] == "<" or annotation[-1] in ("[]", "{}"):
            return None
        declared, _ = self.walk(site, annotation)
        if declared is None or declared[0] != "sym":
            return None
        return self._callback_param(declared, f"(p:{j})")

    def _narrowed(self: Resolver, site: Site, value: Value | None, element: str) -> Value | None:
        """``(is:C)``: an instance of class C (a subject already typed keeps its type where C
        is outside the repository); ``(is:g:k)``: the type guard g's predicate type for its
        parameter k, or the subject's own value where g declares none."""
        head, sep, tail = element[4:-1].rpartition(":")
        if sep:  # a guard call: head is the guard, tail the argument's position
            guard, _ = self.walk(site, tuple(head.split(".")))
            if guard is None or guard[0] != "sym":
                return value
            typed = self._callback_param(guard, f"(is:{tail})")
            return typed[1] if typed is not None else value
        cls, _ = self.walk(site, tuple(tail.split(".")))
        if cls is not None and cls[0] == "sym" and self.is_class(cls):
            return ("inst", cls[1], cls[2])
        if cls is not None and cls[0] == "ext" and value is None:
            return self._call(cls)
        return value

    def _in_parts(
        self: Resolver, value: Value, find: Callable[[Value], Value | None]
    ) -> Value | None:
        """What ``find`` gives on the parts of an intersection (a member, a call's value):
        the first a repository definition answers, else the first answer (a part outside the
        repository, such as ``Omit<ExternalBuilder, 'String'>``, declares every name)."""
        outside = None
        for part in value[1]:
            found = find(part)
            if found is not None:
                if found[0] != "ext":
                    return found
                outside = outside or found
        return outside

    def _called_instance(self: Resolver, inst: Value) -> Value | None:
        """What calling an instance gives: the return type of its type's call signature
        (``interface UnaryFunction<T, R> { (source: T): R }``, the pseudo-binding ``(call)``),
        inherited ones included; a type parameter takes the argument the instance's type
        passes for it (``OperatorFunction<T, R> extends UnaryFunction<Observable<T>,
        Observable<R>>``: calling one gives an Observable)."""
        mro, _ = self.mro(inst[1], inst[2])
        for cpath, cqual in mro:
            t = self.tables[cpath]
            bound = t.bindings.get(cqual, {}).get("(call)")
            if not bound:
                continue
            declared = bound[0].type
            if declared and declared[0][:1] == "<":
                return self._typed_by_parameter(inst, cpath, declared)
            return self._binding_value(t, cqual, bound[0])
        return None

    def _typed_by_parameter(
        self: Resolver, inst: Value, path: str, declared: Chain
    ) -> Value | None:
        """A type written as a type parameter of a class or interface in file ``path``
        (``<Q:i>`` with a suffix): what an instance ``inst`` of it or of a subclass has for
        it, its own type argument or the one its class passes through its bases."""
        owner_qual, index = type_parameter(declared[0])
        owner, cls = (path, owner_qual), (inst[1], inst[2])
        if owner == cls:  # the receiver's own type argument, when it carries one
            own = inst[3] if len(inst) > 3 else ()
            # (only as many as were written up to the last known one: ``Tree<Key, string>``)
            return _with_suffix(own[index], declared[1:]) if index < len(own) else None
        arg = self._type_argument(cls, owner, index)
        if arg is None:
            return None
        apath, scope, line, chain = arg
        return self.eval_type(Site(self.table(apath), scope, line), chain + declared[1:])

    def _element_of(self: Resolver, inst: Value, element: str) -> Value | None:
        """What iterating or indexing an instance gives: what the method its language names
        for it returns (``__iter__ -> Iterator[Foo]``: a Foo; ``__getitem__ -> Foo``)."""
        method = self.tables[inst[1]].sem.element_methods.get(element)
        found = self.class_member(inst[1], inst[2], method) if method else None
        if found is None or found[0] != "sym":
            return None
        returned = self._call(found)
        if element == "[i]":
            return ("local", returned[1]) if returned and returned[0] == "elems" else None
        return ("local", returned) if returned is not None else None

    def _returned_member(self: Resolver, fn: Value | None, before: str, name: str) -> Value | None:
        """``name`` of what the function ``fn`` returns, when the element ``before`` called it
        and its declared return type is an object type listing ``name`` (its pseudo-binding
        ``(r:name)``, facts.py); else None."""
        if fn is None or fn[0] != "sym" or not before.endswith("()"):
            return None
        return self._callback_param(fn, f"(r:{name})")

    def _collection_member(self: Resolver, site: Site, value: Value, element: str) -> Value | None:
        """A method of a ``("map", v)`` or ``("elems", v)`` value: ``("builtin", "dict.get",
        v)`` for one giving a mapped value or an element, ``(…, ("elems", v))`` for one giving
        a collection of them; other methods are the built-in class's, outside the repository."""
        cls, members = site.t.sem.builtin_collections.get(value[0], ("", {}))
        name = element.removesuffix("()")
        role = members.get(name)
        external = f"{cls}.{name}" if cls else ""
        if role == "value":
            return ("builtin", external, value[1])
        if role == "values":
            return ("builtin", external, ("elems", value[1]))
        return ("ext", external) if external else None

    def _constructed(
        self: Resolver, site: Site, called: Value | None, value: Value | None, element: str
    ) -> Value | None:
        """``(new:k:Foo)`` after a call: an instance of Foo when the function called returns
        an instance of its class argument k (its pseudo-binding ``(new:k)``), else the call's
        own value."""
        if called is None or called[0] != "sym":
            return value
        position, _, written = element[5:-1].partition(":")
        if not self.table(called[1]).bindings.get(called[2], {}).get(f"(new:{position})"):
            return value
        cls, _ = self.walk(site, tuple(written.split(".")))
        if cls is not None and cls[0] == "sym" and self.is_class(cls):
            return ("inst", cls[1], cls[2])
        return value

    def _generic_member(
        self: Resolver, receiver: Value, denot: Value, called: bool
    ) -> Value | None:
        """A member typed by a type parameter of the class that declares it, used on an
        instance of a subclass: the type argument the subclass passes for it (``class ZodArray
        extends ZodType<..., ZodArrayDef>``: ``this._def`` is a ``ZodArrayDef``). None when
        the member is not such, or no argument is known (then it is the constraint)."""
        if denot[0] != "sym":
            return None
        d = self._def(denot)
        if d is None:
            return None
        if d.kind in FUNCTION_KINDS:
            declared = d.returns if called or "getter" in d.modifiers else None
        elif d.kind in (DefKind.FIELD, DefKind.VARIABLE) and not called:
            declared = d.type
        else:
            return None
        if not declared or declared[0][:1] != "<":
            return None
        return self._typed_by_parameter(receiver, denot[1], declared)

    def with_arguments(self: Resolver, site: Site, name: str, typed: Value) -> Value:
        """An instance of a generic class declared with type arguments (``b: Box<Foo>``: the
        pseudo-bindings ``(b<j>)`` of its scope, facts.py) carries their values as a fourth
        item, ``("inst", path, qualname, (Foo instance,))``; else it is as it was."""
        if typed[0] != "inst":
            return typed
        bound = site.t.bindings.get(site.scope, {})
        args: list[Value | None] = []
        while (arg := bound.get(f"({name}<{len(args)}>)")) is not None:
            own = next((b for b in arg if b.line == site.line), None)
            args.append(self.eval_type(site, own.type) if own is not None else None)
        if not any(args):
            return typed
        return (*typed[:3], tuple(args))

    def returned_arguments(self: Resolver, t: FileTables, fn: str, typed: Value) -> Value:
        """What function ``fn`` of file ``t`` returns, an instance of a generic class declared
        with type arguments (``make(): Box<Foo>``: its pseudo-bindings ``(return<j>)``), carrying
        their values as a declared instance does (``with_arguments``); else ``typed``."""
        if typed[0] != "inst":
            return typed
        bound = t.bindings.get(fn, {})
        args: list[Value | None] = []
        while (arg := bound.get(f"(return<{len(args)}>)")) is not None:
            args.append(self.eval_type(Site(t, fn, arg[0].line), arg[0].type))
        return (*typed[:3], tuple(args)) if any(args) else typed

    def _type_argument(self: Resolver, cls: ClassKey, owner: ClassKey, index: int) -> tuple | None:
        """What class ``cls`` passes, through its bases, for type parameter ``index`` of its
        ancestor ``owner``: (path, scope, line, type chain to evaluate there), or None."""
        key = ("targ", cls, owner, index)
        return self.memoised(key, lambda: self._type_argument_uncached(cls, owner, index))  # type: ignore[return-value]

    def _type_argument_uncached(
        self: Resolver, cls: ClassKey, owner: ClassKey, index: int
    ) -> tuple | None:
        t = self.table(cls[0])
        d = t.defs.get(cls[1])
        if d is None:
            return None
        site = Site(t, d.parent, d.start_line)
        for k, chain in enumerate((*d.bases, *d.implements)):
            denot, _ = self.walk(site, chain)
            if denot is None or denot[0] != "sym" or not self.is_class(denot):
                continue
            base = (denot[1], denot[2])
            suffix: Chain = ()
            if base == owner:
                j = index
            elif owner in self.mro(*base)[0]:
                inner = self._type_argument(base, owner, index)
                if inner is None:
                    return None
                first = inner[3][0]
                if inner[0] != base[0] or first[:1] != "<" or type_parameter(first)[0] != base[1]:
                    return inner  # a type the base itself passes, not one of its parameters
                j, suffix = type_parameter(first)[1], inner[3][1:]
            else:
                continue
            bound = t.bindings.get(cls[1], {}).get(f"<{k}:{j}>", ())
            own = [b for b in bound if d.start_line <= b.line <= d.end_line]
            return (cls[0], d.parent, d.start_line, own[0].type + suffix) if own else None
        return None

    def _aliased(self: Resolver, denot: Value, d: Definition) -> Value | None:
        """What a type alias stands for (``type ZodTypeAny = ZodType<any>``), evaluated where
        the alias is declared; memoised, so an alias cycle is cut, not followed forever."""
        t = self.table(denot[1])
        site = Site(t, d.parent, d.start_line)
        return self.memoised(("alias", denot), lambda: self.eval_type(site, d.type))  # type: ignore[return-value]

    def _type_meaning(self: Resolver, denot: Value) -> Value | None:
        """A qualname whose primary definition is a value (a function, a variable) and that
        also declares a type (TS ``function make() {}`` / ``const X = …`` + ``interface X`` or
        ``type X = …``): what an annotation naming it means. An interface's members are those
        of the qualname (``make.init``, shared with a function-local ``init``: the two are one
        merged symbol's parts, the compiler's declaration and what runs)."""
        for key, d in self.tables[denot[1]].others(denot[2]):
            if d.kind in CLASS_KINDS:
                return ("inst", denot[1], denot[2])
            if d.kind == DefKind.TYPE_ALIAS and d.type is not None:
                return self._aliased(("sym", denot[1], key), d)
        return None


def _with_suffix(value: Value | None, suffix: Chain) -> Value | None:
    """A type argument's value as a member's type uses it: ``T`` itself, ``T[]`` a
    collection of it, ``Record<string, T>`` a mapping to it (facts.py)."""
    if value is None or not suffix:
        return value
    if suffix == ("[]",):
        return ("elems", value)
    return ("map", value) if suffix == ("{}",) else None


def union(values: Iterable[Value | None]) -> Value | None:
    """The values of a union's members as one: None when one is unknown (a member that some
    member lacks is no member), the value itself when all agree, else ``("union", values)``."""
    out: list[Value] = []
    for v in values:
        if v is None:
            return None
        if v not in out:
            out.append(v)
    if not out:
        return None
    return out[0] if len(out) == 1 else ("union", tuple(out))


def intersection(values: Iterable[Value | None]) -> Value | None:
    """The values of an intersection's parts as one: the parts known (a part astrag cannot
    type adds members it cannot see, not wrong ones), the value itself when one is known,
    else ``("isect", values)``; None when none is."""
    out: list[Value] = []
    for v in values:
        if v is not None and v not in out:
            out.append(v)
    if not out:
        return None
    return out[0] if len(out) == 1 else ("isect", tuple(out))


def parts_of(chain: Chain, separator: str) -> list[Chain]:
    """``("A", "|", "ns", "B")`` -> ``[("A",), ("ns", "B")]`` for ``|`` (a union), likewise
    for ``&`` (an intersection; facts.py)."""
    parts: list[Chain] = []
    start = 0
    for i, element in enumerate(chain):
        if element == separator:
            parts.append(chain[start:i])
            start = i + 1
    parts.append(chain[start:])
    return [p for p in parts if p]


def callback_position(name: str) -> tuple[int, int] | None:
    """``(k:j)`` -> (k, j); None for any other pseudo-binding name."""
    k, sep, j = name[1:-1].partition(":")
    return (int(k), int(j)) if sep and k.isdigit() and j.isdigit() else None


def type_parameter(element: str) -> tuple[str, int]:
    """``<Q:i>`` (a type parameter reference, see facts.py) -> (Q, i)."""
    owner, _, index = element[1:-1].rpartition(":")
    return owner, int(index)
