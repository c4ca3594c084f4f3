"""The browser table: static ES modules and CSS served by ``baccarat serve``.

The page talks only to the public HTTP and WebSocket API; nothing here imports the server.
:func:`baccarat.web.mount.mount_web` adds the page to a FastAPI app.

>>> (STATIC_DIR / "index.html").is_file()
True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATIC_DIR"]

#: The folder of the page's files (``index.html``, ``js/``, ``css/``).
STATIC_DIR = Path(__file__).parent / "static"
