"""What the resolver evaluates names to: values, the vocabulary it shares with the language rooms.

A value is a tuple whose first item says what it is:

  ("sym", path, qualname)    a definition: class object, function, variable...
  ("inst", path, qualname)   an instance of a class or interface; a fourth item, when there
                             is one, holds the values of its type arguments (``Box<Foo>``)
  ("super", path, qualname)  ``super`` inside that class
  ("mod", path)              a module in the repository (one file)
  ("ns", dotted, language)   a package that is no one file (a Python namespace package: a
                             directory without ``__init__.py``); the language's semantics
                             finds its members
  ("ext", dotted)            something outside the repository (a ``()`` at the end of the
                             dotted name: the result of calling it)
  ("elems", value)           a collection whose elements are ``value`` (``List[Foo]``)
  ("map", value)             a mapping whose values are ``value`` (``Dict[str, Foo]``,
                             ``Map<string, Foo>``): ``d[k]`` and ``d.get(k)`` give one
  ("builtin", dotted, value) a method of the language's mapping class (``dict.get``): its
                             call gives ``value``
  ("fn", value)              a function known by its type (TS ``() => Foo``): calling it
                             gives ``value``
  ("isect", values)          an intersection (TS ``A & typeof B``): a member of any of the
                             values, a repository definition before one outside it
  ("prim",)                  a member of a union that is no repository type (a primitive, a
                             literal, a function or object type): code using a member of the
                             union's repository types has narrowed it away
  ("shape", path, scope, key)
                             an object type written inline (TS ``opts: { headers: Headers }``):
                             its members are the pseudo-bindings ``(key.name)`` of scope
  ("ctx", callee, path, scope, line, args)
                             a generic callee seen from a call whose declared type passes
                             ``args`` (TS ``const X: Box<Foo> = make((inst) => …)``): its
                             callbacks' parameters take them (evaluated at the site)
  ("local", value)           a local variable or collection element (as a denotation)
  ("unknown",)               a base class that could not be resolved (in an MRO's externals);
                             a part of an intersection that could not be typed (no member)

Values are plain tuples so that they hash, compare and pickle cheaply: the resolver memoises on
them and forked workers inherit them.
"""

from __future__ import annotations

Value = tuple
ClassKey = tuple[str, str]  # (path, qualname) of a class in the repository
