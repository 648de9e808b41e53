"""``astrag check --changed`` into a pipe, without the CLI framework.

An agent runs ``astrag check --changed`` after every edit and reads its output from a pipe.
Parsing that one command line with typer costs more than the check of a small edit's syntax:
typer, pydantic's adapters typer builds for each option, and rich's consoles (≈ 0.2 s of CPU of
the ≈ 1.4 s a first check of a 10-file edit takes in a 120k-line repository). Here that
command line is recognised by hand and answered with the same lines, JSON, SARIF, errors and
exit status as ``cli.check``; any other command line, and output to a terminal (where rich's
colours and layout apply), goes through the full CLI (:func:`fast_check` answers None).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from astrag.cli_plain import plain_options

_FORMATS = ("text", "json", "sarif")
_VALUED = {"--base": "base", "--repo": "repo", "--format": "format", "-f": "format"}
_FLAGS = {"--changed": ("changed", True)}


def parse(argv: list[str]) -> dict[str, str] | None:
    """The options of ``check ARGV`` when they are ``--changed`` with any of ``--base REF``,
    ``--repo DIR`` and ``--format text|json|sarif`` (each at most once); None for anything
    else (a file or snippet to check, ``--help``, a mistake), which the full CLI answers."""
    options = plain_options(argv, _VALUED, _FLAGS)
    if options is None or not options.pop("changed", False):
        return None
    if options.get("format", "text") not in _FORMATS:
        return None
    return {key: str(value) for key, value in options.items()}


def fast_check(argv: list[str]) -> int | None:
    """The exit status of ``astrag check ARGV`` answered here, or None when the full CLI
    must answer it (see the module's docstring)."""
    if sys.stdout.isatty() or sys.stderr.isatty():
        return None
    options = parse(argv)
    if options is None:
        return None
    fmt = options.get("format", "text")
    from astrag.cli_errors import error_json, write_bug, write_error
    from astrag.errors import AstragError

    try:
        return _run(options, fmt)
    except AstragError as e:
        if fmt != "text":
            _emit_json(error_json(e))
        else:
            write_error(e.message, e.hint)
        return 2
    except Exception as e:  # as cli_main: one line, never a wall of Python
        write_bug(e)
        return 2


def _run(options: dict[str, str], fmt: str) -> int:
    from astrag import api
    from astrag.cli_errors import checked_dir

    repo = options.get("repo")
    root = api.find_root(None) if repo is None else checked_dir(Path(repo), "--repo")
    report = api.check(root, "", changed=True, base=options.get("base"), refresh=True)
    if report.warning:
        sys.stderr.write(f"warning: {report.warning}\n")
    if fmt != "text":
        from astrag import present

        data = present.check_json(report) if fmt == "json" else present.check_sarif(report)
        _emit_json(data)
    else:
        from astrag.verify.findings import severity_tag

        sys.stdout.write(  # one a line, whole, however long
            "".join(
                f"{f.path}:{f.line}:{f.column} {f.rule}{severity_tag(f)} {f.message}\n"
                for f in report.findings
            )
        )
        sys.stdout.flush()
        sys.stderr.write(report.summary() + "\n")
    return 1 if report.failed else 0


def _emit_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
