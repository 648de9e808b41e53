"""The ``astrag`` process edge: argv in, an exit status out.

Typer prints usage mistakes in a boxed panel and lets anything unexpected end in a traceback.
Here both become what every other astrag error is: one line saying what went wrong, one line
saying what to do, exit status 2. A bug still says which exception it was, and
``ASTRAG_DEBUG=1`` brings the traceback back for a report.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn

import typer
from typer.exceptions import TyperException  # the base of every usage error typer raises

from astrag.cli_errors import write_bug, write_error
from astrag.entry import interrupted
from astrag.errors import AstragError


def run(app: typer.Typer, argv: list[str] | None = None) -> NoReturn:
    tolerant_streams()
    command = typer.main.get_command(app)
    finish(lambda: command.main(args=argv, prog_name="astrag", standalone_mode=False))


def finish(call: Callable[[], object]) -> NoReturn:
    """Run a command and exit with its status, every way it can end made one line and a
    status (``cli_index`` runs ``astrag index`` through this too, without typer's parsing)."""
    try:
        code = call()
    except TyperException as e:  # a usage mistake: a missing argument, an unknown option
        ctx = getattr(e, "ctx", None)
        where = ctx.command_path if ctx is not None else "astrag"
        _fail(e.format_message(), f"{where} --help shows the usage")
    except AstragError as e:  # one raised outside a command's own error handling
        _fail(e.message, e.hint or "astrag --help shows the commands")
    except (typer.Abort, KeyboardInterrupt):
        interrupted()
    except Exception as e:  # the last resort: a bug must not print a wall of Python
        write_bug(e)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str, hint: str) -> NoReturn:
    write_error(message, hint)
    sys.exit(2)


def tolerant_streams() -> None:
    """Text that cannot be encoded for the terminal (a file name with undecodable bytes, an
    odd locale) is printed escaped instead of raising in the middle of an answer."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
