"""Fast construction of the frozen, slotted dataclasses that facts and symbols are made of.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``
(it must get past the class's own ``__setattr__``, which refuses), and that costs about 2.5x
what the field's slot descriptor costs. An index builds millions of these objects (sympy:
414k references, 197k bindings, 45k definitions), so both builders here set slots through
their descriptors instead: :func:`fast_init` replaces a class's ``__init__`` (same parameters,
same defaults, so every caller is unchanged), :func:`fast_constructor` makes a positional
builder that skips ``__init__`` altogether (the codec, which always passes every field).

Generated code, as ``dataclasses`` itself generates it: a loop over setters would lose most of
the gain (the point is one Python frame per object and no per-field dispatch). Neither works
for a class with ``__post_init__`` or a default factory; both refuse such a class.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any


def _plain_fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has __post_init__, which a fast builder would skip")
    fields = dataclasses.fields(cls)
    for f in fields:
        if f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} has a default factory")
    return fields


def fast_init(cls: type) -> type:
    """Give ``cls`` an ``__init__`` with the same signature that fills slots directly."""
    fields = _plain_fields(cls)
    namespace: dict[str, Any] = {}
    params, body = ["self"], []
    for i, f in enumerate(fields):
        namespace[f"_set{i}"] = getattr(cls, f.name).__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        body.append(f"    _set{i}(self, {f.name})")
    source = f"def __init__({', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = dict(cls.__init__.__annotations__)  # what introspection read before
    cls.__init__ = init  # type: ignore[misc]
    return cls


def fast_constructor(cls: type) -> Callable[..., Any]:
    """A positional constructor that fills every slot of ``cls`` without ``__init__``."""
    names = [f.name for f in _plain_fields(cls)]
    args = [f"a{i}" for i in range(len(names))]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def build({', '.join(args)}):", "    o = _new(_cls)"]
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = getattr(cls, name).__set__
        lines.append(f"    _set{i}(o, a{i})")
    lines.append("    return o")
    exec("\n".join(lines), namespace)
    return namespace["build"]  # type: ignore[no-any-return]
