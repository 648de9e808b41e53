"""A plain command line read without the CLI framework, for the commands that answer before
typer is imported (``check --changed``, ``index``: see cli_check.py and cli_index.py).

Plain means: flags and ``--name VALUE`` / ``--name=VALUE`` options each at most once, and at
most one positional argument where the command takes one. Anything else (``--help``, a typo,
a repeated option, an empty value) is not read here: the caller hands the command line to the
full CLI, which says what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Mapping


def plain_options(
    argv: list[str],
    valued: Mapping[str, str],
    flags: Mapping[str, tuple[str, bool]],
    positional: str | None = None,
) -> dict[str, str | bool] | None:
    """The options of ``argv`` by their keys (``valued``: option -> key; ``flags``: flag ->
    (key, value); ``positional``: the key of the one positional argument, if any), or None
    when the command line is not plain."""
    options: dict[str, str | bool] = {}
    i = 0
    while i < len(argv):
        token = argv[i]
        name, equals, value = token.partition("=")
        if token in flags and flags[token][0] not in options:
            key, flag = flags[token]
            options[key] = flag
        elif name in valued and valued[name] not in options:
            if equals and name.startswith("--"):
                pass
            elif not equals and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
                i += 1
                value = argv[i]
            else:
                return None
            if not value:
                return None
            options[valued[name]] = value
        elif positional and token and not token.startswith("-") and positional not in options:
            options[positional] = token
        else:
            return None
        i += 1
    return options
