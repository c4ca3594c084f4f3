"""Provider mode's wire to an operator's seamless wallet (``docs/wallet.md``).

- ``contract``: the wire contract, pure: signatures, bodies, the outcomes ``Ok``, ``Refused``
  and ``Unknown`` of an answer.
- ``client``: ``WalletClient``, the game server's side of the calls (httpx), which never raises
  for a wallet's trouble.
- ``reference``: a small operator platform with a seamless wallet of its own (FastAPI and its
  own SQLite database), for tests, demos and operators reading how the contract is served.

Importing this package imports neither httpx nor a web framework.
"""
