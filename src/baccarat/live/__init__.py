"""The table runtime: live tables dealt card by card, without HTTP.

A table's runtime is its ``Dealer`` (``dealer``): it keeps the table's time (betting windows,
reveals, results), asks the table's card source for each card (``baccarat.table.sources``),
hands every step to the round's state machine and the store, recovers after a restart, starts
and ends shoes, and writes only under its lease in a cluster (``lease_keeper``: which tables a
node deals, and the fence). It takes typed commands (``commands``) through a command channel
(``channel``: in memory; ``redis_channel``: between the nodes of a cluster) and publishes
typed events (``events``) to its subscribers through its live table (``table``: what the table
shows). Observers of its steps (``observers``) are awaited where the dealer is; only the crash
tests install one.

The package imports no web framework (FastAPI, Starlette, uvicorn) and nothing of
``baccarat.server``: the server is its adapter (HTTP and WebSocket in, commands to the
runtime, events out), checked by the import contracts in ``pyproject.toml``.
"""
