"""The symbol graph: facts from the frontends, and the language-neutral cross-file resolver."""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources


@cache
def resolver_fingerprint() -> str:
    """Changes whenever resolution code changes (here or in a language room's semantics,
    module system or layout reader), so stored edges are re-resolved."""
    from astrag.lang import resolution_sources

    digest = hashlib.blake2b(digest_size=12)
    package = resources.files("astrag.graph")
    for entry in sorted(package.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".py"):
            digest.update(entry.read_bytes())
    for source in resolution_sources():
        digest.update(source)
    return digest.hexdigest()
