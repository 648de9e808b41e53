"""The Java frontend: exact facts of small snippets (names, nesting, overloads, locals)."""

from __future__ import annotations

from astrag.graph.facts import Binding, DefKind, Import, Param
from astrag.lang import extract_facts, language_of

SOURCE = b"""\
package a.b;
import static java.util.Objects.requireNonNull;
import java.util.*;
/** A box. */
public class Box<T, B extends Box<T, B>> extends Base implements Named {
    private int size, count = 2;
    Box(int size) { this(size, "x"); }
    Box(int size, String... names) { super(size); }
    B self() { return null; }
    void put(final Item item, List<Item> items) {
        var fresh = new Item(1) { void run() {} };
        for (Item each : items) each.go();
        Runnable r = () -> item.go();
    }
    void put(Item item) {}
    int size() { return size; }
}
enum Color { RED(1), GREEN { void f() {} }; Color(int rgb) {} Color() {} }
record Point(int x, int y) { Point { } }
"""


def _facts():
    return extract_facts("src/main/java/a/b/Box.java", SOURCE)


def test_java_files_are_java() -> None:
    assert language_of("src/main/java/a/b/Box.java") == "java"


def test_definitions_are_named_like_javac_symbols() -> None:
    facts = _facts()
    assert facts.errors == 0
    assert [(d.kind, d.qualname, d.parent) for d in facts.definitions] == [
        (DefKind.CLASS, "Box", ""),
        (DefKind.FIELD, "Box.size", "Box"),
        (DefKind.FIELD, "Box.count", "Box"),
        (DefKind.METHOD, "Box.constructor", "Box"),
        (DefKind.METHOD, "Box.constructor#2", "Box"),
        (DefKind.METHOD, "Box.self", "Box"),
        (DefKind.METHOD, "Box.put", "Box"),
        (DefKind.CLASS, "Box.put.$1", "Box.put"),
        (DefKind.METHOD, "Box.put.$1.run", "Box.put.$1"),
        (DefKind.METHOD, "Box.put#2", "Box"),
        (DefKind.METHOD, "Box.size#2", "Box"),  # a field and a method of one name
        (DefKind.ENUM, "Color", ""),
        (DefKind.FIELD, "Color.RED", "Color"),
        (DefKind.CLASS, "Color.GREEN", "Color"),  # an enum constant with a body
        (DefKind.METHOD, "Color.GREEN.f", "Color.GREEN"),
        (DefKind.METHOD, "Color.constructor", "Color"),
        (DefKind.METHOD, "Color.constructor#2", "Color"),
        (DefKind.CLASS, "Point", ""),
        (DefKind.FIELD, "Point.x", "Point"),
        (DefKind.FIELD, "Point.y", "Point"),
        (DefKind.METHOD, "Point.constructor", "Point"),  # compact: the components
    ]
    box = facts.definitions[0]
    assert (box.bases, box.implements, box.docstring) == ((("Base",),), (("Named",),), "A box.")
    by_qual = {d.qualname: d for d in facts.definitions}
    assert by_qual["Box.constructor#2"].params == (
        Param("size", ("int",)),
        Param("names", ("String",), kind="var_positional"),
    )
    assert by_qual["Box.self"].returns == ("this",)  # B is the self-type parameter
    assert by_qual["Box.put.$1"].bases == (("Item",),)
    assert len(by_qual["Point.constructor"].params) == 2
    assert by_qual["Box.size"].visibility == "private"


def test_imports_locals_and_calls() -> None:
    facts = _facts()
    assert facts.imports == (
        Import("java.util.Objects", "requireNonNull", "requireNonNull", 2),
        Import("java.util", "*", "", 3),
    )
    locals_ = {(b.scope, b.name): b for b in facts.bindings}
    assert locals_[("Box.put", "item")] == Binding("Box.put", "item", 10, ("Item",))
    # a typed local is an instance of its type (so sibling blocks keep their own), var is
    # its initialiser, a loop variable its declared type
    assert locals_[("Box.put", "fresh")].value == ("Item()",)
    assert locals_[("Box.put", "each")].value == ("Item()",)
    assert locals_[("Box.put", "r")].value == ("Runnable()",)
    calls = [(r.chain, r.scope, r.arg_count, r.args) for r in facts.references if r.kind == "call"]
    assert calls == [
        (("each", "go"), "Box.put", 0, ()),
        (("item", "go"), "Box.put", 0, ()),  # a lambda is its method's
        (("Item",), "Box.put", 1, (("int()",),)),  # new Item(1) {...}
        (("this",), "Box.constructor", 2, (("size",), ("String()",))),
        (("super",), "Box.constructor#2", 1, (("size",),)),
        (("Color",), "Color", 1, (("int()",),)),  # RED(1)
        (("Color",), "Color", 0, ()),  # GREEN
    ]


def test_javadoc_is_the_nearest_doc_comment_across_other_comments() -> None:
    # javac's rule: comments that are not /** */ between the doc and the declaration do not
    # hide it (commons-lang's StringUtils: `//@Immutable`); a declaration in between does
    source = b"""\
/** Operations on strings. */
//@Immutable
/* not a doc */
public class Strings {
    /** l's doc. */
    void l() {}
    int a;
    // a plain comment
    void m() {}
    /** First. */
    /** Second. */
    void n() {}
}
"""
    facts = extract_facts("src/Strings.java", source)
    docs = {d.qualname: d.docstring for d in facts.definitions}
    assert docs == {
        "Strings": "Operations on strings.",
        "Strings.l": "l's doc.",
        "Strings.a": "",
        "Strings.m": "",
        "Strings.n": "Second.",
    }


def test_the_package_javadoc_is_the_docstring_of_package_info_only() -> None:
    source = b"""\
/** Provides reflection helpers. */
package org.apache.commons.lang3.reflect;
"""
    assert extract_facts("src/a/reflect/package-info.java", source).docstring == (
        "Provides reflection helpers."
    )
    # elsewhere a comment above `package` is a file header, not the package's documentation
    header = b"/** Licensed to the ASF. */\npackage a;\nclass A {}\n"
    assert extract_facts("src/a/A.java", header).docstring == ""
