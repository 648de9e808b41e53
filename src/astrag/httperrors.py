"""What an HTTP error from a model endpoint says, for the clients that call one (embeddings,
chat): the server's own message, short, and how long it asked us to wait."""

from __future__ import annotations

import email.utils
import json
import time
import urllib.error


def error_detail(exc: urllib.error.HTTPError, limit: int = 300) -> str:
    """``: <the server's message>`` from an OpenAI- or Anthropic-style error body, at most
    ``limit`` characters; empty when the body says nothing readable."""
    try:
        body = exc.read(4096).decode("utf-8", "replace")
    except OSError:
        return ""
    try:
        parsed = json.loads(body)
        error = parsed.get("error") if isinstance(parsed, dict) else None
        message = (
            (error.get("message") if isinstance(error, dict) else error)
            or parsed.get("message")
            or ""
        )
    except (ValueError, AttributeError):
        message = body
    message = " ".join(str(message).split())[:limit]
    return f": {message}" if message else ""


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
