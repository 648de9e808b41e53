"""The command line's conventions, end to end on the real ``astrag`` command: text for a pipe is
one whole record a line, tables only on a terminal, ``--version``/``-h``/completion, every
error one line plus a hint with status 2 (bad paths, bad bytes, usage mistakes), "did you
mean", and an index summary that names what it could not read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from astrag import __version__
from tests.cli_run import BASE_ENV, on_terminal, run

# Longer than any terminal: a pipe must carry them whole, a table must fold, not cut them.
LONG_DIR = "a_package_whose_name_is_long_enough_to_overflow_an_eighty_column_terminal_alone"
LONG_FN = "a_function_whose_name_is_also_far_too_long_for_one_column_of_an_eighty_column_table"
LONG_FILE = f"{LONG_DIR}/{LONG_DIR}_module.py"

FILES = {
    f"{LONG_DIR}/__init__.py": "",
    LONG_FILE: f'''def {LONG_FN}(value: int) -> int:
    """Double a value."""
    return value * 2


def caller_of_the_long_function() -> int:
    return {LONG_FN}(21)
''',
    "broken.py": "def broken(:\n    pass\n\n\ndef still_found() -> None:\n    pass\n",
    "web/app.min.js": "var a=1;" * 50 + "\n",
    ".env": "API_KEY=not-a-real-key\n",
}

ENV = {**BASE_ENV, "ASTRAG_STORE": "sqlite"}


def astrag(*args: str, **kw: object):  # type: ignore[no-untyped-def]
    return run(*args, env=kw.pop("env", ENV), **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("conventions").resolve()
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / ".git").mkdir()  # a work tree, as far as finding the project goes
    result = astrag("index", str(root), "--format", "json")
    assert result.returncode == 0, result.stderr
    return root


def one_error(result) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """The (message, hint) of a refusal, which must be exactly two lines and status 2."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 2, result.stderr
    assert lines[0].startswith("error: ") and lines[1].startswith("hint: "), result.stderr
    return lines[0].removeprefix("error: "), lines[1].removeprefix("hint: ")


# ------------------------------------------------------------------- version, help, completion


def test_version_and_short_help() -> None:
    for flag in ("--version", "-V"):
        result = astrag(flag)
        assert (result.returncode, result.stdout) == (0, f"astrag {__version__}\n")
    for args in (["-h"], ["--help"], ["search", "-h"], ["install-agent", "-h"]):
        result = astrag(*args)
        assert result.returncode == 0, result.stderr
        assert "Usage: astrag" in result.stdout


def test_shell_completion_script_and_answers() -> None:
    # the script ``--show-completion`` prints for the shell it detects among its parent
    # processes, asked for by name: a job a shell started in the background has no such parent
    script = astrag(env={**ENV, "_ASTRAG_COMPLETE": "source_bash"})
    assert script.returncode == 0, script.stderr
    assert "_ASTRAG_COMPLETE" in script.stdout and "complete -o" in script.stdout
    env = {
        **ENV,
        "_ASTRAG_COMPLETE": "complete_bash",
        "COMP_WORDS": "astrag inst",
        "COMP_CWORD": "1",
    }
    assert astrag(env=env).stdout.split() == ["install-agent"]
    env.update(COMP_WORDS="astrag install-agent c", COMP_CWORD="2")
    assert astrag(env=env).stdout.split() == ["claude", "cursor", "codex", "continue"]


def test_usage_mistakes_are_one_line_and_a_hint() -> None:
    assert one_error(astrag("search")) == (
        "Missing argument 'query'.",
        "astrag search --help shows the usage",
    )
    message, hint = one_error(astrag("search", "x", "--frmat", "json"))
    assert message.startswith("No such option: --frmat") and "--format" in message
    assert hint == "astrag search --help shows the usage"
    assert one_error(astrag("nosuch"))[0] == "No such command 'nosuch'."
    assert "--limit" in one_error(astrag("search", "x", "--limit", "0"))[0]


# ------------------------------------------------------------------- piped text: one record a line


def test_piped_search_is_one_whole_record_a_line(repo: Path) -> None:
    result = astrag("search", LONG_FN, "--repo", str(repo), "--mode", "lexical")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    rank, score, kind, symbol, location, found_by, signature = lines[0].split("\t")
    assert (rank, kind, symbol, found_by) == ("1", "function", LONG_FN, "lexical")
    assert location == f"{LONG_FILE}:1-3"
    assert signature.startswith(f"def {LONG_FN}(")
    float(score)
    assert all(len(line.split("\t")) == 7 for line in lines)
    assert "…" not in result.stdout and "│" not in result.stdout


