"""Which of a file's definitions a person's list shows first: the one whose own name carries
the question's words, in the places the file already holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag import api
from astrag.graph.facts import Symbol
from astrag.search.text import same_stem
from astrag.search.within import name_coverage, within_files
from tests.search.conftest import write_project

ROUTING = {
    "web/routing.py": '''
"""URL routing: rules, and the adapter that matches a path to an endpoint."""


class Adapter:
    """Binds the routing rules to one request."""

    def check(self, path):
        """Check whether any routing rule would match the path, without raising.

        Tries to match the URL path against each endpoint's routing rule and reports
        whether the path matched an endpoint.
        """
        try:
            self.match(path)
        except LookupError:
            return False
        return True

    def match(self, path):
        """The endpoint for a path."""
        for rule in self.rules:
            if rule.pattern == path:
                return rule.target
        raise LookupError(path)
''',
    "web/views.py": '''
"""Views."""


def index(request):
    """Render the index page."""
    return "index"
''',
}


def test_the_definition_named_by_the_question_takes_its_files_first_place(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path, ROUTING)
    api.index(root)
    with api.open_index(root) as idx:
        hits = idx.search("how does URL routing match a path to an endpoint", 5)
    # check's docstring repeats every word of the question and scores best; match is the
    # answer by its name. The files hold the same places as before, in the same order.
    assert [h.symbol.id for h in hits] == [
        "web/routing.py::Adapter.match",
        "web/routing.py",
        "web/views.py::index",
        "web/routing.py::Adapter.check",
        "web/routing.py::Adapter",
    ]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("match", "match", True),
        ("valid", "validators", True),  # a prefix of three letters or more
        ("serialize", "serialization", True),  # the same but for their endings
        ("validate", "validation", True),
        ("deserializing", "deserialize", True),
        ("rule", "rules", True),
        ("path", "patch", False),
        ("request", "response", False),
        ("serialize", "series", False),  # four letters in common, not five
    ],
)
def test_one_word_in_two_forms(a: str, b: str, same: bool) -> None:
    assert same_stem(a, b) is same
    assert same_stem(b, a) is same


def test_name_coverage_is_the_share_of_the_questions_words_a_name_carries() -> None:
    words = ["decorate", "request", "reply", "objects"]
    assert name_coverage(words, "decorateRequest") == 0.5
    assert name_coverage(words, "incomingRequest") == 0.25
    assert name_coverage(words, "headers") == 0.0
    assert name_coverage(["serialize", "schema"], "compileSchemasForSerialization") == 1.0
    assert name_coverage([], "anything") == 0.0


def _symbol(sid: str, kind: str = "function") -> Symbol:
    path, _, qual = sid.partition("::")
    return Symbol(sid, kind, qual.rsplit(".", 1)[-1] if qual else path, qual, path)


def test_each_file_keeps_its_places_and_deals_them_by_name() -> None:
    ids = ["a.py::body_heavy", "b.py::other", "a.py", "a.py::parse_form", "a.py::helper"]
    symbols = {sid: _symbol(sid, "module" if "::" not in sid else "function") for sid in ids}
    scores = {sid: 1.0 / (i + 1) for i, sid in enumerate(ids)}
    fused = {"a.py::body_heavy": 0.04, "b.py::other": 0.04, "a.py": 0.03,
             "a.py::parse_form": 0.035, "a.py::helper": 0.02}  # fmt: skip
    out, placed = within_files(ids, scores, fused, symbols, ["parse", "form", "body"])
    # parse_form: 0.035 x (1 + 2/3) = 0.058 > body_heavy: 0.04 x (1 + 1/3) = 0.053; the module and
    # b.py stay where they are, and each place keeps its score
    assert out == ["a.py::parse_form", "b.py::other", "a.py", "a.py::body_heavy", "a.py::helper"]
    assert [placed[sid] for sid in out] == [scores[sid] for sid in ids]
