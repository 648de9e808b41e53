"""What of one file another file's resolution can read: its interface.

An edit that leaves a file's interface unchanged (the usual edit, inside a body) cannot change
any other file's edges, only its own; the indexer then re-resolves that file alone.
"""

from __future__ import annotations

from astrag.graph.facts import DefKind, FileFacts


def interface_of(facts: FileFacts) -> tuple:
    """Everything of a file that resolving *another* file can read: definitions, imports,
    exports and bindings, without positions (order kept) and without references. When it is
    unchanged, an edit cannot change any other file's edges (only the file's own)."""
    defs = tuple(
        (d.kind, d.name, d.qualname, d.parent, d.exported, d.modifiers, d.bases, d.implements,
         d.params, d.returns, d.type, d.value)
        for d in facts.definitions
    )  # fmt: skip
    imports = tuple(
        (i.module, i.name, i.alias, i.level, i.scope, i.reexport) for i in facts.imports
    )
    # another file reads bindings only through a field's value (``self.x = param`` inside a
    # method) or at module level (TS callbacks), and a function's ``return`` and callback
    # parameter types ``(k:j)``; a plain function's other locals are its own
    methods = {d.qualname for d in facts.definitions if d.kind == DefKind.METHOD}
    bindings = tuple(
        (b.scope, b.name, b.type, b.value)
        for b in facts.bindings
        if b.scope == "" or b.scope in methods or b.name == "return" or b.name.startswith("(")
    )
    return (facts.language, defs, imports, bindings, facts.exports, facts.all_names)
