"""astrag for coding agents: an MCP server over a warm index that stays fresh, and ``watch``.

- ``freshness``  notice changed, added and deleted files cheaply; say how fresh the index is
- ``state``      one repository's open index, check session and freshness, kept warm
- ``tools``      the MCP tools as plain functions: validated inputs, JSON + text answers
- ``text``       the readable text form of each answer, for the model
- ``auth``       bearer-token guard for the HTTP transport
- ``server``     the MCP server (official SDK): tool registration, stdio and streamable HTTP
- ``watch``      ``astrag watch``: the same freshness loop as a standalone process
"""
