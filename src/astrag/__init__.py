"""astrag: a symbol-graph map of a codebase for AI coding agents."""

__version__ = "0.1.0"
