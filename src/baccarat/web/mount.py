"""Serve the browser table from a FastAPI app: ``/`` is the page, ``/admin`` the back office,
``/studio`` the dealer's console of a studio table, ``/static/...`` their files.

The page is plain ES modules and CSS: no build step, nothing fetched from elsewhere.

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> app = FastAPI()
>>> mount_web(app)
>>> client = TestClient(app)
>>> page = client.get("/")
>>> page.status_code, page.headers["content-type"], "/static/js/main.js" in page.text
(200, 'text/html; charset=utf-8', True)
>>> module = client.get("/static/js/main.js")
>>> module.headers["cache-control"], module.headers["content-encoding"]
('no-cache', 'gzip')
>>> client.get("/static/nope.js").status_code
404
>>> "/static/js/main.js" in client.get("/launch?token=abc").text  # an operator's launch link
True
>>> "/static/js/admin/main.js" in client.get("/admin").text
True
>>> "/static/js/studio/main.js" in client.get("/studio").text
True
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.types import Scope

from baccarat.web import STATIC_DIR

__all__ = ["mount_web"]

# Revalidate on every load (the ETag makes that cheap): after an upgrade a browser must not
# mix cached modules of the old page with new ones.
_NO_CACHE = {"Cache-Control": "no-cache"}


class _StaticFiles(StaticFiles):
    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(_NO_CACHE)
        return response


def _page(file: Path) -> Callable[[], Awaitable[FileResponse]]:
    async def page() -> FileResponse:
        return FileResponse(file, media_type="text/html; charset=utf-8", headers=_NO_CACHE)

    return page


def mount_web(app: FastAPI, directory: Path = STATIC_DIR) -> None:
    """Add the page (``GET /``, ``directory/index.html``; also ``GET /launch``), the back
    office (``GET /admin``, ``admin.html``), the dealer's console (``GET /studio``,
    ``studio.html``) and their files (``/static``, the rest of ``directory``) to ``app``; kept
    out of the OpenAPI schema."""
    pages = (
        ("/", "index.html"),
        # An operator's launch link (provider mode): the page trades its token (js/launch.js).
        ("/launch", "index.html"),
        ("/admin", "admin.html"),
        ("/studio", "studio.html"),
    )
    for path, name in pages:
        app.add_api_route(path, _page(directory / name), methods=["GET"], include_in_schema=False)
    # Compressed on the wire when the browser accepts gzip (the modules and style sheets are
    # text: about a quarter of their size); headers such as Cache-Control, the ETag and the
    # security headers added around the app are kept.
    files = GZipMiddleware(_StaticFiles(directory=directory, check_dir=False), minimum_size=512)
    app.mount("/static", files, name="static")
