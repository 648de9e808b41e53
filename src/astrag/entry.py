"""The ``astrag`` console script.

Importing the CLI (typer, rich, the API and the language rooms) takes most of a second, and a
Ctrl-C in that second used to end in a Python traceback: ``cli_main.run`` turns an interrupt
into one line and exit status 130 only once it is running. This module imports nothing heavy,
so the same answer covers the import too.
"""

from __future__ import annotations

import sys
from typing import NoReturn

INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for Ctrl-C


def interrupted() -> NoReturn:
    """How every Ctrl-C ends, during the import here or in a running command (cli_main)."""
    sys.stderr.write("astrag: interrupted\n")
    sys.exit(INTERRUPTED)


def main() -> None:
    try:
        if sys.argv[1:2] == ["check"]:  # the call after every edit: no CLI framework
            from astrag.cli_check import fast_check

            code = fast_check(sys.argv[2:])
            if code is not None:
                sys.exit(code)
        if sys.argv[1:2] == ["index"]:  # before the parser processes start: no typer parsing
            from astrag.cli_index import fast_index

            fast_index(sys.argv[2:])  # exits, unless the full CLI must read the command line
        from astrag.cli import main as cli
    except KeyboardInterrupt:
        interrupted()
    cli()


if __name__ == "__main__":  # ``python -m astrag.entry``, which some guides spell out
    main()
