"""astrag: a symbol-graph map of a codebase for AI coding agents."""

import os

# Set before numpy loads (when astrag is imported first, as by its CLI and MCP server): vector
# search is one matrix-vector product per query, and OpenBLAS's extra threads only spin
# against the query's own thread on a small machine (measured on 2 cores: 0.2 ms for 8.5k x
# 256 single-threaded, 1-4 ms threaded). A caller who set the variable keeps their value.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
