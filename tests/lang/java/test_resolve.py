"""One test per Java resolution rule, each on a small fixture project (exact call edges)."""

from __future__ import annotations

from pathlib import Path

from tests.graph.graphs import build, targets, triples

S = "src/main/java/p/"


def _calls(edges, source: str) -> set[str]:
    return {t.removeprefix(S) for t in targets(edges, "calls", S + source)}


def _calls_of_main_run(edges) -> set[str]:
    """What ``a.app.Main.run`` calls, ids relative to the source root."""
    root = "src/main/java/"
    return {
        t.removeprefix(root) for t in targets(edges, "calls", root + "a/app/Main.java::Main.run")
    }


def test_overloads_by_arity_and_argument_types(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            S + "Io.java": """
                package p;
                import java.io.ByteArrayInputStream;
                import java.io.InputStream;
                import java.io.Reader;
                public class Io {
                    static void copy(InputStream in) {}
                    static void copy(Reader in) {}
                    static void copy(InputStream in, int size) {}
                    static void log(String s) {}
                    static void log(int n) {}
                    static void log(long n) {}
                    static void log(Object o) {}
                    static void all(String... names) {}
                    static void all(String a, String b) {}
                    void run(ByteArrayInputStream bytes, Object unknown) {
                        copy(bytes);
                        copy(bytes, 4);
                        log("x" + 1);
                        log(1);
                        log(2L);
                        log(this);
                        log(unknown.hashCode());
                        all("a", "b");
                        all("a", "b", "c");
                    }
                }
            """,
        },
    )
    # a JDK subtype picks the InputStream overload; ``+`` with a string is a String; an int
    # literal the exact int overload, a long the long one; ``this`` only fits Object; a
    # call whose type astrag does not know, where int/long/String/Object differ, stays open;
    # fixed arity wins over varargs, which takes three
    assert _calls(edges, "Io.java::Io.run") == {
        "Io.java::Io.copy",
        "Io.java::Io.copy#3",
        "Io.java::Io.log",
        "Io.java::Io.log#2",
        "Io.java::Io.log#3",
        "Io.java::Io.log#4",
        "unresolved::log",
        "external::java.lang.Object.hashCode",
        "Io.java::Io.all#2",
        "Io.java::Io.all",
    }


def test_constructors_this_super_enum_constants_and_records(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            S + "Base.java": """
                package p;
                public class Base {
                    Base() {}
                    Base(int size) {}
                }
            """,
            S + "Box.java": """
                package p;
                public class Box extends Base {
                    Box() { this(1, "x"); }
                    Box(int size, String name) { super(size); }
                    static Box make() { return new Box(); }
                    static Point at() { return new Point(1, 2); }
                    static Empty none() { return new Empty(); }
                    static Runnable task() { return new Runnable() { public void run() {} }; }
                }
                class Empty {}
                record Point(int x, int y) {}
                enum Color { RED(1), GREEN; Color() {} Color(int rgb) {} }
            """,
        },
    )
    assert _calls(edges, "Box.java::Box.constructor") == {"Box.java::Box.constructor#2"}
    assert _calls(edges, "Box.java::Box.constructor#2") == {"Base.java::Base.constructor#2"}
    assert _calls(edges, "Box.java::Box.make") == {"Box.java::Box.constructor"}
    # a record's implicit canonical constructor and a default constructor are the class;
    # an anonymous class of a JDK interface is external
    assert _calls(edges, "Box.java::Box.at") == {"Box.java::Point"}
    assert _calls(edges, "Box.java::Box.none") == {"Box.java::Empty"}
    assert _calls(edges, "Box.java::Box.task") == {"external::java.lang.Runnable"}
    assert _calls(edges, "Box.java::Color") == {
        "Box.java::Color.constructor#2",
        "Box.java::Color.constructor",
    }


