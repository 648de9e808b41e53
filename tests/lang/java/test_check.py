"""The checker on Java: what it reports (unknown method, import, type, function; wrong
argument count against every overload), and where Java's world is open, that it says nothing."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from astrag import api
from tests.verify.checked import indexed, rows

FILES = {
    "src/main/java/com/ex/shapes/Shape.java": """
        package com.ex.shapes;

        import java.io.Serializable;

        public class Shape implements Comparable<Shape>, Serializable {
            private int size;

            public Shape() { this(0); }
            public Shape(int size) { this.size = size; }

            public int area(int a) { return a * size; }
            public int area(int a, int b) { return a * b; }
            public int sum(int first, int... rest) { return first; }
            public int compareTo(Shape o) { return 0; }
            private void secret() {}
        }
    """,
    "src/main/java/com/ex/shapes/Square.java": """
        package com.ex.shapes;

        public class Square extends Shape {
            public Square() { super(1); }
            public int side() { return 1; }
        }
    """,
    "src/main/java/com/ex/shapes/Plain.java": """
        package com.ex.shapes;

        public class Plain {
            public static int twice(int n) { return 2 * n; }
        }
    """,
    "src/main/java/com/ex/shapes/Listed.java": """
        package com.ex.shapes;

        import java.util.ArrayList;

        public class Listed extends ArrayList<String> {
            public int extra() { return 1; }
        }
    """,
    "src/main/java/com/ex/shapes/Point.java": """
        package com.ex.shapes;

        public record Point(int x, int y) {}
    """,
    "src/main/java/com/ex/shapes/Color.java": """
        package com.ex.shapes;

        import com.ex.shapes.Generated;

        public enum Color {
            RED, GREEN;

            static Color first() { return values()[0]; }
            String label() { return name().toLowerCase(); }
        }
    """,
    "src/main/java/com/ex/shapes/Bag.java": """
        package com.ex.shapes;

        import com.ex.shapes.Generated;
        import java.io.OutputStream;
        import java.util.Iterator;

        public class Bag implements Iterable<String> {
            public Iterator<String> iterator() { return null; }
        }

        class Sink extends OutputStream {
            public void write(int b) {}
            void writeAll(byte[] b, int off, int len) {}
            void writeAll(int b) {}
        }
    """,
    "src/main/java/com/ex/dom/Node.java": """
        package com.ex.dom;

        public class Node {
            public String attr(String key) { return key; }
            public Node attr(String key, String value) { return this; }
            public Node parent() { return this; }
            public Node parent(int up) { return this; }
        }
    """,
    "src/main/java/com/ex/dom/Element.java": """
        package com.ex.dom;

        public class Element extends Node {
            public Element attr(String key, String value) { return this; }
            public String text() { return ""; }
        }
    """,
    "src/main/java/com/ex/dom/Attribute.java": """
        package com.ex.dom;

        public class Attribute {
            public String getKey() { return ""; }
        }
    """,
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return indexed(tmp_path_factory.mktemp("java-checked"), FILES)


def findings(repo: Path, code: str) -> list[tuple[str, int]]:
    return rows(repo, code, "src/main/java/com/ex/app/Main.java")


def test_unknown_method_on_a_receiver_of_known_type(repo: Path) -> None:
    code = """
        package com.ex.app;

        import com.ex.shapes.Shape;
        import com.ex.shapes.Square;

        class Main {
            int run(Shape s, Square q) {
                s.area(1);
                q.side();
                q.area(2, 3);
                s.compareTo(q);
                s.hashCode();
                s.areas(1);
                q.sides();
                return s.compareWith(q);
            }
        }
    """
    assert findings(repo, code) == [
        ("unknown-member", 13),
        ("unknown-member", 14),
        ("unknown-member", 15),
    ]


def test_unknown_imports_in_repository_packages_only(repo: Path) -> None:
    code = """
        package com.ex.app;

        import com.ex.shapes.Shape;
        import com.ex.shapes.Circle;
        import static com.ex.shapes.Plain.twice;
        import static com.ex.shapes.Plain.thrice;
        import com.ex.shapes.*;
        import java.util.Lists;
        import org.other.Thing;

        class Main {}
    """
    assert findings(repo, code) == [("unknown-import", 4), ("unknown-import", 6)]
    # a class the build generates (not indexed) that other files import as well
    generated = """
        package com.ex.app;

        import com.ex.shapes.Generated;

        class Main {}
    """
    assert findings(repo, generated) == []


def test_unknown_types_and_functions(repo: Path) -> None:
    code = """
        package com.ex.app;

        import com.ex.shapes.Shape;
        import java.util.List;

        class Main {
            Shape ok(List<String> names, Shap typo) {
                helper();
                String s = String.valueOf(1);
                org.other.Node n = new java.util.ArrayList<org.other.Leaf>().get(0);
                return new Shape();
            }
        }
    """
    # a qualified name says where its class is: not a bare name to look up
    assert findings(repo, code) == [("unknown-type", 7), ("unknown-function", 8)]


def test_java_lang_names_come_from_the_jdk_table(repo: Path) -> None:
    # SecurityManager, ProcessHandle: java.lang classes an import-free file may name
    code = """
        package com.ex.app;

        class Main {
            void run(SecurityManager sm, ProcessHandle h, SecurityManagr typo) {
                IllegalCallerException e = null;
            }
        }
    """
    assert findings(repo, code) == [("unknown-type", 4)]


def test_argument_counts_against_every_overload(repo: Path) -> None:
    code = """
        package com.ex.app;

        import com.ex.shapes.Shape;
        import com.ex.shapes.Square;
        import com.ex.shapes.Plain;
        import com.ex.shapes.Point;

        class Main {
            void run(Shape s, Square q) {
                s.area(1);
                s.area(1, 2);
                s.sum(1);
                s.sum(1, 2, 3, 4);
                new Shape();
                new Shape(3);
                new Plain();
                new Point(1, 2);
                Plain.twice(1);
                s.area(1, 2, 3);
                q.area();
                s.sum();
                new Shape(1, 2);
                new Plain(1);
                Plain.twice();
            }
        }
    """
    assert findings(repo, code) == [
        ("wrong-arguments", 19),
        ("wrong-arguments", 20),
        ("wrong-arguments", 21),
        ("wrong-arguments", 22),
        ("wrong-arguments", 23),
        ("wrong-arguments", 24),
    ]


def test_known_jdk_supertypes_keep_a_class_closed(repo: Path) -> None:
    # InputStream's and Iterable's methods are known: a name none of them has is missing,
    # also by its bare name, and a boolean method taking ``this`` narrows nothing in Java
    code = """
        package com.ex.shapes;

        import java.io.IOException;
        import java.io.InputStream;
        import java.util.Iterator;

        class Source extends InputStream implements Iterable<String> {
            public int read() { return -1; }
            public Iterator<String> iterator() { return null; }
            static boolean isEmpty(Source s) { return true; }

            void run() throws IOException {
                skip(1);
                readAllBytes();
                forEach(x -> {});
                if (isEmpty(this)) {
                    this.rewind();
                }
                skipAll();
            }
        }
    """
    report = api.check(repo, textwrap.dedent(code), path="src/main/java/com/ex/shapes/Source.java")
    assert [(f.rule, f.line) for f in report.findings] == [
        ("unknown-member", 18),
        ("unknown-function", 20),
    ]


def test_the_open_world_says_nothing(repo: Path) -> None:
    code = """
        package com.ex.app;

        import com.ex.shapes.Listed;
        import java.util.ArrayList;
        import java.util.List;

        class Main extends ArrayList<String> {
            void run(Listed l, List<String> xs, Object o) throws Exception {
                l.extra();
                l.add("x");
                l.stream();
                xs.whatever();
                add("y");
                size();
                o.getClass().getMethod("anything").invoke(o);
                Runnable r = () -> helperFromSomewhere();
            }
        }
    """
    assert findings(repo, code) == []
    # Iterable's default methods; an OutputStream's own write overloads; Enum's methods
    defaults = """
        package com.ex.shapes;

        class Use {
            void run(Bag b, Sink s) {
                b.forEach(x -> {});
                b.spliterator();
                s.write(new byte[1], 0, 1);
                s.writeAll(1, 2);
                Color.valueOf("RED").ordinal();
            }
        }
    """
    report = api.check(repo, textwrap.dedent(defaults), path="src/main/java/com/ex/shapes/Use.java")
    assert report.findings == []
    enum = (repo / "src/main/java/com/ex/shapes/Color.java").read_text()
    assert api.check(repo, enum, path="src/main/java/com/ex/shapes/Color.java").findings == []


def test_a_java_change_is_checked_and_a_mixed_one_checks_both(repo: Path) -> None:
    diff = (
        "--- a/src/main/java/com/ex/shapes/Plain.java\n"
        "+++ b/src/main/java/com/ex/shapes/Plain.java\n"
        "@@ -1,5 +1,6 @@\n"
        " package com.ex.shapes;\n"
        " \n"
        " public class Plain {\n"
        "     public static int twice(int n) { return 2 * n; }\n"
        "+    static int four() { return twice(1, 2); }\n"
        " }\n"
    )
    report = api.check(repo, diff)
    assert report.files == ["src/main/java/com/ex/shapes/Plain.java"]
    assert [(f.line, f.rule) for f in report.findings] == [(5, "wrong-arguments")]
    assert "Plain.twice() takes 1 argument(s), 2 given" in report.findings[0].message


def test_field_reads_and_writes(repo: Path) -> None:
    code = """
        package com.ex.shapes;

        import java.io.FilterInputStream;
        import java.io.InputStream;

        class Wrapped extends FilterInputStream {
            int count;
            int[] items = new int[3];

            Wrapped(InputStream in) { super(in); }

            int run(Shape s) {
                this.count = this.items.length + Color.RED.ordinal();
                Object o = this.in;
                Class<?> c = Shape.class;
                java.util.List<String> names = java.util.List.of();
                this.counts = 1;
                return this.total + c.hashCode();
            }
        }
    """
    report = api.check(repo, textwrap.dedent(code), path="src/main/java/com/ex/shapes/Wrapped.java")
    assert [(f.rule, f.line, f.message) for f in report.findings] == [
        ("unknown-member", 18, "Wrapped declares no member 'counts' (did you mean count?)"),
        ("unknown-member", 19, "Wrapped has no attribute 'total'"),
    ]


def test_a_qualified_type_names_its_package_s_class(repo: Path) -> None:
    # the class has a nested Attribute of its own: com.ex.dom.Attribute is not that one
    code = """
        package com.ex.app;

        class Main {
            static class Attribute {}

            String key(com.ex.dom.Attribute a) {
                a.getKeys();
                return a.getKey();
            }
        }
    """
    assert findings(repo, code) == [("unknown-member", 7)]


def test_a_chain_through_overloads_that_return_different_types(repo: Path) -> None:
    # attr(key) returns a String, attr(key, value) the element: the chain does not say which
    # ran; parent() and parent(up) both return a node, so what follows them is judged
    code = """
        package com.ex.app;

        import com.ex.dom.Element;

        class Main {
            void run(Element el) {
                el.attr("type").equalsIgnoreCase("x");
                el.parent().texts();
            }
        }
    """
    assert findings(repo, code) == [("unknown-member", 8)]


def test_a_string_left_open_is_a_syntax_error_where_it_starts(repo: Path) -> None:
    # tree-sitter-java reads an unclosed string on to the next quote, lines later; a text
    # block is the one string that spans lines
    code = '''
        package com.ex.app;

        class Main {
            String s = "open;
            String t = "closed";
            String u = """
                a block
                """;
        }
    '''
    assert findings(repo, code) == [("syntax-error", 4)]
    assert findings(repo, code.replace('"open;', '"open";')) == []
