"""The private members the server reaches into, checked at start: uvicorn's WebSocket protocol
(``wsprotocol.feed_protocol``), its httptools protocol (``edge.edge_protocol``) and ``limits``'
memory storage (``ratelimit.memory_storage``).

With the installed packages (the versions ``pyproject.toml`` pins) every member is there and
the server's own classes are used; a member taken away (as a release might) makes the server
take the plain path, with one warning line that names what is missing.
"""

from __future__ import annotations

import logging
import threading

import pytest
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import Protocol as WebSocketsProtocol

from baccarat.server import Settings, edge, ratelimit, wsprotocol
from baccarat.server.internals import missing_members
from baccarat.server.ratelimit import QuietMemoryStorage, RateLimiter, RateLimitSettings
from baccarat.server.wsprotocol import FeedProtocol


async def _app(scope: object, receive: object, send: object) -> None:
    raise AssertionError("not served")


def _ws_class(ws: object) -> type:
    """The protocol class uvicorn loads for a ``ws`` setting."""
    config = Config(_app, ws=ws)  # type: ignore[arg-type]
    config.load()
    found: type = config.ws_protocol_class  # type: ignore[assignment]
    return found


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_the_installed_uvicorn_has_what_the_feed_protocol_reads(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert wsprotocol.missing_internals() == []
    assert _ws_class(wsprotocol.feed_protocol()) is FeedProtocol
    assert _warnings(caplog) == []


@pytest.mark.parametrize("member", ["on_task_complete", "send_receive_event_to_app"])
def test_a_uvicorn_without_a_method_gets_the_plain_protocol_and_one_warning(
    member: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delattr(WebSocketsSansIOProtocol, member)
    assert wsprotocol.missing_internals() == [member]
    with caplog.at_level(logging.WARNING, logger="baccarat.server"):
        ws = wsprotocol.feed_protocol()
    assert _ws_class(ws) is WebSocketsSansIOProtocol
    [warning] = _warnings(caplog)
    assert member in warning and "plain ASGI path" in warning


def test_an_attribute_the_protocol_no_longer_sets_is_missed(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # uvicorn's protocol as a release that keeps a message's frames otherwise would have it:
    # no method that named ``frames`` (and the message's type) names them.
    def keeps_parts(self: object, *args: object) -> None:
        self.parts = list(args)  # type: ignore[attr-defined]

    for name in ("__init__", "handle_cont", "handle_text", "handle_bytes"):
        monkeypatch.setattr(WebSocketsSansIOProtocol, name, keeps_parts)
    monkeypatch.setattr(WebSocketsSansIOProtocol, "send_receive_event_to_app", keeps_parts)
    assert wsprotocol.missing_internals() == ["curr_msg_data_type", "frames"]
    monkeypatch.delattr(WebSocketsProtocol, "send_close")
    missing = ["curr_msg_data_type", "frames", "conn.send_close"]
    assert wsprotocol.missing_internals() == missing
    with caplog.at_level(logging.WARNING, logger="baccarat.server"):
        assert wsprotocol.feed_protocol() == wsprotocol.PLAIN_PROTOCOL
    assert len(_warnings(caplog)) == 1


def test_the_installed_limits_has_what_the_quiet_storage_overrides(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert ratelimit.missing_internals() == []
    with caplog.at_level(logging.WARNING, logger="baccarat.server"):
        limiter = RateLimiter(RateLimitSettings())
    assert isinstance(limiter._local, MovingWindowRateLimiter)
    assert type(limiter._local.storage) is QuietMemoryStorage
    assert _warnings(caplog) == []


@pytest.mark.parametrize(
    "member", ["_MemoryStorage__schedule_expiry", "_MemoryStorage__expire_events"]
)
def test_each_hook_of_limits_is_checked(member: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(MemoryStorage, member)
    assert ratelimit.missing_internals() == [member]


def test_a_limits_without_the_hook_gets_its_own_storage_and_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # (The limiter is only built here: limits' own hits call the hook taken away.)
    monkeypatch.delattr(MemoryStorage, "_MemoryStorage__schedule_expiry")
    with caplog.at_level(logging.WARNING, logger="baccarat.server"):
        limiter = RateLimiter(RateLimitSettings(login_per_address="2/minute"))
    assert isinstance(limiter._local, MovingWindowRateLimiter)
    assert type(limiter._local.storage) is MemoryStorage
    [warning] = _warnings(caplog)
    assert "_MemoryStorage__schedule_expiry" in warning and "limits" in warning


def test_a_limits_that_no_longer_calls_the_hook_is_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    # A release whose hits schedule the sweep another way: the override would never run.
    def incr(self: MemoryStorage, key: str, expiry: float, amount: int = 1) -> int:
        return amount

    def acquire_entry(
        self: MemoryStorage, key: str, limit: int, expiry: int, amount: int = 1
    ) -> bool:
        return True

    monkeypatch.setattr(MemoryStorage, "incr", incr)
    monkeypatch.setattr(MemoryStorage, "decr", incr)
    monkeypatch.setattr(MemoryStorage, "acquire_entry", acquire_entry)
    assert ratelimit.missing_internals() == ["_MemoryStorage__schedule_expiry"]


def test_the_fallback_storage_still_limits() -> None:
    # What the fallback gives up is only the quieter sweep: the counts are limits' own.
    limiter = MovingWindowRateLimiter(MemoryStorage())
    item = parse("2/minute")
    assert [limiter.hit(item, "k") for _ in range(3)] == [True, True, False]


def test_missing_members_names_methods_and_attributes_in_order() -> None:
    assert missing_members(threading.Timer, methods=["run", "nope"], attributes=["finished"]) == [
        "nope"
    ]


def test_the_installed_uvicorn_has_what_the_edge_protocol_overrides(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert edge.missing_internals() == []
    http, options = edge.edge_protocol(Settings(head_timeout_seconds=3))
    assert http is edge.EdgeProtocol and edge.EdgeProtocol.head_timeout_s == 3
    assert options == {"h11_max_incomplete_event_size": edge.MAX_HEAD_BYTES}
    assert _warnings(caplog) == []


def test_a_uvicorn_without_a_parser_callback_gets_h11_and_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delattr(HttpToolsProtocol, "on_headers_complete")
    assert edge.missing_internals() == ["on_headers_complete"]
    with caplog.at_level(logging.WARNING, logger="baccarat.server"):
        http, options = edge.edge_protocol(Settings())
    # h11 bounds the head itself, and hands trailers to no one.
    assert http == "h11" and options["h11_max_incomplete_event_size"] == edge.MAX_HEAD_BYTES
    [warning] = _warnings(caplog)
    assert "on_headers_complete" in warning and "h11 serves" in warning
