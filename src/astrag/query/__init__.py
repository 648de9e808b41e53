"""Answers read from an index: who calls what (with dispatch and unverified candidates), every
use of a symbol, a file's outline, a ranked map of the repository, search hits with code.

Each module is a function of the store (the :class:`~astrag.store.base.GraphStore` protocol)
and plain values; ``astrag.api.Index`` is the face the CLI, the MCP server and Python callers
use.
"""
