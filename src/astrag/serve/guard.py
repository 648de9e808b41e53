"""Tool arguments checked before any tool runs, and the SDK's schema refusals made readable.

JSON can carry what no tool can use: ``"\\ud800"`` decodes to a lone surrogate, which cannot be
encoded again, so an answer that echoes it back fails to serialise and takes the connection
down with it; ``"\\u0000"`` makes every path call raise. Both are refused here, for every tool
at once (the ones added later included). An argument that does not fit a tool's schema (a
string for a number, a depth of 10**30) is refused by the SDK with pydantic's multi-line
report; it is rewritten as one line per argument and a hint, like every other refusal.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from astrag.arguments import shown, text_argument
from astrag.errors import AstragError


class ToolArgumentError(AstragError):
    """A tool call refused for its arguments before the tool ran."""


def argument_problem(arguments: Mapping[str, Any]) -> ToolArgumentError | None:
    """Why ``arguments`` cannot be used, or None: a string (or key) anywhere in them that is
    not valid Unicode or holds a NUL character."""
    for where, text in _strings(arguments, ""):
        try:
            text_argument(text, f"argument {where or '(a key)'}")
        except AstragError as error:
            return ToolArgumentError(error.message, error.hint)
    return None


def schema_problem(tool: str, error: ValidationError) -> ToolArgumentError:
    """The SDK's validation error for ``tool``'s arguments, one line per argument."""
    parts = []
    for item in error.errors():
        name = ".".join(str(p) for p in item["loc"]) or "arguments"
        got = "" if item["type"] == "missing" else f" (got {shown(repr(item.get('input')), 40)})"
        parts.append(f"{name}: {item['msg']}{got}")
    return ToolArgumentError(
        f"{tool} refused its arguments: {'; '.join(parts)}",
        "send arguments of the types and ranges in the tool's input schema (tools/list)",
    )


def _strings(value: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str):
                yield "", key
                yield from _strings(item, f"{where}.{key}" if where else key)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _strings(item, f"{where}[{i}]")
