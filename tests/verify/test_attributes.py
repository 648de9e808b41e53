"""Which attribute accesses the checker reads in a changed file: those whose member name is on
a line the change wrote, each run of such lines read on its own."""

from __future__ import annotations

from astrag.verify.attributes import attribute_accesses

CODE = """\
a.one
b.two
c.three
d.four
(e
  .five)
f.six
"""


def test_only_the_written_lines_accesses_are_read() -> None:
    every = attribute_accesses("m.py", CODE)
    assert [(x.chain, x.line) for x in every] == [
        (("a", "one"), 1),
        (("b", "two"), 2),
        (("c", "three"), 3),
        (("d", "four"), 4),
        (("e", "five"), 6),
        (("f", "six"), 7),
    ]
    # lines 2 and 6: the runs {2} and {6}; ``(e\n  .five)`` starts on 5 but is named on 6
    some = attribute_accesses("m.py", CODE, frozenset({2, 6}))
    assert [(x.chain, x.line) for x in some] == [(("b", "two"), 2), (("e", "five"), 6)]
    assert attribute_accesses("m.py", CODE, frozenset({5})) == []
