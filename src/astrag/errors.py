"""The one exception family astrag raises on purpose.

Every error a user can act on derives from :class:`AstragError` and carries a ``hint``: one
sentence saying what to do next. The CLI prints the message, then the hint; library callers can
catch ``AstragError`` to tell "astrag refused, and why" from a bug.
"""

from __future__ import annotations


class AstragError(Exception):
    """An error the user can fix; ``str(err)`` says what went wrong, ``err.hint`` what to do."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class ConfigError(AstragError):
    """``.astrag.toml`` or an ``ASTRAG_*`` environment variable is unusable."""
