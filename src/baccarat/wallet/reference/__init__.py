"""The reference operator wallet: a small operator platform that serves the seamless-wallet
contract (``docs/wallet.md``) from its own SQLite database, for tests, demos and operators.

- ``schema``: its tables (players, transactions, tombstones) and the engine that opens them.
- ``book``: the contract's server side: idempotency, conflicts, tombstones, the movements.
- ``faults``: the trouble it can be told to make (latency, timeouts, errors, dropped answers).
- ``drop``: closing a connection without an answer, as a crashed wallet would.
- ``app``: the FastAPI application (the signed wallet calls and the loopback-only admin).
- ``serve``: its configuration and ``run`` (``baccarat wallet reference``).
"""
