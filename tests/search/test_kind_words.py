"""A question's word for a kind of definition ("class", "function", Go's "struct") says what
kind of thing is meant, not which one: search does not look for it. Go writes every struct
type with ``struct`` (``type BindingError struct``), so a question's "struct" would otherwise
meet every struct type of the repository."""

from __future__ import annotations

from pathlib import Path

from astrag import api
from astrag.lang import question_kind_words
from astrag.search.text import query_words
from tests.search.conftest import write_project

# what a struct type shares with the question is its keyword: a few struct types among many
# functions, as in a web framework, so that "struct" is a rare word of the repository
_HANDLERS = "\n".join(
    f"// Serve{n} writes the {n} page.\nfunc Serve{n}(w io.Writer) {{ w.Write(nil) }}\n"
    for n in ("Index", "About", "Login", "Logout", "Profile", "Search", "Upload", "Health",
              "Metrics", "Status", "Admin", "Feed", "Help", "Terms", "Privacy", "Contact")
)  # fmt: skip
BINDER = {
    "go.mod": "module example.com/web\n\ngo 1.22\n",
    "bind.go": """
        package web

        import (
            "encoding/json"
            "net/http"
        )

        // BindBody binds the request body to a target value, decoding JSON.
        func BindBody(r *http.Request, target any) error {
            return json.NewDecoder(r.Body).Decode(target)
        }
        """,
    "errors.go": """
        package web

        // BindingError is what binding reports when a request value cannot be bound.
        type BindingError struct {
            Field string
        }
        """,
    "middleware.go": """
        package web

        // BodyLimitConfig configures the middleware that limits a request body's size.
        type BodyLimitConfig struct {
            Limit int64
        }
        """,
    "geometry.go": """
        package web

        // Point is a place on a page.
        type Point struct {
            X, Y int
        }
        """,
    "pages.go": 'package web\n\nimport "io"\n\n' + _HANDLERS,
}


def test_the_go_room_gives_its_kind_words_to_the_questions_stop_words() -> None:
    assert {"struct", "func"} <= question_kind_words()
    assert query_words("bind request body to struct") == ["bind", "request", "body"]
    # a name holding the word keeps it in its joined form
    assert query_words("bindStructMeta") == ["bind", "meta", "bindstructmeta"]


def test_a_question_s_struct_does_not_meet_every_struct_type(tmp_path: Path) -> None:
    root = write_project(tmp_path, BINDER)
    api.index(root)
    with api.open_index(root) as idx:
        lexical = idx.search("bind request body to struct", 20, mode="lexical")
        hits = idx.search("bind request body to struct", 3)
    # Point shares nothing with the question but the keyword it is declared with
    assert [h.symbol.id for h in lexical] == [
        "bind.go::BindBody",
        "errors.go::BindingError",
        "middleware.go::BodyLimitConfig",
        "bind.go",
        "errors.go",
        "middleware.go",
    ]
    assert {h.matched for h in hits} == {"bind request body"}
    assert hits[0].symbol.id == "bind.go::BindBody"
