"""A studio table's shoe device: what sits between a card-reading shoe and the server.

The server's side is ``docs/studio.md`` (``POST /api/studio/tables/{table}/cards``); this package
is the device's, and speaks to the server over HTTP only:

- ``lines``: one line of a serial shoe (``<sequence> <card>``) read into a card read, or why not.
- ``client``: ``DeviceClient`` pushes one read, retrying with the same ``scan_id`` until the
  server answers; a refusal is never retried.
- ``forward``: the serial forwarder's loop (``baccarat studio shoe``).
- ``physical``: an eight-deck shoe of real cards, shuffled by the OS CSPRNG, drawn in order.
- ``robot``: a dealer robot that deals such a shoe through the device (``baccarat studio robot``).

``lines`` and ``physical`` need only the rules core; ``client``, ``forward`` and ``robot`` need
the ``device`` extra (httpx, pyserial), imported by the commands when they run.
"""
