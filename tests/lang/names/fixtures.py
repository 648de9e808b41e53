"""Small projects in each name-level language's own idioms: two files each, a type with
members, a free function, a call across files, a call on the receiver, and a name defined
twice (which must stay unresolved: no guess between two)."""

RUST = {
    "src/geometry.rs": """
        //! Shapes on the plane.

        /// A point.
        pub struct Point {
            pub x: f64,
            pub y: f64,
        }

        impl Point {
            /// Makes a point.
            pub fn new(x: f64, y: f64) -> Self {
                Self { x, y }
            }

            pub fn norm(&self) -> f64 {
                self.dot(self)
            }

            fn dot(&self, other: &Point) -> f64 {
                self.x * other.x + self.y * other.y
            }
        }

        pub trait Shape {
            fn area(&self) -> f64;
        }

        pub fn clamp(v: f64) -> f64 {
            v.max(0.0)
        }
    """,
    "src/main.rs": """
        use crate::geometry::Point;
        use std::fmt::Display;

        mod report {
            pub fn show(v: f64) {
                println!("{}", v);
            }
        }

        fn main() {
            let p = Point::new(1.0, 2.0);
            report::show(clamp(p.norm()));
            reset();
            tidy();
        }

        fn reset() {}
    """,
    "src/other.rs": """
        fn reset() {}

        fn tidy() {}
    """,
    "src/more.rs": """
        fn tidy() {}
    """,
}

C = {
    "src/util.h": """
        #ifndef UTIL_H
        #define UTIL_H
        /* A counter. */
        struct counter {
            int value;
        };
        typedef struct counter counter_t;
        int bump(counter_t *c);
        #endif
    """,
    "src/util.c": """
        #include "util.h"

        /* Adds one. */
        int bump(counter_t *c) {
            c->value = clamp(c->value + 1);
            return c->value;
        }

        static int clamp(int v) { return v > 9 ? 9 : v; }
    """,
    "src/main.c": """
        #include <stdio.h>
        #include "util.h"

        enum mode { QUIET, LOUD };

        int main(void) {
            counter_t c = {0};
            printf("%d\\n", bump(&c));
            return clamp(0);
        }

        static int clamp(int v) { return v; }
    """,
}

CPP = {
    "src/shape.hpp": """
        #pragma once
        namespace geo {
        /// Any shape.
        class Shape {
         public:
          virtual double area() const = 0;
          double twice() const { return area() * 2; }
        };

        class Square : public Shape {
         public:
          explicit Square(double side);
          double area() const override;
         private:
          double side_;
        };
        }  // namespace geo
    """,
    "src/shape.cpp": """
        #include "shape.hpp"

        namespace geo {
        Square::Square(double side) : side_(side) {}

        double Square::area() const { return scale(side_) * side_; }

        double scale(double v) { return v; }
        }  // namespace geo
    """,
    "src/main.cpp": """
        #include <iostream>
        #include "shape.hpp"

        int main() {
            geo::Square s(2.0);
            auto *p = new geo::Square(3.0);
            std::cout << s.twice() << p->area() << std::endl;
            return 0;
        }
    """,
}

CSHARP = {
    "src/Greeter.cs": """
        using System;

        namespace App.Core
        {
            /// <summary>Says hello.</summary>
            public class Greeter : IGreeter
            {
                private readonly string name;

                public Greeter(string name) { this.name = name; }

                public string Greet() => Format(name);

                private static string Format(string who) => $"hello {who}";
            }

            public interface IGreeter
            {
                string Greet();
            }
        }
    """,
    "src/Program.cs": """
        using App.Core;

        namespace App
        {
            public static class Program
            {
                public static void Main()
                {
                    var g = new Greeter("you");
                    Console.WriteLine(g.Greet());
                    Log.Write("done");
                }
            }

            internal enum Level { Low, High }

            internal static class Log
            {
                public static void Write(string text) { }
            }
        }
    """,
}

RUBY = {
    "lib/shop/cart.rb": """
        require_relative "item"

        module Shop
          # A shopping cart.
          class Cart
            def initialize
              @items = []
            end

            def add(name, price)
              @items << Item.new(name, price)
              self
            end

            def total
              sum_prices(@items)
            end

            private

            def sum_prices(items)
              items.sum(&:price)
            end
          end
        end
    """,
    "lib/shop/item.rb": """
        module Shop
          # One thing to buy.
          class Item
            attr_reader :name, :price

            def initialize(name, price)
              @name = name
              @price = price
            end
          end

          MAX_ITEMS = 10
        end

        def checkout(cart)
          cart.total
        end
    """,
}

PHP = {
    "src/Models/User.php": """
        <?php
        namespace App\\Models;

        use App\\Support\\Str;

        /** A user of the site. */
        class User extends Model
        {
            private string $name;

            public function __construct(string $name)
            {
                $this->name = Str::title($name);
            }

            public function greet(): string
            {
                return $this->prefix() . $this->name;
            }

            protected function prefix(): string
            {
                return 'hi ';
            }
        }
    """,
    "src/Support/Str.php": """
        <?php
        namespace App\\Support;

        final class Str
        {
            public static function title(string $s): string
            {
                return ucfirst(trim_all($s));
            }
        }

        function trim_all(string $s): string
        {
            return trim($s);
        }
    """,
}

SCALA = {
    "src/main/scala/shop/Cart.scala": """
        package shop

        import shop.util.Money

        /** A cart of items. */
        class Cart(owner: String) extends Priced {
          private val items = List.empty[Int]

          def price: Money = Money.of(items.sum) + fee()

          def fee(): Money = Money.of(1)
        }

        object Cart {
          def empty(owner: String): Cart = new Cart(owner)
        }
    """,
    "src/main/scala/shop/util/Money.scala": """
        package shop.util

        trait Priced { def price: Money }

        /** An amount of money. */
        case class Money(cents: Int) {
          def +(other: Money): Money = Money(cents + other.cents)
        }

        object Money {
          def of(cents: Int): Money = Money(cents)
        }
    """,
}

SWIFT = {
    "Sources/Shop/Cart.swift": """
        import Foundation

        /// A cart of items.
        public final class Cart: Priced {
            private var items: [Item] = []

            init() {}

            func add(_ item: Item) {
                items.append(item)
                log(item.name)
            }

            func price() -> Int {
                return self.sum()
            }

            private func sum() -> Int { 0 }
        }

        extension Cart {
            func isEmpty() -> Bool { items.isEmpty }
        }
    """,
    "Sources/Shop/Item.swift": """
        /// Something to buy.
        struct Item {
            let name: String
        }

        protocol Priced {
            func price() -> Int
        }

        func log(_ text: String) {
            print(text)
        }
    """,
}

KOTLIN = {
    "src/main/kotlin/shop/Cart.kt": """
        package shop

        import shop.util.Money
        import shop.util.Priced as Pricing

        /** A cart of items. */
        class Cart(private val owner: String) : Pricing {
            private val items = mutableListOf<Int>()

            override fun price(): Money = Money.of(items.sum()) + fee()

            fun fee(): Money {
                log(owner)
                return Money(1)
            }

            companion object {
                fun empty(owner: String): Cart = Cart(owner)
            }
        }

        fun log(text: String) {
            println(text)
        }
    """,
    "src/main/kotlin/shop/util/Money.kt": """
        package shop.util

        interface Priced {
            fun price(): Money
        }

        /** An amount of money. */
        data class Money(val cents: Int) {
            operator fun plus(other: Money): Money = Money(cents + other.cents)

            companion object {
                fun of(cents: Int): Money = Money(cents)
            }
        }

        enum class Currency { EUR, USD }
    """,
}