def test_piped_callers_and_stats_are_records(repo: Path) -> None:
    result = astrag("callers", LONG_FN, "--repo", str(repo))
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        f"1\tcaller_of_the_long_function\tfunction\t{LONG_FILE}:6\t7\tdirect\n"
    )
    none = astrag("callers", "caller_of_the_long_function", "--repo", str(repo))
    assert none.returncode == 0 and none.stdout == ""  # the remark goes to stderr
    assert "no callers of" in none.stderr
    stats = astrag("stats", "--repo", str(repo))
    rows = dict(line.split("\t") for line in stats.stdout.splitlines())
    assert (rows["files"], rows["parse_errors"], rows["files_with_errors"]) == ("3", "1", "1")


def test_piped_check_findings_are_one_a_line(repo: Path) -> None:
    # a message longer than 80 columns, which a console would wrap onto a second line
    snippet = f"{LONG_FN}(1)\n{LONG_FN}_typo(2)\nanother_missing_function_with_a_long_name()\n"
    result = astrag("check", "-", "--repo", str(repo), "--path", LONG_FILE, stdin=snippet.encode())
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2, result.stdout
    assert lines[0].startswith(f"{LONG_FILE}:2:1 unknown-function ")
    assert f"(did you mean {LONG_FN}?)" in lines[0] and len(lines[0]) > 200
    assert lines[1].startswith(f"{LONG_FILE}:3:1 unknown-function ")


def test_piped_show_lists_every_relation(tmp_path: Path) -> None:
    # ten callers: a terminal shows the first eight and "…", a pipe shows all of them
    callers = "".join(f"def caller_{i}():\n    target()\n\n\n" for i in range(10))
    (tmp_path / "m.py").write_text("def target():\n    pass\n\n\n" + callers)
    assert astrag("index", str(tmp_path), "--no-embed").returncode == 0
    piped = astrag("show", "target", "--repo", str(tmp_path))
    line = next(x for x in piped.stdout.splitlines() if x.startswith("  ← calls"))
    assert line == "  ← calls (10): " + ", ".join(sorted(f"m.py::caller_{i}" for i in range(10)))
    status, shown = on_terminal("show", "target", "--repo", str(tmp_path), env=ENV)
    assert status == 0
    assert "← calls (10): m.py::caller_0" in shown and "m.py::caller_7 …" in shown


def test_index_summary_names_the_files_it_could_not_read(repo: Path) -> None:
    result = astrag("index", str(repo))
    assert result.returncode == 0, result.stderr
    rows = dict(line.split("\t") for line in result.stdout.splitlines())
    assert rows["parse errors"] == "1 in 1 files: broken.py"
    assert rows["skipped"] == "minified 1 (web/app.min.js); secret 1 (.env)"
    assert rows["calls"] == (
        "100.0% to repository symbols, 0.0% external, 0.0% unresolved  (1 calls)"
    )
    summary = json.loads(astrag("index", str(repo), "--format", "json").stdout)
    assert summary["error_files"] == ["broken.py"]
    assert summary["call_rates"] == {
        "repository": 1.0,
        "name": 0.0,
        "external": 0.0,
        "unresolved": 0.0,
    }


# ------------------------------------------------------------------- on a terminal: tables


def test_terminal_gets_tables_that_fold_long_names(repo: Path) -> None:
    status, shown = on_terminal("callers", LONG_FN, "--repo", str(repo), env=ENV, columns=100)
    assert status == 0
    assert shown.startswith("callers of")  # the title (it folds too)
    assert "┃ symbol" in shown and "…" not in shown
    # folded, not cut: the path's pieces, read across the table's lines, are all there
    cells = "".join(
        line.split("│")[4].strip() for line in shown.splitlines() if line.count("│") == 7
    )
    assert f"{LONG_FILE}:6" in cells
    # a person's search shows each hit whole, with its code below it
    status, shown = on_terminal(
        "search", LONG_FN, "--repo", str(repo), "--mode", "lexical", env=ENV, columns=100
    )
    assert status == 0 and "…" not in shown
    assert f"1. function {LONG_FN}  {LONG_FILE}:1-3" in shown
    assert f"     def {LONG_FN}(" in shown
    status, shown = on_terminal("index", str(repo), env=ENV)
    assert status == 0 and f"astrag index · {repo}" in shown
    assert "│ parse errors │ 1 in 1 files: broken.py" in shown


# ------------------------------------------------------------------- errors: one line and a hint


def test_unknown_symbol_says_what_it_might_have_meant(repo: Path) -> None:
    message, hint = one_error(astrag("show", "caller_of_the_long_functon", "--repo", str(repo)))
    assert message == "no symbol matches 'caller_of_the_long_functon'"
    assert hint.startswith("did you mean caller_of_the_long_function?")
    data = json.loads(astrag("callers", "Broken", "--repo", str(repo), "--format", "json").stdout)
    assert data["suggestions"] == ["broken"]  # differs only in case: the one suggestion


