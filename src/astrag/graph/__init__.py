"""The symbol graph: facts from the frontends, module resolution, and cross-file resolution."""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources


@cache
def resolver_fingerprint() -> str:
    """Changes whenever resolution code changes, so stored edges are re-resolved."""
    digest = hashlib.blake2b(digest_size=12)
    package = resources.files("astrag.graph")
    for name in ("facts.py", "modules.py", "resolve.py", "symbols.py"):
        digest.update(package.joinpath(name).read_bytes())
    return digest.hexdigest()
