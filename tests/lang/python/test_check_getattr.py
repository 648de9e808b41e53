"""What a ``__getattr__`` answers, read from its text (the checker's Python rules)."""

from __future__ import annotations

import textwrap

from astrag.lang.python.check_getattr import hook_answers, name_constants


def answers(text: str, module: str = "") -> frozenset[str] | None:
    return hook_answers(textwrap.dedent(text), name_constants(textwrap.dedent(module)))


def test_names_spelt_out_before_a_refusal_are_answered() -> None:
    assert answers(
        """
        def __getattr__(name):
            if name == "__version__":
                return "1"
            elif name in ("a", "b") or "c" == name:
                return 2
            raise AttributeError(name)
        """
    ) == frozenset({"__version__", "a", "b", "c"})
    # a refusal first, then what is left: the names the negative test let through
    assert answers(
        """
        def __getattr__(self, name):
            if name not in {"x", "y"}:
                raise AttributeError(name)
            return 1
        """
    ) == frozenset({"x", "y"})


def test_a_lookup_in_a_collection_written_once_answers_its_keys() -> None:
    module = """
        _IMPORTERS = {"Redis": 1, "Memcached": 2}
        _FIXED = frozenset({"one"})
    """
    assert answers(
        """
        def __getattr__(name):
            importer = _IMPORTERS.get(name)
            if importer is None:
                raise AttributeError(name)
            return importer()
        """,
        module,
    ) == frozenset({"Redis", "Memcached"})
    assert answers(
        """
        def __getattr__(name):
            try:
                return _IMPORTERS[name]
            except KeyError:
                raise AttributeError(name) from None
        """,
        module,
    ) == frozenset({"Redis", "Memcached"})
    assert answers(
        """
        def __getattr__(name):
            if name in _FIXED:
                return 1
            raise AttributeError(name)
        """,
        module,
    ) == frozenset({"one"})


def test_a_hook_that_may_answer_other_names_is_open() -> None:
    # dramatiq's ``do_*`` prefix, a delegation, falling off the end (returns None), a
    # collection changed after it is written, a loop, a rebound name
    assert (
        answers(
            """
        def __getattr__(self, name):
            if not name.startswith("do_"):
                raise AttributeError(name)
            return self._dispatch(name[3:])
        """
        )
        is None
    )
    assert answers("def __getattr__(self, name):\n    return getattr(self._inner, name)\n") is None
    assert (
        answers(
            """
        def __getattr__(name):
            if name == "a":
                return 1
        """
        )
        is None
    )
    module = """
        KNOWN = {"a": 1}
        KNOWN["b"] = 2
    """
    assert (
        answers(
            """
        def __getattr__(name):
            if name in KNOWN:
                return KNOWN[name]
            raise AttributeError(name)
        """,
            module,
        )
        is None
    )
    assert (
        answers(
            """
        def __getattr__(name):
            for key in ("a",):
                if name == key:
                    return 1
            raise AttributeError(name)
        """
        )
        is None
    )
    assert (
        answers(
            """
        def __getattr__(name):
            name = name.lower()
            if name == "a":
                return 1
            raise AttributeError(name)
        """
        )
        is None
    )