def test_implicit_this_inherited_and_outer_members(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            S + "Shape.java": """
                package p;
                public abstract class Shape implements Named {
                    abstract double area();
                    public String name() { return "shape"; }
                }
            """,
            S + "Named.java": """
                package p;
                public interface Named { String name(); default String label() { return name(); } }
            """,
            S + "Square.java": """
                package p;
                public class Square extends Shape {
                    double side;
                    double area() { return side * side; }
                    String describe() {
                        Runnable r = () -> label();
                        return name() + area() + super.name();
                    }
                    class Corner {
                        double twice() { return area() * 2; }
                    }
                    Object anon() {
                        return new Object() { String s() { return describe(); } };
                    }
                }
            """,
        },
    )
    # bare names are members of the class and its bases; a lambda's calls are its method's
    assert _calls(edges, "Square.java::Square.describe") == {
        "Named.java::Named.label",
        "Shape.java::Shape.name",
        "Square.java::Square.area",
    }
    # from an inner and an anonymous class: the enclosing class's members
    assert _calls(edges, "Square.java::Square.Corner.twice") == {"Square.java::Square.area"}
    assert _calls(edges, "Square.java::Square.anon.$1.s") == {"Square.java::Square.describe"}
    assert (S + "Square.java::Square.area", "overrides", S + "Shape.java::Shape.area") in triples(
        edges, "overrides"
    )
    assert (S + "Shape.java::Shape", "implements", S + "Named.java::Named") in triples(
        edges, "implements"
    )


def test_imports_static_imports_packages_and_typed_locals(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "src/main/java/a/util/Strings.java": """
                package a.util;
                public final class Strings {
                    public static String trim(String s) { return s; }
                    public static class Joiner { public String join() { return ""; } }
                }
            """,
            "src/main/java/a/util/Lists.java": """
                package a.util;
                public class Lists { public static int size() { return 0; } }
            """,
            "src/main/java/a/app/Repo.java": """
                package a.app;
                public class Repo { Repo find() { return this; } void save() {} }
            """,
            "src/main/java/a/app/Main.java": """
                package a.app;
                import static a.util.Strings.trim;
                import a.util.Strings.Joiner;
                import a.util.*;
                import java.util.List;
                public class Main {
                    private Repo repo;
                    void run(List<String> names) {
                        trim(" x ");
                        new Joiner().join();
                        Lists.size();
                        repo.find().save();
                        var local = new Repo();
                        local.save();
                        for (Repo each : new Repo[0]) { each.find(); }
                        names.add("x");
                        ((Repo) null).save();
                    }
                }
            """,
        },
    )
    calls = _calls_of_main_run(edges)
    # static, nested-class and on-demand imports; same package without an import; field,
    # var, loop variable and cast types; the JDK is external
    assert calls == {
        "a/util/Strings.java::Strings.trim",
        "a/util/Strings.java::Strings.Joiner",
        "a/util/Strings.java::Strings.Joiner.join",
        "a/util/Lists.java::Lists.size",
        "a/app/Repo.java::Repo.find",
        "a/app/Repo.java::Repo.save",
        "a/app/Repo.java::Repo",
        "external::java.util.List.add",
    }


def test_names_written_qualified(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "src/main/java/a/dom/Attribute.java": """
                package a.dom;
                public class Attribute {
                    public String getKey() { return ""; }
                    public static Attribute of() { return new Attribute(); }
                }
            """,
            "src/main/java/a/app/Main.java": """
                package a.app;
                public class Main {
                    static class Attribute { void getKey() {} }
                    void run(a.dom.Attribute attr) {
                        attr.getKey();
                        a.dom.Attribute.of();
                        new a.dom.Attribute();
                        java.util.List<String> xs = new java.util.ArrayList<>();
                        xs.add("x");
                    }
                }
            """,
        },
    )
    calls = _calls_of_main_run(edges)
    # the package's class, not the nested one of the same simple name; the JDK's external
    assert calls == {
        "a/dom/Attribute.java::Attribute.getKey",
        "a/dom/Attribute.java::Attribute.of",
        "a/dom/Attribute.java::Attribute",
        "external::java.util.ArrayList",
        "external::java.util.List().add",  # as a local's type imported by name gives
    }
