"""bench/honesty.py: which methods need unknown-receiver candidates, and whether they got them."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from astrag import api
from astrag.cli import app

_PATH = Path(__file__).resolve().parents[2] / "bench" / "honesty.py"
_spec = importlib.util.spec_from_file_location("honesty", _PATH)
assert _spec is not None and _spec.loader is not None
honesty = importlib.util.module_from_spec(_spec)
sys.modules["honesty"] = honesty
_spec.loader.exec_module(honesty)


def _export(*records: dict) -> list[str]:
    return [json.dumps(r) for r in records]


def _node(id: str, kind: str = "method") -> dict:
    name = id.rsplit(".", 1)[-1].rsplit("::", 1)[-1]
    return {"type": "node", "id": id, "kind": kind, "name": name, "path": id.split("::")[0]}


def _calls(target: str, path: str, line: int) -> dict:
    return {"type": "edge", "kind": "calls", "source": path, "target": target} | {
        "path": path,
        "line": line,
        "column": 1,
    }


def test_questions_are_uncalled_callables_whose_name_an_unknown_receiver_calls() -> None:
    export = _export(
        _node("r.py::Route.matches"),
        _node("r.py::Mount.matches"),
        _node("r.py::Router.app"),  # called: no question
        _node("r.py::Route.unused"),  # nobody calls .unused(: no question
        _node("r.py::Route", kind="class"),
        _calls("unresolved::?.matches", "r.py", 733),
        _calls("unresolved::?.matches", "r.py", 740),
        _calls("r.py::Router.app", "m.py", 3),
        _calls("unresolved::?.app", "m.py", 9),
    )
    asked = honesty.questions(export)
    assert [(q.symbol, q.sites) for q in asked] == [
        ("r.py::Mount.matches", [("r.py", 733), ("r.py", 740)]),
        ("r.py::Route.matches", [("r.py", 733), ("r.py", 740)]),
    ]


def test_sites_are_found_in_any_shape_of_answer() -> None:
    answer = {
        "symbol": {"id": "r.py::Route.matches", "path": "r.py", "start_line": 200},
        "results": [
            {"relation": "candidate", "edge": {"path": "r.py", "line": 733}},
            {"where": "r.py:740"},
            {"file": "s.py", "line": 4},
        ],
    }
    assert honesty.sites_named(answer) == {("r.py", 733), ("r.py", 740), ("s.py", 4)}
    assert honesty.sites_named({"symbol": {"path": "r.py", "start_line": 1}}) == set()


def test_sample_keeps_every_kth() -> None:
    items = [honesty.Question(str(i), "m", []) for i in range(10)]
    assert [q.symbol for q in honesty.sample(items, 4)] == ["0", "3", "6", "9"]
    assert honesty.sample(items, None) == items


def test_the_real_cli_is_asked_and_its_answer_judged(tmp_path: Path) -> None:
    (tmp_path / "res.js").write_text(
        "var res = module.exports = {};\n"
        "res.send = function send(body) { return body; };\n"
        "function reply(r) { return r.send(1); }\n"
        "module.exports.reply = reply;\n"
    )
    api.index(tmp_path, embedder="none")
    export = tmp_path / "export.jsonl"
    done = CliRunner().invoke(app, ["export", "--repo", str(tmp_path), "-o", str(export)])
    assert done.exit_code == 0, done.output
    asked = honesty.questions(export.read_text().splitlines())
    assert [(q.symbol, q.sites) for q in asked] == [("res.js::res.send", [("res.js", 3)])]
    answer = honesty.callers_json_in_process(tmp_path, "res.js::res.send")
    assert answer["symbol"]["id"] == "res.js::res.send"
    outcome = honesty.evaluate(tmp_path, asked, use_subprocess=False)
    assert outcome.questions == 1
    assert outcome.mentioned == (1 if ("res.js", 3) in honesty.sites_named(answer) else 0)
