"""Each name-level language indexed from a small project in its own idioms (``fixtures.py``):
definitions with kinds and lines, doc comments, containment and call edges exactly, and every
edge but ``contains`` marked as matched by name."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from astrag.graph.facts import EdgeKind, Resolution
from astrag.lang import extract_facts, resolution_of
from tests.graph.graphs import build
from tests.lang.names import fixtures

# C++: ``Square::area`` defined in shape.cpp belongs to Square by name, but Square is declared
# in the header, so within shape.cpp the file holds it. C: prototypes are no definitions.
# Rust: ``tidy`` is defined in two other files, so main's call stays unresolved (no guess).
# Scala: a companion object's members are its class's (``Cart.empty``), as static members are.
KT_CART, KT_MONEY = "src/main/kotlin/shop/Cart.kt", "src/main/kotlin/shop/util/Money.kt"
EXPECTED: dict[str, dict] = {
    "c": {
        "calls": [
            ("src/main.c::main", "src/main.c::clamp"),
            ("src/main.c::main", "src/util.c::bump"),
            ("src/main.c::main", "unresolved::printf"),
            ("src/util.c::bump", "src/util.c::clamp"),
        ],
        "contains": [
            ("src/main.c", "src/main.c::clamp"),
            ("src/main.c", "src/main.c::main"),
            ("src/main.c", "src/main.c::mode"),
            ("src/util.c", "src/util.c::bump"),
            ("src/util.c", "src/util.c::clamp"),
            ("src/util.h", "src/util.h::counter"),
            ("src/util.h", "src/util.h::counter_t"),
            ("src/util.h::counter", "src/util.h::counter.value"),
        ],
        "defs": {
            "src/main.c": [
                ("enum", "mode", 4, 4),
                ("function", "main", 6, 10),
                ("function", "clamp", 12, 12),
            ],
            "src/util.c": [("function", "bump", 4, 7), ("function", "clamp", 9, 9)],
            "src/util.h": [
                ("class", "counter", 4, 6),
                ("field", "counter.value", 5, 5),
                ("type_alias", "counter_t", 7, 7),
            ],
        },
        "docs": {"src/util.c::bump": "Adds one.", "src/util.h::counter": "A counter."},
    },
    "cpp": {
        "calls": [
            # `new geo::Square(3.0)`: the core's `new` rule; the tags room names no constructor
            # member, so the class itself is the target
            ("src/main.cpp::main", "src/shape.hpp::geo.Square"),
            ("src/main.cpp::main", "unresolved::?.area"),
            ("src/main.cpp::main", "unresolved::?.twice"),
            ("src/shape.cpp::geo.Square.area", "src/shape.cpp::geo.scale"),
            ("src/shape.hpp::geo.Shape.twice", "src/shape.hpp::geo.Shape.area"),
        ],
        "contains": [
            ("src/main.cpp", "src/main.cpp::main"),
            ("src/shape.cpp", "src/shape.cpp::geo"),
            ("src/shape.cpp", "src/shape.cpp::geo.Square.Square"),
            ("src/shape.cpp", "src/shape.cpp::geo.Square.area"),
            ("src/shape.cpp::geo", "src/shape.cpp::geo.scale"),
            ("src/shape.hpp", "src/shape.hpp::geo"),
            ("src/shape.hpp::geo", "src/shape.hpp::geo.Shape"),
            ("src/shape.hpp::geo", "src/shape.hpp::geo.Square"),
            ("src/shape.hpp::geo.Shape", "src/shape.hpp::geo.Shape.area"),
            ("src/shape.hpp::geo.Shape", "src/shape.hpp::geo.Shape.twice"),
            ("src/shape.hpp::geo.Square", "src/shape.hpp::geo.Square.Square"),
            ("src/shape.hpp::geo.Square", "src/shape.hpp::geo.Square.area"),
            ("src/shape.hpp::geo.Square", "src/shape.hpp::geo.Square.side_"),
        ],
        "defs": {
            "src/main.cpp": [("function", "main", 4, 9)],
            "src/shape.cpp": [
                ("class", "geo", 3, 9),
                ("method", "geo.Square.Square", 4, 4),
                ("method", "geo.Square.area", 6, 6),
                ("function", "geo.scale", 8, 8),
            ],
            "src/shape.hpp": [
                ("class", "geo", 2, 17),
                ("class", "geo.Shape", 4, 8),
                ("method", "geo.Shape.area", 6, 6),
                ("method", "geo.Shape.twice", 7, 7),
                ("class", "geo.Square", 10, 16),
                ("method", "geo.Square.Square", 12, 12),
                ("method", "geo.Square.area", 13, 13),
                ("field", "geo.Square.side_", 15, 15),
            ],
        },
        "docs": {"src/shape.hpp::geo.Shape": "Any shape."},
    },
    "csharp": {
        "calls": [
            ("src/Greeter.cs::App.Core.Greeter.Greet", "src/Greeter.cs::App.Core.Greeter.Format"),
            ("src/Program.cs::App.Program.Main", "src/Greeter.cs::App.Core.Greeter"),  # new
            ("src/Program.cs::App.Program.Main", "src/Program.cs::App.Log.Write"),
            ("src/Program.cs::App.Program.Main", "unresolved::?.Greet"),
            ("src/Program.cs::App.Program.Main", "unresolved::?.WriteLine"),
        ],
        "contains": [
            ("src/Greeter.cs", "src/Greeter.cs::App.Core"),
            ("src/Greeter.cs::App.Core", "src/Greeter.cs::App.Core.Greeter"),
            ("src/Greeter.cs::App.Core", "src/Greeter.cs::App.Core.IGreeter"),
            ("src/Greeter.cs::App.Core.Greeter", "src/Greeter.cs::App.Core.Greeter.Format"),
            ("src/Greeter.cs::App.Core.Greeter", "src/Greeter.cs::App.Core.Greeter.Greet"),
            ("src/Greeter.cs::App.Core.Greeter", "src/Greeter.cs::App.Core.Greeter.Greeter"),
            ("src/Greeter.cs::App.Core.Greeter", "src/Greeter.cs::App.Core.Greeter.name"),
            ("src/Greeter.cs::App.Core.IGreeter", "src/Greeter.cs::App.Core.IGreeter.Greet"),
            ("src/Program.cs", "src/Program.cs::App"),
            ("src/Program.cs::App", "src/Program.cs::App.Level"),
            ("src/Program.cs::App", "src/Program.cs::App.Log"),
            ("src/Program.cs::App", "src/Program.cs::App.Program"),
            ("src/Program.cs::App.Level", "src/Program.cs::App.Level.High"),
            ("src/Program.cs::App.Level", "src/Program.cs::App.Level.Low"),
            ("src/Program.cs::App.Log", "src/Program.cs::App.Log.Write"),
            ("src/Program.cs::App.Program", "src/Program.cs::App.Program.Main"),
        ],
        "defs": {
            "src/Greeter.cs": [
                ("class", "App.Core", 3, 21),
                ("class", "App.Core.Greeter", 6, 15),
                ("field", "App.Core.Greeter.name", 8, 8),
                ("method", "App.Core.Greeter.Greeter", 10, 10),
                ("method", "App.Core.Greeter.Greet", 12, 12),
                ("method", "App.Core.Greeter.Format", 14, 14),
                ("interface", "App.Core.IGreeter", 17, 20),
                ("method", "App.Core.IGreeter.Greet", 19, 19),
            ],
            "src/Program.cs": [
                ("class", "App", 3, 21),
                ("class", "App.Program", 5, 13),
                ("method", "App.Program.Main", 7, 12),
                ("enum", "App.Level", 15, 15),
                ("field", "App.Level.Low", 15, 15),
                ("field", "App.Level.High", 15, 15),
                ("class", "App.Log", 17, 20),
                ("method", "App.Log.Write", 19, 19),
            ],
        },
        "docs": {"src/Greeter.cs::App.Core.Greeter": "Says hello."},
    },
    "kotlin": {
        # a call of a class's name is its construction; an import's alias binds the name;
        # a companion object's members are its class's (``Cart.empty``, ``Money.of``)
        "calls": [
            (f"{KT_CART}::Cart.empty", f"{KT_CART}::Cart"),
            (f"{KT_CART}::Cart.fee", f"{KT_CART}::log"),
            (f"{KT_CART}::Cart.fee", f"{KT_MONEY}::Money"),
            (f"{KT_CART}::Cart.items", "unresolved::mutableListOf"),
            (f"{KT_CART}::Cart.price", f"{KT_CART}::Cart.fee"),
            (f"{KT_CART}::Cart.price", f"{KT_MONEY}::Money.of"),
            (f"{KT_CART}::Cart.price", "unresolved::?.sum"),
            (f"{KT_CART}::log", "unresolved::println"),
            (f"{KT_MONEY}::Money.of", f"{KT_MONEY}::Money"),
            (f"{KT_MONEY}::Money.plus", f"{KT_MONEY}::Money"),
        ],
        "contains": [
            (KT_CART, f"{KT_CART}::Cart"),
            (KT_CART, f"{KT_CART}::log"),
            (f"{KT_CART}::Cart", f"{KT_CART}::Cart.empty"),
            (f"{KT_CART}::Cart", f"{KT_CART}::Cart.fee"),
            (f"{KT_CART}::Cart", f"{KT_CART}::Cart.items"),
            (f"{KT_CART}::Cart", f"{KT_CART}::Cart.owner"),
            (f"{KT_CART}::Cart", f"{KT_CART}::Cart.price"),
            (KT_MONEY, f"{KT_MONEY}::Currency"),
            (KT_MONEY, f"{KT_MONEY}::Money"),
            (KT_MONEY, f"{KT_MONEY}::Priced"),
            (f"{KT_MONEY}::Currency", f"{KT_MONEY}::Currency.EUR"),
            (f"{KT_MONEY}::Currency", f"{KT_MONEY}::Currency.USD"),
            (f"{KT_MONEY}::Money", f"{KT_MONEY}::Money.cents"),
            (f"{KT_MONEY}::Money", f"{KT_MONEY}::Money.of"),
            (f"{KT_MONEY}::Money", f"{KT_MONEY}::Money.plus"),
            (f"{KT_MONEY}::Priced", f"{KT_MONEY}::Priced.price"),
        ],
        "defs": {
            KT_CART: [
                ("class", "Cart", 7, 20),
                ("field", "Cart.owner", 7, 7),
                ("field", "Cart.items", 8, 8),
                ("method", "Cart.price", 10, 10),
                ("method", "Cart.fee", 12, 15),
                ("method", "Cart.empty", 18, 18),
                ("function", "log", 22, 24),
            ],
            KT_MONEY: [
                ("interface", "Priced", 3, 5),
                ("method", "Priced.price", 4, 4),
                ("class", "Money", 8, 14),
                ("field", "Money.cents", 8, 8),
                ("method", "Money.plus", 9, 9),
                ("method", "Money.of", 12, 12),
                ("enum", "Currency", 16, 16),
                ("field", "Currency.EUR", 16, 16),
                ("field", "Currency.USD", 16, 16),
            ],
        },
        "docs": {
            f"{KT_CART}::Cart": "A cart of items.",
            f"{KT_MONEY}::Money": "An amount of money.",
        },
    },
    "php": {
        "calls": [
            ("src/Models/User.php::User.__construct", "src/Support/Str.php::Str.title"),
            ("src/Models/User.php::User.greet", "src/Models/User.php::User.prefix"),
            ("src/Support/Str.php::Str.title", "src/Support/Str.php::trim_all"),
            ("src/Support/Str.php::Str.title", "unresolved::ucfirst"),
            ("src/Support/Str.php::trim_all", "unresolved::trim"),
        ],
        "contains": [
            ("src/Models/User.php", "src/Models/User.php::User"),
            ("src/Models/User.php::User", "src/Models/User.php::User.__construct"),
            ("src/Models/User.php::User", "src/Models/User.php::User.greet"),
            ("src/Models/User.php::User", "src/Models/User.php::User.name"),
            ("src/Models/User.php::User", "src/Models/User.php::User.prefix"),
            ("src/Support/Str.php", "src/Support/Str.php::Str"),
            ("src/Support/Str.php", "src/Support/Str.php::trim_all"),
            ("src/Support/Str.php::Str", "src/Support/Str.php::Str.title"),
        ],
        "defs": {
            "src/Models/User.php": [
                ("class", "User", 7, 25),
                ("field", "User.name", 9, 9),
                ("method", "User.__construct", 11, 14),
                ("method", "User.greet", 16, 19),
                ("method", "User.prefix", 21, 24),
            ],
            "src/Support/Str.php": [
                ("class", "Str", 4, 10),
                ("method", "Str.title", 6, 9),
                ("function", "trim_all", 12, 15),
            ],
        },
        "docs": {"src/Models/User.php::User": "A user of the site."},
    },
    "ruby": {
        "calls": [
            ("lib/shop/cart.rb::Shop.Cart.add", "lib/shop/item.rb::Shop.Item.initialize"),
            ("lib/shop/cart.rb::Shop.Cart.sum_prices", "unresolved::?.sum"),
            ("lib/shop/cart.rb::Shop.Cart.total", "lib/shop/cart.rb::Shop.Cart.sum_prices"),
            ("lib/shop/item.rb::checkout", "unresolved::?.total"),
        ],
        "contains": [
            ("lib/shop/cart.rb", "lib/shop/cart.rb::Shop"),
            ("lib/shop/cart.rb::Shop", "lib/shop/cart.rb::Shop.Cart"),
            ("lib/shop/cart.rb::Shop.Cart", "lib/shop/cart.rb::Shop.Cart.add"),
            ("lib/shop/cart.rb::Shop.Cart", "lib/shop/cart.rb::Shop.Cart.initialize"),
            ("lib/shop/cart.rb::Shop.Cart", "lib/shop/cart.rb::Shop.Cart.sum_prices"),
            ("lib/shop/cart.rb::Shop.Cart", "lib/shop/cart.rb::Shop.Cart.total"),
            ("lib/shop/item.rb", "lib/shop/item.rb::Shop"),
            ("lib/shop/item.rb", "lib/shop/item.rb::checkout"),
            ("lib/shop/item.rb::Shop", "lib/shop/item.rb::Shop.Item"),
            ("lib/shop/item.rb::Shop", "lib/shop/item.rb::Shop.MAX_ITEMS"),
            ("lib/shop/item.rb::Shop.Item", "lib/shop/item.rb::Shop.Item.initialize"),
        ],
        "defs": {
            "lib/shop/cart.rb": [
                ("class", "Shop", 3, 25),
                ("class", "Shop.Cart", 5, 24),
                ("method", "Shop.Cart.initialize", 6, 8),
                ("method", "Shop.Cart.add", 10, 13),
                ("method", "Shop.Cart.total", 15, 17),
                ("method", "Shop.Cart.sum_prices", 21, 23),
            ],
            "lib/shop/item.rb": [
                ("class", "Shop", 1, 13),
                ("class", "Shop.Item", 3, 10),
                ("method", "Shop.Item.initialize", 6, 9),
                ("variable", "Shop.MAX_ITEMS", 12, 12),
                ("function", "checkout", 15, 17),
            ],
        },
        "docs": {
            "lib/shop/cart.rb::Shop.Cart": "A shopping cart.",
            "lib/shop/item.rb::Shop.Item": "One thing to buy.",
        },
    },
    "rust": {
        "calls": [
            ("src/geometry.rs::Point.norm", "src/geometry.rs::Point.dot"),
            ("src/geometry.rs::clamp", "unresolved::?.max"),
            ("src/main.rs::main", "src/geometry.rs::Point.new"),
            ("src/main.rs::main", "src/geometry.rs::clamp"),
            ("src/main.rs::main", "src/main.rs::report.show"),
            ("src/main.rs::main", "src/main.rs::reset"),
            ("src/main.rs::main", "unresolved::?.norm"),
            ("src/main.rs::main", "unresolved::tidy"),
            ("src/main.rs::report.show", "unresolved::println"),
        ],
        "contains": [
            ("src/geometry.rs", "src/geometry.rs::Point"),
            ("src/geometry.rs", "src/geometry.rs::Shape"),
            ("src/geometry.rs", "src/geometry.rs::clamp"),
            ("src/geometry.rs::Point", "src/geometry.rs::Point.dot"),
            ("src/geometry.rs::Point", "src/geometry.rs::Point.new"),
            ("src/geometry.rs::Point", "src/geometry.rs::Point.norm"),
            ("src/geometry.rs::Point", "src/geometry.rs::Point.x"),
            ("src/geometry.rs::Point", "src/geometry.rs::Point.y"),
            ("src/geometry.rs::Shape", "src/geometry.rs::Shape.area"),
            ("src/main.rs", "src/main.rs::main"),
            ("src/main.rs", "src/main.rs::report"),
            ("src/main.rs", "src/main.rs::reset"),
            ("src/main.rs::report", "src/main.rs::report.show"),
            ("src/more.rs", "src/more.rs::tidy"),
            ("src/other.rs", "src/other.rs::reset"),
            ("src/other.rs", "src/other.rs::tidy"),
        ],
        "defs": {
            "src/geometry.rs": [
                ("class", "Point", 4, 7),
                ("field", "Point.x", 5, 5),
                ("field", "Point.y", 6, 6),
                ("method", "Point.new", 11, 13),
                ("method", "Point.norm", 15, 17),
                ("method", "Point.dot", 19, 21),
                ("interface", "Shape", 24, 26),
                ("method", "Shape.area", 25, 25),
                ("function", "clamp", 28, 30),
            ],
            "src/main.rs": [
                ("class", "report", 4, 8),
                ("function", "report.show", 5, 7),
                ("function", "main", 10, 15),
                ("function", "reset", 17, 17),
            ],
            "src/more.rs": [("function", "tidy", 1, 1)],
            "src/other.rs": [("function", "reset", 1, 1), ("function", "tidy", 3, 3)],
        },
        "docs": {
            "src/geometry.rs::Point": "A point.",
            "src/geometry.rs::Point.new": "Makes a point.",
        },
    },
    "scala": {
        "calls": [
            ("src/main/scala/shop/Cart.scala::Cart.empty", "src/main/scala/shop/Cart.scala::Cart"),
            (
                "src/main/scala/shop/Cart.scala::Cart.fee",
                "src/main/scala/shop/util/Money.scala::Money.of",
            ),
            (
                "src/main/scala/shop/Cart.scala::Cart.price",
                "src/main/scala/shop/Cart.scala::Cart.fee",
            ),
            (
                "src/main/scala/shop/Cart.scala::Cart.price",
                "src/main/scala/shop/util/Money.scala::Money.of",
            ),
            (
                "src/main/scala/shop/util/Money.scala::Money",
                "src/main/scala/shop/util/Money.scala::Money",
            ),
            (
                "src/main/scala/shop/util/Money.scala::Money.of",
                "src/main/scala/shop/util/Money.scala::Money",
            ),
        ],
        "contains": [
            ("src/main/scala/shop/Cart.scala", "src/main/scala/shop/Cart.scala::Cart"),
            ("src/main/scala/shop/Cart.scala", "src/main/scala/shop/Cart.scala::Cart#2"),
            ("src/main/scala/shop/Cart.scala::Cart", "src/main/scala/shop/Cart.scala::Cart.empty"),
            ("src/main/scala/shop/Cart.scala::Cart", "src/main/scala/shop/Cart.scala::Cart.fee"),
            ("src/main/scala/shop/Cart.scala::Cart", "src/main/scala/shop/Cart.scala::Cart.items"),
            ("src/main/scala/shop/Cart.scala::Cart", "src/main/scala/shop/Cart.scala::Cart.price"),
            ("src/main/scala/shop/util/Money.scala", "src/main/scala/shop/util/Money.scala::Money"),
            (
                "src/main/scala/shop/util/Money.scala",
                "src/main/scala/shop/util/Money.scala::Money#2",
            ),
            (
                "src/main/scala/shop/util/Money.scala",
                "src/main/scala/shop/util/Money.scala::Priced",
            ),
            (
                "src/main/scala/shop/util/Money.scala::Money",
                "src/main/scala/shop/util/Money.scala::Money.of",
            ),
            (
                "src/main/scala/shop/util/Money.scala::Priced",
                "src/main/scala/shop/util/Money.scala::Priced.price",
            ),
        ],
        "defs": {
            "src/main/scala/shop/Cart.scala": [
                ("class", "Cart", 6, 12),
                ("field", "Cart.items", 7, 7),
                ("method", "Cart.price", 9, 9),
                ("method", "Cart.fee", 11, 11),
                ("class", "Cart", 14, 16),
                ("method", "Cart.empty", 15, 15),
            ],
            "src/main/scala/shop/util/Money.scala": [
                ("interface", "Priced", 3, 3),
                ("method", "Priced.price", 3, 3),
                ("class", "Money", 6, 8),
                ("class", "Money", 10, 12),
                ("method", "Money.of", 11, 11),
            ],
        },
        "docs": {
            "src/main/scala/shop/Cart.scala::Cart": "A cart of items.",
            "src/main/scala/shop/util/Money.scala::Money": "An amount of money.",
        },
    },
    "swift": {
        "calls": [
            ("Sources/Shop/Cart.swift::Cart.add", "Sources/Shop/Item.swift::log"),
            ("Sources/Shop/Cart.swift::Cart.add", "unresolved::?.append"),
            ("Sources/Shop/Cart.swift::Cart.price", "Sources/Shop/Cart.swift::Cart.sum"),
            ("Sources/Shop/Item.swift::log", "unresolved::print"),
        ],
        "contains": [
            ("Sources/Shop/Cart.swift", "Sources/Shop/Cart.swift::Cart"),
            ("Sources/Shop/Cart.swift::Cart", "Sources/Shop/Cart.swift::Cart.add"),
            ("Sources/Shop/Cart.swift::Cart", "Sources/Shop/Cart.swift::Cart.init"),
            ("Sources/Shop/Cart.swift::Cart", "Sources/Shop/Cart.swift::Cart.isEmpty"),
            ("Sources/Shop/Cart.swift::Cart", "Sources/Shop/Cart.swift::Cart.items"),
            ("Sources/Shop/Cart.swift::Cart", "Sources/Shop/Cart.swift::Cart.price"),
            ("Sources/Shop/Cart.swift::Cart", "Sources/Shop/Cart.swift::Cart.sum"),
            ("Sources/Shop/Item.swift", "Sources/Shop/Item.swift::Item"),
            ("Sources/Shop/Item.swift", "Sources/Shop/Item.swift::Priced"),
            ("Sources/Shop/Item.swift", "Sources/Shop/Item.swift::log"),
            ("Sources/Shop/Item.swift::Item", "Sources/Shop/Item.swift::Item.name"),
            ("Sources/Shop/Item.swift::Priced", "Sources/Shop/Item.swift::Priced.price"),
        ],
        "defs": {
            "Sources/Shop/Cart.swift": [
                ("class", "Cart", 4, 19),
                ("field", "Cart.items", 5, 5),
                ("method", "Cart.init", 7, 7),
                ("method", "Cart.add", 9, 12),
                ("method", "Cart.price", 14, 16),
                ("method", "Cart.sum", 18, 18),
                ("method", "Cart.isEmpty", 22, 22),
            ],
            "Sources/Shop/Item.swift": [
                ("class", "Item", 2, 4),
                ("field", "Item.name", 3, 3),
                ("interface", "Priced", 6, 8),
                ("method", "Priced.price", 7, 7),
                ("function", "log", 10, 12),
            ],
        },
        "docs": {
            "Sources/Shop/Cart.swift::Cart": "A cart of items.",
            "Sources/Shop/Item.swift::Item": "Something to buy.",
        },
    },
}


@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_definitions_docs_containment_and_calls(language: str, tmp_path: Path) -> None:
    files = getattr(fixtures, language.upper())
    want = EXPECTED[language]
    docs = {}
    for rel, text in files.items():
        facts = extract_facts(rel, textwrap.dedent(text).lstrip("\n").encode())
        assert facts.language == language and facts.errors == 0
        got = [(d.kind.value, d.qualname, d.start_line, d.end_line) for d in facts.definitions]
        assert got == want["defs"][rel], rel
        docs.update({f"{rel}::{d.qualname}": d.docstring for d in facts.definitions if d.docstring})
    assert docs == want["docs"]
    edges = build(tmp_path, files)
    assert sorted((e.source, e.target) for e in edges if e.kind == "contains") == want["contains"]
    assert sorted((e.source, e.target) for e in edges if e.kind == "calls") == want["calls"]
    assert resolution_of(language) == Resolution.NAME
    for e in edges:  # containment is what the file says; every other link is by name only
        assert e.resolution == (Resolution.RESOLVED if e.kind == EdgeKind.CONTAINS else "name")


def test_a_definition_named_by_a_path_is_placed_inside_it() -> None:
    facts = extract_facts("app.rb", b"class Sinatra::Base\n  def run; end\nend\n")
    got = [(d.name, d.qualname, d.parent) for d in facts.definitions]
    assert got == [("Base", "Sinatra.Base", "Sinatra"), ("run", "Sinatra.Base.run", "Sinatra.Base")]


def test_kotlin_an_aliased_import_names_the_interface_a_class_implements(tmp_path: Path) -> None:
    edges = build(tmp_path, fixtures.KOTLIN)
    linked = sorted(
        (e.kind, e.source, e.target) for e in edges if e.kind not in ("calls", "contains")
    )
    assert linked == [
        (EdgeKind.IMPLEMENTS, f"{KT_CART}::Cart", f"{KT_MONEY}::Priced"),
        (EdgeKind.IMPORTS, KT_CART, f"{KT_MONEY}::Money"),
        (EdgeKind.IMPORTS, KT_CART, f"{KT_MONEY}::Priced"),
        (EdgeKind.OVERRIDES, f"{KT_CART}::Cart.price", f"{KT_MONEY}::Priced.price"),
    ]


def test_kotlin_wildcard_imports_and_one_line_signatures() -> None:
    source = b"import a.b.*\nimport c.d.E as F\n\nfun g(x: Int): Int {\n    return x\n}\n"
    facts = extract_facts("g.kt", source)
    got = [(i.module, i.name, i.alias) for i in facts.imports]
    assert got == [("a.b", "*", ""), ("c.d", "E", "F")]
    assert [d.signature for d in facts.definitions] == ["fun g(x: Int): Int"]
