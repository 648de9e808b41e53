"""``astrag web``: a local web view of the symbol graph, a face over ``astrag.api`` like the CLI
and the MCP server (see docs/ARCHITECTURE.md, "The web view")."""
