"""The fast builders of frozen slotted dataclasses make the objects the generated code makes."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from astrag.graph.facts import Reference, RefKind
from astrag.graph.slots import fast_constructor, fast_init


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 2
    tags: tuple[str, ...] = ()


def test_fast_init_keeps_the_signature_defaults_and_frozenness() -> None:
    reference = inspect.signature(Point.__init__)
    fast_init(Point)
    assert inspect.signature(Point.__init__) == reference
    p = Point(1, tags=("a",))
    assert (p.x, p.y, p.tags) == (1, 2, ("a",))
    assert p == Point(x=1, y=2, tags=("a",)) and hash(p) == hash(Point(1, 2, ("a",)))
    assert dataclasses.replace(p, y=5) == Point(1, 5, ("a",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
        Point()  # type: ignore[call-arg]


def test_the_facts_classes_build_through_slots_and_the_codec_builder_agrees() -> None:
    assert Reference.__init__.__qualname__ == "Reference.__init__"
    assert "_set0" in Reference.__init__.__code__.co_names  # the generated one, not dataclasses'
    built = fast_constructor(Reference)(RefKind.CALL, ("a", "b()"), "f", 3, 4, 1, ("k",), ())
    assert built == Reference(RefKind.CALL, ("a", "b()"), "f", 3, 4, 1, keywords=("k",))


def test_classes_a_fast_builder_would_get_wrong_are_refused() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            raise ValueError

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        xs: list[int] = dataclasses.field(default_factory=list)

    for cls in (Checked, Factory):
        with pytest.raises(TypeError):
            fast_init(cls)
        with pytest.raises(TypeError):
            fast_constructor(cls)
