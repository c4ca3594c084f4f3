"""HTTP hygiene, as one pure ASGI middleware: a request body limit and the security headers.

- A body over ``max_body_bytes`` is answered ``413`` with the error body: at once when its
  ``Content-Length`` says so, and as soon as that many bytes have arrived when it does not
  (a chunked body); the route never sees it.
- Every HTTP response gets a Content Security Policy that allows no inline script or style
  (the page is ES modules and CSS files), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer`` and framing refused (``frame-ancestors 'none'``,
  ``X-Frame-Options: DENY``). Where studio tables have a video (``--studio-streams``), the
  policy lets the page play it and nothing more (``page_csp``): the streams' origins for media
  and for fetching (hls.js fetches the playlist and segments, then plays them through a
  MediaSource, a ``blob:`` URL); a stream on this server is ``'self'``.
- The API documentation pages (``/docs``, ``/redoc``) load Swagger UI or ReDoc from this
  server (``/static-offline-docs``, the fastapi-offline package's files: no CDN) and start it
  with an inline script. They get a policy of their own that allows exactly the inline scripts
  the server sent (by their SHA-256 hashes, computed from the page itself), never inline script
  in general, and nothing from another origin.
- A redirect never names a host (``Location`` is made relative): the ``Host`` header is the
  client's, and a redirect that echoed it (Starlette's trailing-slash redirect does) would send
  a victim of a forged ``Host`` — or a cache that stored the answer — to another site.
- A private response (the request carries a bearer token, or it is under ``/api/me``,
  ``/api/sessions``, ``/api/accounts``, ``/api/players`` or ``/api/admin``, which hand out
  tokens) gets
  ``Cache-Control: no-store``: no shared cache or back button keeps it.

The ``Server`` header is uvicorn's: ``baccarat serve`` turns it off (``server_header=False``).

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> app = FastAPI()
>>> @app.post("/echo")
... async def echo(body: dict[str, str]) -> dict[str, str]:
...     return body
>>> app.add_middleware(Hygiene, max_body_bytes=100)
>>> client = TestClient(app)
>>> client.post("/echo", json={"a": "b"}).headers["x-content-type-options"]
'nosniff'
>>> client.get("/echo/", headers={"host": "evil.example"}, follow_redirects=False).headers["location"]
'/echo'
>>> big = client.post("/echo", json={"a": "b" * 200})
>>> big.status_code, big.json()["error"]["code"]
(413, 'payload_too_large')
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import re
from collections.abc import Iterable
from urllib.parse import urlsplit, urlunsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from baccarat.refusals import RefusalCode
from baccarat.server.errors import REFUSAL_STATUS, error_body

__all__ = [
    "CSP",
    "DOCS_PATHS",
    "PRIVATE_PREFIXES",
    "Hygiene",
    "docs_csp",
    "page_csp",
    "relative_location",
    "stream_source",
]

_DIRECTIVES = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "connect-src": "'self' ws: wss:",
    "img-src": "'self' data:",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "object-src": "'none'",
}
#: A stream's host and port, as a CSP source may hold them (no space, quote, comma or ';').
_HOST_PORT = re.compile(r"(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?")


def stream_source(url: str) -> str | None:
    """The CSP source of a video stream's origin; None for a path on this server (``'self'``).

    >>> stream_source("https://CDN.example:8443/live/t1.m3u8"), stream_source("/video/t1.m3u8")
    ('https://cdn.example:8443', None)
    >>> stream_source("//cdn.example/t1.m3u8")  # the page's own scheme
    'cdn.example'
    >>> stream_source("https://cdn.example;script-src *")
    Traceback (most recent call last):
    ...
    ValueError: a video stream's address is an http(s) URL or a path, not 'https://cdn.example;script-src *'
    """
    parts = urlsplit(url)
    if not parts.scheme and not parts.netloc and url.startswith("/"):
        return None
    host = parts.netloc.rpartition("@")[2].lower()
    if parts.scheme not in ("http", "https", "") or not _HOST_PORT.fullmatch(host):
        raise ValueError(f"a video stream's address is an http(s) URL or a path, not {url!r}")
    return f"{parts.scheme}://{host}" if parts.scheme else host


def page_csp(streams: Iterable[str] = ()) -> str:
    """The policy of the page, the API and every file the server sends: with the studio tables'
    video streams (``streams``, their URLs), media and fetches from their origins too, and
    media from ``blob:`` (hls.js's MediaSource).

    >>> page_csp() == CSP, "media-src" in CSP
    (True, False)
    >>> policy = page_csp(["https://cdn.example/t1.m3u8", "/video/t2.m3u8"])
    >>> [d for d in policy.split("; ") if d.startswith(("connect-src", "media-src"))]
    ["connect-src 'self' ws: wss: https://cdn.example", "media-src 'self' blob: https://cdn.example"]
    """
    directives = dict(_DIRECTIVES)
    urls = list(streams)
    if urls:
        origins = sorted({s for s in map(stream_source, urls) if s is not None})
        directives["connect-src"] = " ".join([directives["connect-src"], *origins])
        directives["media-src"] = " ".join(["'self'", "blob:", *origins])
    return "; ".join(f"{name} {value}" for name, value in directives.items())


#: The policy of the page, the API and every file the server sends (no studio video).
CSP = page_csp()

#: FastAPI's documentation pages, which need their own inline scripts.
DOCS_PATHS = ("/docs", "/redoc", "/docs/oauth2-redirect")

#: Paths whose answers are private even without a token (they create or hold one).
PRIVATE_PREFIXES = ("/api/me", "/api/sessions", "/api/accounts", "/api/players", "/api/admin")

_COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
_INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


def docs_csp(page: bytes) -> str:
    """The policy of a documentation page: this server's files and its own inline scripts by hash.

    >>> policy = docs_csp(b"<script>go()</script>")
    >>> "'sha256-" in policy, "'unsafe-inline'" in policy.split("script-src")[1].split(";")[0]
    (True, False)
    """
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"
        for body in _INLINE_SCRIPT.findall(page)
    )
    # Styles may be inline here: Swagger UI and ReDoc set them, and a style runs no code.
    return (
        f"default-src 'none'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; worker-src blob:; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'"
    )


def relative_location(location: bytes) -> bytes:
    """A ``Location`` without scheme or host: the path, query and fragment alone, and never
    ``//`` first (which a browser reads as another host).

    >>> relative_location(b"http://evil.example/api/tables?x=1")
    b'/api/tables?x=1'
    >>> relative_location(b"http://evil.example//other.example/x"), relative_location(b"/ok")
    (b'/other.example/x', b'/ok')
    """
    parts = urlsplit(location.decode("latin-1"))
    path = "/" + parts.path.lstrip("/")
    if not parts.scheme and not parts.netloc and parts.path == path:
        return location
    return urlunsplit(("", "", path, parts.query, parts.fragment)).encode("latin-1")


class _TooLargeError(Exception):
    """Raised from ``receive`` once the body passes the limit (caught by the middleware)."""


class Hygiene:
    """The middleware (``app.add_middleware(Hygiene, max_body_bytes=...)``)."""

    def __init__(
        self, app: ASGIApp, max_body_bytes: int = 65_536, streams: Iterable[str] = ()
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        #: The page's policy, with the studio tables' video streams (``page_csp``).
        self.csp = page_csp(streams).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_headers = dict(scope.get("headers") or [])
        path: str = scope.get("path", "")
        private = b"authorization" in request_headers or path.startswith(PRIVATE_PREFIXES)
        declared = request_headers.get(b"content-length", b"").strip()
        if declared.isdigit() and int(declared) > self.max_body_bytes:
            await self._too_large(send)
            return

        limit, received, too_large, started = self.max_body_bytes, 0, False, False
        docs = path in DOCS_PATHS
        held: Message | None = None
        chunks: list[bytes] = []

        async def limited_receive() -> Message:
            nonlocal received, too_large
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    too_large = True
                    raise _TooLargeError
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started, held
            if too_large:
                return  # whatever the route made of the cut body, the answer is 413
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = self._headers(message.get("headers", []), private, docs)
                if docs:
                    held = message
                    return
            elif docs and held is not None and message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                page = b"".join(chunks)
                held["headers"].append((b"content-security-policy", docs_csp(page).encode()))
                await send(held)
                await send({"type": "http.response.body", "body": page})
                return
            await send(message)

        with contextlib.suppress(_TooLargeError):
            await self.app(scope, limited_receive, guarded_send)
        if too_large and not started:
            await self._too_large(send)

    def _headers(
        self, headers: list[tuple[bytes, bytes]], private: bool, docs: bool
    ) -> list[tuple[bytes, bytes]]:
        names = {name.lower() for name, _ in headers}
        out = [
            (n, relative_location(v) if n.lower() == b"location" else v)
            for n, v in headers
            if not (private and n.lower() == b"cache-control")
        ]
        out += [(name, value) for name, value in _COMMON if name not in names]
        if not docs and b"content-security-policy" not in names:
            out.append((b"content-security-policy", self.csp))
        if private:
            out.append((b"cache-control", b"no-store"))
        return out

    async def _too_large(self, send: Send) -> None:
        code = RefusalCode.PAYLOAD_TOO_LARGE
        message = f"the request body is over {self.max_body_bytes} bytes"
        body = json.dumps(error_body(code, message)).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            (b"cache-control", b"no-store"),
            (b"content-security-policy", self.csp),
            *_COMMON,
        ]
        await send(
            {"type": "http.response.start", "status": REFUSAL_STATUS[code], "headers": headers}
        )
        await send({"type": "http.response.body", "body": body})
