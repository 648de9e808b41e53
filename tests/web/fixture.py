"""The repository the web view is tested on: a small shop in Python and TypeScript with a
subclass that overrides a method, calls through dispatch and through an untyped receiver, a
file that does not parse, a credentials file astrag must skip, and markup in a docstring, a
string and a file name that a page must show as text and never run."""

from __future__ import annotations

from pathlib import Path

from tests.search.conftest import write_project

ITEM_PRICE = "shop/models.py::Item.price"
# Item.price's neighbourhood, by hop. Hop 1: its class, its caller, its override, the type it
# returns, the two unverified callers (t.price() on an untyped t, and on Priced in TS). Hop 2:
# who calls, annotates with, subclasses or is annotated by those; no placeholders
# (builtins.sum, ?.reduce), no sibling members (Item.label), no importing file (shop/cart.py).
ITEM_PRICE_HOPS = (
    {ITEM_PRICE},
    {
        "shop/models.py::Item",
        "shop/cart.py::Cart.total",
        "shop/models.py::Book.price",
        "external::builtins.int",
        "shop/cart.py::quote",
        "web/client.ts::sum",
    },
    {
        "shop/cart.py::checkout",
        "shop/cart.py::Cart.__init__",
        "shop/cart.py::Cart.add",
        "shop/models.py::Book",
        "web/client.ts::Priced",
    },
)
HOSTILE_DOC = '<script>document.title = "pwned"; window.__pwned = 1</script>'
HOSTILE_FILE = "shop/odd<b>name&.py"
# a credential in the code: every page shows the file as the index has it, masked
SECRET = "ghp_" + "x7Kq9LmP2vR8sT4wY6zA1bC3dE5fG0hJ2kN4"

FILES: dict[str, str] = {
    "shop/__init__.py": "",
    "shop/models.py": f'''
        """Things a shop sells."""


        class Item:
            """An item for sale. {HOSTILE_DOC}"""

            def __init__(self, name: str, cents: int) -> None:
                self.name = name
                self.cents = cents

            def price(self) -> int:
                return self.cents

            def label(self) -> str:
                return "</script><script>window.__pwned = 2</script>" + self.name


        class Book(Item):
            def price(self) -> int:
                return self.cents - 100
        ''',
    "shop/cart.py": """
        from shop.models import Book, Item


        class Cart:
            def __init__(self) -> None:
                self.items: list[Item] = []

            def add(self, item: Item) -> None:
                self.items.append(item)

            def total(self) -> int:
                return sum(item.price() for item in self.items)


        def checkout(cart: Cart) -> int:
            return cart.total()


        def quote(things) -> int:
            return sum(t.price() for t in things)


        def demo() -> int:
            cart = Cart()
            cart.add(Book("SICP", 4200))
            return checkout(cart)
        """,
    "shop/broken.py": """
        def fine() -> int:
            return 1


        def broken(:
            return (


        def after() -> int:
            return 2
        """,
    HOSTILE_FILE: """
        def odd() -> str:
            return "<img src=x onerror=alert(1)>"
        """,
    "web/client.ts": """
        export interface Priced {
          price(): number;
        }

        export class Coupon implements Priced {
          price(): number {
            return -500;
          }
        }

        export function sum(things: Priced[]): number {
          return things.reduce((a, t) => a + t.price(), 0);
        }
        """,
    ".env": "API_KEY=sk-not-a-real-key\n",
    "shop/settings.py": f'''
        GITHUB_TOKEN = "{SECRET}"


        def token() -> str:
            return GITHUB_TOKEN
        ''',
}


def write_shop(root: Path) -> Path:
    write_project(root, FILES)
    return root