def test_export_to_a_missing_folder_or_onto_a_folder(repo: Path, tmp_path: Path) -> None:
    message, hint = one_error(astrag("export", "--repo", str(repo), "-o", "missing/dir/g.jsonl"))
    assert message == "cannot write missing/dir/g.jsonl: the folder missing/dir does not exist"
    assert "mkdir -p missing/dir" in hint
    assert one_error(astrag("export", "--repo", str(repo), "-o", str(tmp_path)))[0] == (
        f"{tmp_path} is a directory"
    )
    # a good path is written whole, and replaces what was there only once complete
    out = tmp_path / "graph.jsonl"
    out.write_text("old\n")
    assert astrag("export", "--repo", str(repo), "-o", str(out)).returncode == 0
    assert out.read_text().startswith('{"type": "node"') and os.listdir(tmp_path) == [out.name]


def test_bytes_that_are_not_utf8(repo: Path) -> None:
    message, hint = one_error(
        astrag("check", "-", "--repo", str(repo), "--lang", "python", stdin=b"x = '\xff'\n")
    )
    assert message == "stdin is not UTF-8 text (byte 0xff at offset 5, line 1)"
    assert "iconv" in hint
    # argv bytes that are not UTF-8 (a query typed in another encoding)
    env = {**ENV, "PYTHONUTF8": "1"}
    query = os.fsdecode(b"caf\xe9")
    message, _ = one_error(astrag("search", query, "--repo", str(repo), env=env))
    assert message == "the query is not valid UTF-8: caf\\udce9"
    message, _ = one_error(astrag("show", query, "--repo", str(repo), env=env))
    assert message == "the symbol is not valid UTF-8: caf\\udce9"


def test_paths_the_filesystem_refuses(repo: Path) -> None:
    too_long = "d/" * 2100 + "f.py"
    message, _ = one_error(astrag("check", too_long, "--repo", str(repo)))
    assert message.startswith("the file to check is 4,") and "more than a path can be" in message
    long_name = "n" * 300 + ".py"
    message, _ = one_error(
        astrag("check", "-", "--repo", str(repo), "--path", long_name, stdin=b"x = 1\n")
    )
    assert message.startswith("the path has a name longer than 255 bytes")
    message, _ = one_error(astrag("stats", "--repo", "r" * 300))
    assert message.startswith("--repo has a name longer than 255 bytes")
    assert one_error(astrag("index", "p" * 300))[0].startswith("PATH has a name longer")


def test_context_takes_format_text(repo: Path) -> None:
    as_text = astrag("context", "double a value", "--repo", str(repo), "--format", "text")
    as_md = astrag("context", "double a value", "--repo", str(repo), "--format", "md")
    assert as_text.returncode == 0, as_text.stderr
    assert as_text.stdout == as_md.stdout and LONG_FN in as_text.stdout


# A real SIGINT delivered at the moment the console script starts importing the CLI: the
# finder signals its own process, and the interrupt lands inside that import.
_CTRL_C_DURING_IMPORT = """
import os, signal, sys
import astrag.entry

# as on a terminal: a job started in the background by a shell without job control (a CI
# step, ``cmd &`` in a script) inherits SIGINT ignored, and Python then installs no handler
signal.signal(signal.SIGINT, signal.default_int_handler)

class CtrlCOnCliImport:
    def find_spec(self, name, path=None, target=None):
        if name == "astrag.cli":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlCOnCliImport())
sys.argv = ["astrag", "--version"]
astrag.entry.main()
"""


def test_ctrl_c_while_the_cli_is_still_importing_is_one_line_and_status_130() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _CTRL_C_DURING_IMPORT], env=BASE_ENV, capture_output=True, text=True
    )
    assert (result.returncode, result.stdout, result.stderr) == (130, "", "astrag: interrupted\n")


def test_the_console_script_runs_the_cli() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, astrag.entry; sys.argv = ['astrag', '--version']; astrag.entry.main()",
        ],
        env=BASE_ENV,
        capture_output=True,
        text=True,
    )
    assert (result.returncode, result.stdout) == (0, f"astrag {__version__}\n")


def test_python_dash_m_runs_the_cli() -> None:
    # Both spellings: the package (what the README shows) and the console script's own module.
    for module in ("astrag", "astrag.entry"):
        result = subprocess.run(
            [sys.executable, "-m", module, "--version"],
            env=BASE_ENV,
            capture_output=True,
            text=True,
        )
        assert (result.returncode, result.stdout) == (0, f"astrag {__version__}\n"), module
