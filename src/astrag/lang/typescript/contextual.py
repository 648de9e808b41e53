"""What the TypeScript frontend records for types the compiler reads from context.

A parameter without an annotation, ``this`` in a function, a member of what a call returns:
the compiler types them from where they stand, not from a declaration, and the frontend writes
that context down as plain facts the resolver evaluates (``graph/facts.py``; the resolver's
side is ``graph/inference.py``):

* an untyped parameter of an object-literal member, or of a function bound to a declared
  function type, is bound to the member's or type's parameter (``(p:j)``), a destructured one
  to members of its declared or contextual type; a returned function or object literal reads
  the declared return type of the function returning it as that declared type;
* a field declared with literal types records them (``(lit:kind)``), what a discriminant
  test narrows a union by;
* a parameter typed by an object type written inline records its members' types
  (``({:N}.name)``), a local or parameter of a generic class type its type arguments
  (``(x<j>)``);
* a type alias of a function type and an interface's call signatures record their parameter
  types (``(p:j)``) and the callbacks their parameters take (``(k:j)``, ``(k:fn)``), an
  interface's one call signature its return type (``(call)``);
* a function returning a generic class type records its type arguments (``(return<j>)``), a
  function returning an object type its members' types (``(r:name)``), a type guard
  its predicate (``(is:k)``), a function returning an instance of its class argument
  ``(new:k)``, and a call passing a class-like name writes ``(new:k:Name)`` after itself;
* ``this`` in an anonymous function assigned onto a top-level object, and in a constructor
  function with prototype members, is that object or an instance of it.

A mixin of the extractor (``extract._Extractor``): ``self`` is the one extracting the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from astrag.graph.facts import FUNCTION_KINDS, Binding, Chain, DefKind
from astrag.lang.typescript import generics
from astrag.lang.typescript.nodes import (
    CASTS,
    FUNCTION_NODES,
    SIMPLE_CHAIN,
    WRAPPERS,
    climb,
    first_named,
    unwrap,
)

_PARENTHESES = frozenset({"parenthesized_expression"})

if TYPE_CHECKING:
    from astrag.lang.typescript.extract import _Extractor


class ContextualTypes:
    """The extractor's contextual-typing facts (see the module docstring)."""

    def member_context(self: _Extractor, fn: Node) -> Chain | None:
        """``{ init(injector) {...} }`` / ``{ handler: (event) => ... }``: the chain of the
        member the function is, when its object literal has a contextual type: a variable's
        (``const p: Process = {...}``: ``("p", "init")``), an argument's (``f({...})``: the
        declared type of f's parameter, ``("f", "(p:0)", "handler")``), or its outer literal's.
        Its untyped parameter j is then ``(*chain, "(p:j)")``: the type that member declares for
        it (facts.py), as the compiler types it from the context."""
        if fn.type == "method_definition":
            obj, key = fn.parent, fn.child_by_field_id(self.fid.name)
        else:
            _, pair = climb(fn)
            if pair is None or pair.type != "pair":
                return None
            obj, key = pair.parent, pair.child_by_field_id(self.fid.key)
        name = self.member_name(key)
        if obj is None or obj.type != "object" or name is None:
            return None
        outer = self.object_context(obj)
        return (*outer, name) if outer is not None else None

    def object_context(self: _Extractor, obj: Node) -> Chain | None:
        """The chain whose type an object literal is read as (see ``member_context``)."""
        node, parent = climb(obj, _PARENTHESES)
        if parent is None:
            return None
        if parent.type == "variable_declarator":
            name = parent.child_by_field_id(self.fid.name)
            return (self.text(name),) if name is not None and name.type == "identifier" else None
        returned = self.returned_annotation(node)
        if returned is not None:  # ``function f(): Process { return { init(i) {…} } }``
            declared = self.principal_type(returned)
            if declared is None or not _names_a_type(declared):
                return None
            return (*declared[:-1], declared[-1] + "()")  # an instance of the declared type
        if parent.type == "pair" and parent.parent is not None and parent.parent.type == "object":
            key = self.member_name(parent.child_by_field_id(self.fid.key))
            outer = self.object_context(parent.parent) if key is not None else None
            return (*outer, key) if outer is not None and key is not None else None
        argument = self.call_argument(node)
        if argument is None:
            return None
        _, callee, position = argument
        return (*callee, f"(p:{position})")

    def call_argument(self: _Extractor, node: Node) -> tuple[Node, Chain, int] | None:
        """The call (or ``new``) ``node`` is an argument of, the callee's chain, and ``node``'s
        position among the arguments (comments not counted); None when it is no argument or
        the callee has no chain."""
        args = self.up(node)  # asked by several probes of one callback: remembered
        call = self.up(args) if args is not None and args.type == "arguments" else None
        if call is None or call.type not in ("call_expression", "new_expression"):
            return None
        field = "function" if call.type == "call_expression" else "constructor"
        callee = self.value_chain(call.child_by_field_name(field))
        if callee is None:
            return None
        others = [c for c in args.named_children if c.type != "comment"]
        return call, callee, next(i for i, c in enumerate(others) if c.id == node.id)

    def declared_arguments(self: _Extractor, call: Node) -> str | None:
        """``const ZodType: $constructor<ZodType> = $constructor("ZodType", (inst) => …)``:
        the type arguments the declared type of the variable a call initialises passes, as the
        chain element ``(ctx:ZodType)`` (``,`` between arguments, ``.`` inside one; an
        argument that is no named type is empty). The compiler infers a generic callee's type
        parameters from it where its return type passes them (``returned_parameter``), and so
        types the callback's parameters."""
        _, declarator = climb(call)
        if declarator is None or declarator.type != "variable_declarator":
            return None
        annotation = declarator.child_by_field_id(self.fid.type)
        generic = first_named(annotation) if annotation is not None else None
        if generic is None or generic.type != "generic_type":
            return None
        parts: list[str] = []
        for arg in generics.type_arguments(generic):
            chain = self.principal_type(arg)
            named = chain is not None and _names_a_type(chain) and "|" not in chain
            parts.append(".".join(chain) if named else "")
        return f"(ctx:{','.join(parts)})" if any(parts) else None

    def returned_parameter(
        self: _Extractor, scope: str, name: str, inner: Node, param: Node
    ) -> None:
        """``$constructor<T, D>(init: (inst: T, def: D) => void): $constructor<T, D>``: a
        callback's parameter typed by a type parameter of the function that its return type
        passes as argument q, as the pseudo-binding ``(k:j:ret)`` of the function typed
        ``(q,)``: where the call's contextual type says what it returns (``declared_arguments``),
        its argument q is what the parameter is (facts.py)."""
        annotation = inner.child_by_field_id(self.fid.type)
        node = first_named(annotation) if annotation is not None else None
        declarations = self.generic_names.get(self.text(node)) if node is not None else None
        if not declarations or node.type != "type_identifier":
            return
        formal = param.parent
        fn = formal.parent if formal is not None else None
        returned = fn.child_by_field_id(self.fid.return_type) if fn is not None else None
        generic = first_named(returned) if returned is not None else None
        found = generics.declaring_parameter(node, declarations)
        if (
            generic is None
            or generic.type != "generic_type"
            or found is None
            or found[0].id != fn.id
        ):
            return
        wanted = self.text(node)
        for q, arg in enumerate(generics.type_arguments(generic)):
            if arg.type == "type_identifier" and self.text(arg) == wanted:
                line = inner.start_point[0] + 1
                self.bindings.append(Binding(scope, name, line, (str(q),)))
                return

    def parameter_source(
        self: _Extractor,
        param: Node,
        index: int,
        position: int,
        element: Chain | None,
        context: tuple[Chain, int] | None,
        member: Chain | None,
    ) -> Chain | None:
        """What a destructured parameter (``({ injector }: Ctx) => ...``) takes its names
        from: an instance of its declared type, else what its untyped self would be (the
        array element, the callee's or the member's declared parameter type)."""
        declared = self.principal_type(param.child_by_field_id(self.fid.type))
        if declared is not None:
            if declared[0][:1] == "<" or declared[-1] == "[]":
                return None
            return (*declared[:-1], declared[-1] + "()")  # ``Ctx()``: an instance of Ctx
        if element is not None and index == 0:
            return element
        if context is not None:
            return (*context[0], f"({context[1]}:{position})")
        if member is not None:
            return (*member, f"(p:{position})")
        return None

    def declared_signature(self: _Extractor, fn: Node) -> Node | Chain | None:
        """``const f: (c: Context) => void = (c) => …`` / ``const f: Handler = (c) => …``:
        the function type its declarator declares (its parameters type f's), or the declared
        type's chain (``Handler``, whose ``(p:j)`` do); for a returned function, the declared
        return type of the function returning it (``returned_annotation``); a cast around the
        function before either (``((c) => …) as Handler``)."""
        node, annotation = fn, None
        declarator = self.up(node)  # one look-up per level, each remembered (``up``)
        while declarator is not None and declarator.type in WRAPPERS:
            node, declarator = declarator, self.up(declarator)
            if annotation is None and node.type in CASTS and node.named_child_count > 1:
                annotation = node.named_child(node.named_child_count - 1)
        if declarator is None:
            return None
        if annotation is None and declarator.type == "variable_declarator":
            annotation = declarator.child_by_field_id(self.fid.type)
        elif annotation is None:  # ``(mw): MiddlewareHandler => async (c, next) => …``
            annotation = self.returned_annotation(node)
        if annotation is not None and annotation.type == "function_type":
            return annotation  # a function type's own return type, not wrapped
        fn_type = self.function_type(annotation)
        if fn_type is not None:
            return fn_type
        declared = self.principal_type(annotation)
        return declared if declared is not None and _names_a_type(declared) else None

    def returned_annotation(self: _Extractor, node: Node) -> Node | None:
        """The declared return type of the function that returns ``node`` (in a ``return``
        statement, or as an arrow's expression body): the compiler's contextual type of a
        returned function or object literal."""
        parent = self.up(node)
        if parent is None:
            return None
        if parent.type == "arrow_function":
            body = parent.child_by_field_id(self.fid.body)
            outer = parent if body is not None and body.id == node.id else None
        elif parent.type == "return_statement":
            outer = parent.parent
            while outer is not None and outer.type not in FUNCTION_NODES:
                outer = outer.parent
        else:
            return None
        if outer is None:
            return None
        declared = outer.child_by_field_id(self.fid.return_type)
        if declared is None and outer.type in ("arrow_function", "function_expression"):
            # ``const f: (e: E) => Parse = (e) => (schema) => …``: the return type of the
            # function type the returning function is itself bound to
            signature = self.declared_signature(outer)
            if signature is not None and not isinstance(signature, tuple):
                declared = signature.child_by_field_id(self.fid.return_type)
        return declared

    def object_shape(self: _Extractor, scope: str, annotation: Node | None) -> Chain | None:
        """``opts: { headers: Headers; build(): Foo }``, an object type written in a
        parameter's annotation: its members' declared types as the pseudo-bindings
        ``({:N}.headers)`` of the parameter's scope (N the type's offset in the file), and
        ``("{:N}",)`` as the parameter's type (facts.py), or None when no member has one."""
        node = first_named(annotation) if annotation is not None else None
        if node is None or node.type != "object_type":
            return None
        if scope and self.kinds.get(scope) not in FUNCTION_KINDS:
            return None  # where ``bind`` records no binding either
        return self.shape_members(scope, node)

    def instance_arguments(
        self: _Extractor, scope: str, name: Node, annotation: Node | None, type_: Chain
    ) -> None:
        """``b: Box<Foo>``: the type arguments of a local's, parameter's or field's generic
        class type as the pseudo-bindings ``(b<j>)`` of its scope (a field's: its class), on
        the line of its name (facts.py), so that its instance carries them (``b.item`` of
        ``item: T`` is a Foo)."""
        if (
            annotation is None
            or self.src.find(b"<", annotation.start_byte, annotation.end_byte) < 0
        ):
            return  # no type arguments (most annotations): no node to visit
        node = first_named(annotation)
        if node is None or node.type != "generic_type" or self.type_chain(node) != type_:
            return  # not a plain generic class (``Promise<T>``, ``Foo[]`` are read otherwise)
        kind = self.kinds.get(scope)
        if scope and kind not in FUNCTION_KINDS and kind not in (DefKind.CLASS, DefKind.INTERFACE):
            return  # where ``bind`` records no binding either
        line, text = name.start_point[0] + 1, self.text(name)
        for j, arg in enumerate(generics.type_arguments(node)):
            typed = self.principal_type(arg)
            if typed is not None:
                self.bindings.append(Binding(scope, f"({text}<{j}>)", line, typed))

    def literal_field(self: _Extractor, owner: str, name: str, annotation: Node) -> None:
        """``kind: 'a' | 'b'``: a field declared with literal types, the values a discriminant
        test may find in it, as the pseudo-binding ``(lit:kind)`` of its owner (facts.py)."""
        node = first_named(annotation)
        if node is None or node.type not in ("literal_type", "union_type"):
            return
        values: list[str] = []
        for member in [node] if node.type == "literal_type" else self.union_members(node):
            literal = first_named(member) if member.type == "literal_type" else None
            if literal is None:
                return  # ``'a' | string``: any string, no discriminant
            text = self.text(literal)
            values.append(text[1:-1] if literal.type == "string" else text)
        line = annotation.start_point[0] + 1
        self.bindings.append(Binding(owner, f"(lit:{name})", line, tuple(values)))

    def function_params(self: _Extractor, fn_type: Node) -> list[Node | None]:
        """The type annotations of a function type's parameters, by position (no ``this``)."""
        params = fn_type.child_by_field_id(self.fid.parameters)
        out: list[Node | None] = []
        for p in params.named_children if params is not None else ():
            pattern = p.child_by_field_id(self.fid.pattern)
            if pattern is not None and pattern.type != "this":
                out.append(p.child_by_field_id(self.fid.type))
        return out

    def signature_param_types(self: _Extractor, scope: str, signature: Node) -> None:
        """The declared type of each parameter j of a function type or call signature, as the
        pseudo-binding ``(p:j)`` of ``scope`` (a type alias, an interface)."""
        params = signature.child_by_field_id(self.fid.parameters)
        j = 0
        for p in params.named_children if params is not None else ():
            pattern = p.child_by_field_id(self.fid.pattern)
            if pattern is None or pattern.type == "this":
                continue
            type_ = self.principal_type(p.child_by_field_id(self.fid.type))
            if type_ is not None:
                self.bindings.append(Binding(scope, f"(p:{j})", p.start_point[0] + 1, type_))
            j += 1

    def signature_return(self: _Extractor, scope: str, signature: Node) -> None:
        """An interface's call signature's return type as the pseudo-binding ``(call)`` of the
        interface (``interface UnaryFunction<T, R> { (source: T): R }``): what calling an
        instance of it gives (facts.py)."""
        type_ = self.principal_type(signature.child_by_field_id(self.fid.return_type), True)
        if type_ is not None:
            self.bindings.append(Binding(scope, "(call)", signature.start_point[0] + 1, type_))

    def signature_callbacks(self: _Extractor, scope: str, signature: Node) -> None:
        """A call signature's parameters that take callbacks: a function type's parameter
        types as ``(k:j)`` (``callback_param_types``), a named type as ``(k:fn)``, a rest
        parameter's element type as ``(*k:fn)`` (the resolver reads that type's ``(p:j)``)."""
        params = signature.child_by_field_id(self.fid.parameters)
        k = 0
        for p in params.named_children if params is not None else ():
            pattern = p.child_by_field_id(self.fid.pattern)
            if pattern is None or pattern.type == "this":
                continue
            if self.function_type(p.child_by_field_id(self.fid.type)) is not None:
                self.callback_param_types(scope, k, p, any_scope=True)
            else:
                type_ = self.principal_type(p.child_by_field_id(self.fid.type))
                rest = pattern.type == "rest_pattern"
                if rest and type_ is not None:
                    type_ = type_[:-1] if type_[-1] == "[]" else None
                if type_ is not None:
                    name = f"(*{k}:fn)" if rest else f"({k}:fn)"
                    self.bindings.append(Binding(scope, name, p.start_point[0] + 1, type_))
            k += 1

    def collect_shapes(self: _Extractor) -> None:
        """``f(): { status: ParseStatus; ctx: Context }``: the pseudo-bindings ``(r:status)``
        and ``(r:ctx)`` of f, what a member of its result is (facts.py)."""
        for fn in self.caps.get("binding.shape", ()):
            scope = self.scope_nodes.get((fn.start_byte, fn.end_byte))
            annotation = fn.child_by_field_id(self.fid.return_type)
            shape = first_named(annotation) if annotation is not None else None
            if scope is None or shape is None or shape.type != "object_type":
                continue
            for member in shape.named_children:
                name = member.child_by_field_id(self.fid.name)
                if member.type != "property_signature" or name is None:
                    continue
                type_ = self.principal_type(member.child_by_field_id(self.fid.type))
                if type_ is not None:
                    line = member.start_point[0] + 1
                    self.bindings.append(Binding(scope, f"(r:{self.text(name)})", line, type_))

    def collect_returned_arguments(self: _Extractor) -> None:
        """``make(): Box<Foo>`` (``Promise<Box<Foo>>`` too): the type arguments of a generic
        class type a function returns, as the pseudo-bindings ``(return<j>)`` of the function,
        so that what a call gives carries them as a declared instance does (facts.py)."""
        for fn in self.caps.get("binding.returned", ()):
            scope = self.scope_nodes.get((fn.start_byte, fn.end_byte))
            annotation = fn.child_by_field_id(self.fid.return_type)
            node = first_named(annotation) if annotation is not None else None
            if scope is None or node is None:
                continue
            name = node.child_by_field_id(self.fid.name)
            if name is not None and self.text(name) == "Promise":
                args = generics.type_arguments(node)
                node = args[0] if len(args) == 1 else None
            if node is None or node.type != "generic_type":
                continue
            chain = self.principal_type(annotation, True)
            if chain is None or self.type_chain(node) != chain:
                continue  # not a plain generic class (``Foo[]``, ``Map<K, V>`` read otherwise)
            line = fn.start_point[0] + 1
            for j, arg in enumerate(generics.type_arguments(node)):
                typed = self.principal_type(arg)
                if typed is not None:
                    self.bindings.append(Binding(scope, f"(return<{j}>)", line, typed))

    def collect_predicates(self: _Extractor) -> None:
        """``(node: X): node is ElementNode``: the pseudo-binding ``(is:k)`` of the guard, k
        the parameter's position (facts.py), typed by the predicate's type."""
        for node in self.caps.get("binding.predicate", ()):
            fn, predicate = node.parent, first_named(node)
            name = predicate.child_by_field_id(self.fid.name) if predicate is not None else None
            type_ = predicate.child_by_field_id(self.fid.type) if predicate is not None else None
            if fn is None or name is None or type_ is None or name.type != "identifier":
                continue
            scope = self.scope_nodes.get((fn.start_byte, fn.end_byte))
            params = fn.child_by_field_id(self.fid.parameters)
            principal = self.principal_type(type_)
            if scope is None or params is None or principal is None:
                continue
            wanted, position = self.text(name), 0
            for param in params.named_children:
                pattern = param.child_by_field_id(self.fid.pattern)
                if pattern is None:
                    continue
                if pattern.type == "this":
                    continue  # TS ``this: Foo`` is no argument
                if self.text(pattern) == wanted:
                    line = node.start_point[0] + 1
                    self.bindings.append(Binding(scope, f"(is:{position})", line, principal))
                    break
                position += 1

    def collect_constructed_arguments(self: _Extractor) -> None:
        """``get<T, R = T>(type: Type<T>): R``: the pseudo-binding ``(new:k)`` of a function
        returning an instance of the class passed as its argument k (generics.py)."""
        seen: set[int] = set()
        for name in self.caps.get("binding.type_parameter", ()):
            param = name.parent
            params = param.parent if param is not None else None
            declaration = params.parent if params is not None else None
            if declaration is None or param.type != "type_parameter" or declaration.id in seen:
                continue
            seen.add(declaration.id)
            positions = generics.constructed_arguments(declaration, self.src)
            owner = declaration
            if positions and owner.type == "function_type":  # ``get: <T>(t: Type<T>) => T``
                while owner.parent is not None and owner.type != "property_signature":
                    owner = owner.parent
            scope = self.scope_nodes.get((owner.start_byte, owner.end_byte))
            for k in positions if scope is not None else ():
                line = declaration.start_point[0] + 1
                self.bindings.append(Binding(scope, f"(new:{k})", line))

    def class_arguments(self: _Extractor, args: Node | None) -> list[str]:
        """``(new:k:Foo)`` for each argument k named like a class (a capitalised name or
        chain): the call's value is an instance of it when the callee returns an instance of
        its class argument k (``injector.get(Foo)``; the callee's ``(new:k)``, facts.py). In
        reverse order, as ``chain`` collects its parts."""
        if args is None or args.type != "arguments" or not args.named_child_count:
            return []
        out: list[str] = []
        position = 0
        for arg in args.named_children:
            kind = arg.type
            if kind == "comment":
                continue
            if kind in ("identifier", "member_expression"):
                raw = self.src[arg.start_byte : arg.end_byte]
                last = raw.rpartition(b".")[2]
                if last[:1].isupper() and SIMPLE_CHAIN.fullmatch(raw):
                    out.append(f"(new:{position}:{raw.decode()})")
            position += 1
        out.reverse()
        return out

    def anonymous_method(self: _Extractor, target: Node, fn: Node) -> None:
        """``app[method] = function () { this.lazyrouter() }`` (computed, or inside a callback:
        no definition of its own): ``this`` in it is the object, when that is a top-level name
        of this file (bound in ``bind_anonymous_this`` once scopes are known)."""
        fn = unwrap(fn) or fn
        while target.type in ("member_expression", "subscript_expression"):
            inner = target.child_by_field_id(self.fid.object)
            if inner is None:
                return
            target = inner
        if fn.type in ("function_expression", "generator_function") and target.type == "identifier":
            root = self.text(target)
            if self.parents.get(root) == "":
                self.anonymous_methods.append((fn, root))

    def bind_anonymous_this(self: _Extractor) -> None:
        """``this`` in the anonymous methods (``anonymous_method``) and in a constructor
        function, one with members on its prototype (``function View() { this.lookup() }``)."""
        for fn, owner in self.anonymous_methods:
            scope = self.scopes.at(fn.start_byte)
            self.bindings.append(Binding(scope, "this", fn.start_point[0] + 1, None, (owner,)))
        for owner in self.constructor_functions:
            d = next((d for d in self.defs if d.qualname == owner), None)
            if d is not None and d.kind == DefKind.FUNCTION and self.kinds.get(owner):
                self.bindings.append(Binding(owner, "this", d.start_line, None, (owner,)))


def _names_a_type(principal: Chain) -> bool:
    """A principal type that is one named type, not a type parameter, a collection, a union
    or a function type (facts.py)."""
    head = principal[0]
    return head[:1] != "<" and head not in ("=>", "*") and principal[-1] not in ("[]", "{}")
