"""WebSocket garbage against a real server: every bad connection or frame is closed with a
proper code and a reason that fits a close frame, and the server's log shows no traceback.

Close codes: 4404 no such table, 4401 a ticket nobody issued, 1007 a text frame that is not
UTF-8, 1003 a binary frame (the feed is one-way), 1009 a frame past the size limit. Text
messages (JSON or not) are read and ignored: the connection stays up.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from serving import ServerProcess
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

#: A close frame's payload is at most 125 bytes: a 2-byte code and a 123-byte reason.
MAX_REASON_BYTES = 123


@pytest.fixture(scope="module")
def server(module_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(module_db_url, tmp_path_factory.mktemp("ws"))
    process.start()
    try:
        yield process
    finally:
        process.stop()
    assert "Traceback" not in process.stderr_text(), process.stderr_text()[-3000:]


def closed_with(feed: ClientConnection) -> tuple[int, str]:
    """Read until the server closes; its close code and reason."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            feed.recv(timeout=10)
        except ConnectionClosed as closed:
            received = closed.rcvd
            assert received is not None, "the server dropped the connection, no close frame"
            return received.code, received.reason
    raise AssertionError("the server did not close the connection")


def assert_clean_log(server: ServerProcess) -> None:
    log = server.stderr_text()
    assert "Traceback" not in log, log[-3000:]
    assert "Exception in ASGI" not in log, log[-3000:]
    assert httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200


@pytest.mark.parametrize("name", ["t" * 300, "é" * 100, "🂡" * 64, "x%00y" * 40])
def test_an_unknown_table_of_any_length_closes_4404(server: ServerProcess, name: str) -> None:
    with connect(f"{server.ws_url}/ws/tables/{name}") as feed:
        code, reason = closed_with(feed)
    assert code == 4404
    assert 0 < len(reason.encode("utf-8")) <= MAX_REASON_BYTES
    assert_clean_log(server)


def test_an_invalid_utf8_text_frame_closes_1007(server: ServerProcess) -> None:
    with connect(f"{server.ws_url}/ws/tables/standard") as feed:
        feed.recv(timeout=10)  # the snapshot
        feed.send(b"\xff\xfe not utf-8 \xc3\x28", text=True)
        code, _ = closed_with(feed)
    assert code == 1007
    assert_clean_log(server)


def test_a_binary_frame_closes_1003(server: ServerProcess) -> None:
    with connect(f"{server.ws_url}/ws/tables/standard") as feed:
        feed.recv(timeout=10)
        feed.send(b"\x00\x01\x02")
        code, reason = closed_with(feed)
    assert code == 1003
    assert len(reason.encode()) <= MAX_REASON_BYTES
    assert_clean_log(server)


def test_a_frame_past_the_size_limit_closes_1009(server: ServerProcess) -> None:
    with connect(f"{server.ws_url}/ws/tables/standard") as feed:
        feed.recv(timeout=10)
        feed.send("x" * (1 << 20))
        code, _ = closed_with(feed)
    assert code == 1009
    assert_clean_log(server)


def test_text_messages_are_ignored_and_the_feed_goes_on(server: ServerProcess) -> None:
    with connect(f"{server.ws_url}/ws/tables/standard") as feed:
        assert '"snapshot"' in str(feed.recv(timeout=10))
        for junk in ['{"type": "bet", "amount": 1e309}', "not json", "[]", "", '{"a":' * 500]:
            feed.send(junk)
        # Still served: the next table event arrives (a round opens every ~1.5 s).
        assert '"seq"' in str(feed.recv(timeout=10))
        feed.ping().wait(5)
    assert_clean_log(server)


@pytest.mark.parametrize("query", ["ticket=nobody-issued-this", "ticket=" + "z" * 5000])
def test_a_ticket_nobody_issued_closes_4401(server: ServerProcess, query: str) -> None:
    with connect(f"{server.ws_url}/ws/tables/standard?{query}") as feed:
        code, reason = closed_with(feed)
    assert code == 4401
    assert len(reason.encode()) <= MAX_REASON_BYTES
    assert_clean_log(server)
