"""bench/ts_bindings.py: what the receiver of ``x.m()`` is bound to, on a small real file."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from ts_bindings import Bindings

SOURCE = """\
import { helper } from './helper';
export function run(a: A | B, t: T, { d }: Opts) {
  operate((source, sub) => { sub.next(1); });
  new Observable((s) => s.complete());
  [1].map((e) => e.toFixed());
  const v = new Thing();
  const { w } = make();
  for (const x of items) { x.go(); }
  a.f(); t.f(); d.f(); v.f(); w.f(); helper.f(); glob.f();
}
"""


def test_each_binding_kind_is_named(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text(SOURCE)
    lines = SOURCE.splitlines()

    def at(line: int, needle: str) -> tuple[str, str]:
        column = lines[line - 1].index(needle) + needle.index(".") + 2
        return Bindings(tmp_path).kind("a.ts", line, column)

    assert at(3, "sub.next") == ("parameter: untyped, callback of f(...)", "operate")
    assert at(4, "s.complete") == ("parameter: untyped, callback of new X(...)", "new Observable")
    assert at(5, "e.toFixed") == ("parameter: untyped, array-method callback", ".map")
    assert at(8, "x.go") == ("for … of variable", "items")
    assert at(9, "a.f") == ("parameter: union type", "A | B")
    assert at(9, "t.f") == ("parameter: typed", "T")
    assert at(9, "d.f") == ("parameter: destructured", "{ d }: Opts")
    assert at(9, "v.f") == ("local: = new_expression", "new Thing")
    assert at(9, "w.f") == ("local: destructured", "from call_expression")
    assert at(9, "helper.f") == ("import", "'./helper';")
    assert at(9, "glob.f") == ("not declared in the file (global)", "glob")
    # a plain call `operate(...)` has no receiver; `[1].map` has no identifier one
    assert Bindings(tmp_path).kind("a.ts", 3, 3) == ("receiver not found", "")
    assert Bindings(tmp_path).kind("a.ts", 5, 7) == ("receiver not an identifier", "")
