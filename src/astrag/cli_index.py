"""``astrag index`` without the CLI framework's argument parsing.

Typer coerces each option through a pydantic adapter that it imports and builds while it parses
the command line: 0.065 CPU s, spent before the index run can start its parser processes (a
cold etcd index takes about 3 s in all). The plain command lines of ``astrag index`` (a path,
``--rebuild``/``--no-rebuild``, ``--no-embed``, ``--jobs N``, ``--embedder X``, ``--store X``,
``--format text|json``, each at most once) are recognised here and handed to the same command
function, ``cli.index``, under the same error handling as ``cli_main.run``; any other command
line (``--help``, a mistake, an unusual spelling) goes through the full CLI. A run that
succeeded ends without the interpreter's teardown.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from astrag.cli_plain import plain_options

_FLAGS = {"--rebuild": ("rebuild", True), "--no-rebuild": ("rebuild", False)}
_FLAGS["--no-embed"] = ("no_embed", True)
_VALUED = {"--jobs": "jobs", "--embedder": "embedder", "--store": "store"}
_VALUED |= {"--format": "fmt", "-f": "fmt"}
_FORMATS = ("text", "json")


def parse(argv: list[str]) -> dict[str, Any] | None:
    """``cli.index``'s keyword arguments for ``astrag index ARGV``, or None when the full CLI
    must read the command line (see the module's docstring)."""
    options: dict[str, Any] | None = plain_options(argv, _VALUED, _FLAGS, positional="path")
    if options is None:
        return None
    jobs = options.get("jobs")
    if jobs is not None:
        if not (jobs.isascii() and jobs.isdigit()):
            return None
        options["jobs"] = int(jobs)
    if options.get("fmt", "text") not in _FORMATS:
        return None
    return options


def fast_index(argv: list[str]) -> None:
    """Run ``astrag index ARGV`` and exit, or return when the full CLI must answer it."""
    options = parse(argv)
    if options is None:
        return
    import typer

    from astrag.cli import index
    from astrag.cli_main import finish, tolerant_streams
    from astrag.cli_shared import Fmt

    options["path"] = Path(options.get("path", "."))
    options["fmt"] = Fmt(options.get("fmt", "text"))

    def command() -> int:
        try:
            index(**options)
        except typer.Exit as done:  # how the command ends with a status of its own
            return int(done.exit_code)
        return 0

    tolerant_streams()
    try:
        finish(command)
    except SystemExit as done:
        if done.code != 0:
            raise
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: the interpreter's own exit reports it
        sys.exit(0)
    # The index is published, its store closed, every process and thread the run started
    # ended: exit without tearing the interpreter down, which freed every module's objects and
    # the compiled grammars one by one after all was done (medusa: 0.04-0.09 s).
    os._exit(0)
