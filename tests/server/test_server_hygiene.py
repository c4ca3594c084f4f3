"""HTTP hygiene on a real ``baccarat serve``: body limit, security headers, private answers,
metrics off the public port, pseudonyms in shoe records, no server file path anywhere."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_support import QUICK_TABLE, new_player, open_round, wait_round_final
from serving import ServerProcess, free_port

from baccarat.server.hygiene import CSP
from baccarat.verify import verify_record

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("hygiene")
    # The quick table is named by its absolute file path: no response may show it.
    process = ServerProcess(
        f"sqlite:///{folder / 'table.db'}",
        folder,
        tables=f"{QUICK_TABLE.resolve()},standard",
        betting_seconds=0.5,
        reveal_ms=5,
        result_ms=10,
    )
    process.start()
    yield process
    process.stop()


def raw_request(port: int, head: str, body: bytes = b"") -> tuple[int, bytes]:
    """Send ``head`` (and part of a body) on a socket; the status and what came back."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.encode() + b"\r\n" + body)
        data = b""
        while b"\r\n\r\n" not in data or len(data) < data.index(b"\r\n\r\n") + 4:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        time.sleep(0.05)
        sock.settimeout(1)
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    return int(data.split(b" ", 2)[1]), data


def test_every_response_has_the_security_headers_and_no_server_name(
    server: ServerProcess,
) -> None:
    with server.client() as client:
        for path in ("/", "/static/js/main.js", "/api/tables", "/healthz", "/api/nope"):
            response = client.get(path)
            headers = response.headers
            assert "server" not in headers, path
            assert headers["content-security-policy"] == CSP, path
            assert "'unsafe-inline'" not in headers["content-security-policy"]
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"
            assert "frame-ancestors 'none'" in headers["content-security-policy"]


def test_the_docs_page_may_run_only_its_own_inline_script(server: ServerProcess) -> None:
    with server.client() as client:
        page = client.get("/docs")
    policy = page.headers["content-security-policy"]
    script_src = next(p for p in policy.split(";") if p.strip().startswith("script-src"))
    assert "'unsafe-inline'" not in script_src
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", page.text, re.S)
    assert inline
    for body in inline:
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in script_src


def test_a_body_over_the_limit_is_refused_with_413_declared_or_chunked(
    server: ServerProcess,
) -> None:
    _, token = new_player(server.client())
    head = (
        "POST /api/tables/standard/bets HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {token}\r\nIdempotency-Key: big\r\n"
        "Content-Type: application/json\r\nContent-Length: 10000000\r\n"
    )
    status, data = raw_request(server.port, head, b'{"round_id": 1, "bets": {"player": 1')
    assert status == 413
    assert b'"code":"payload_too_large"' in data.replace(b" ", b"")

    def chunks() -> Iterator[bytes]:
        yield b'{"round_id": 1, "bets": {"player": 100}, "pad": "'
        for _ in range(40):
            yield b"x" * 4096

    with server.client(token) as client:
        chunked = client.post(
            "/api/tables/standard/bets",
            content=chunks(),
            headers={"Idempotency-Key": "chunked", "Content-Type": "application/json"},
        )
        assert chunked.status_code == 413, chunked.text
        assert chunked.json()["error"]["code"] == "payload_too_large"
        # A body within the limit reaches the route (and is refused there, for its own reason).
        small = client.post(
            "/api/tables/standard/bets",
            json={"round_id": 1, "bets": {"player": 100}, "pad": "x" * 1000},
            headers={"Idempotency-Key": "small"},
        )
        assert small.status_code == 422
    assert "Traceback" not in server.stderr_text()


def test_private_answers_are_never_stored(server: ServerProcess) -> None:
    with server.client() as anonymous:
        created = anonymous.post("/api/players")
        assert created.headers["cache-control"] == "no-store"
        public = anonymous.get("/api/tables")
        assert "no-store" not in public.headers.get("cache-control", "")
    with server.client(created.json()["token"]) as mine:
        assert mine.get("/api/me").headers["cache-control"] == "no-store"
        assert mine.get("/api/me/history").headers["cache-control"] == "no-store"


def test_metrics_are_not_on_the_public_port_by_default(server: ServerProcess) -> None:
    with server.client() as client:
        response = client.get("/metrics")
    assert response.status_code == 404
    assert "baccarat_" not in response.text


def test_metrics_on_their_own_listener_or_for_a_token(
    tmp_path: Path, servers: list[ServerProcess]
) -> None:
    metrics_port = free_port()
    process = ServerProcess(
        f"sqlite:///{tmp_path / 'm.db'}", tmp_path, env={"BACCARAT_METRICS_TOKEN": "s3cret-token"}
    )
    process.args += ["--metrics-bind", f"127.0.0.1:{metrics_port}"]
    servers.append(process)
    process.start()
    own = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10)
    assert own.status_code == 200 and "baccarat_bets_accepted_total" in own.text
    with process.client() as client:
        assert client.get("/metrics").status_code == 401
        wrong = client.get("/metrics", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        right = client.get("/metrics", headers={"Authorization": "Bearer s3cret-token"})
        assert right.status_code == 200 and "baccarat_ws_clients" in right.text


def _ended_shoes_with_my_bets(server: ServerProcess, token: str, wanted: int) -> list[str]:
    """Bet on the quick table until ``wanted`` shoes holding a bet of mine have ended."""
    mine: set[str] = set()
    ended: list[str] = []
    table = json.loads(QUICK_TABLE.read_text().split("name = ")[1].split("\n")[0])
    deadline = time.monotonic() + 60
    with server.client(token) as client:
        while len(ended) < wanted and time.monotonic() < deadline:
            round_id = open_round(client, table, min_left_ms=150)
            shoe_id = client.get(f"/api/tables/{table}").json()["round"]["shoe_id"]
            response = client.post(
                f"/api/tables/{table}/bets",
                json={"round_id": round_id, "bets": {"banker": 100}},
                headers={"Idempotency-Key": f"r{round_id}"},
            )
            if response.status_code == 200:
                mine.add(shoe_id)
            ended = [
                s for s in sorted(mine) if client.get(f"/api/shoes/{s}").json()["status"] == "ended"
            ]
            wait_round_final(client, round_id)
    assert len(ended) >= wanted, "the quick table did not end enough shoes"
    return ended[:wanted]


def test_shoe_records_name_players_by_per_shoe_pseudonyms(server: ServerProcess) -> None:
    with server.client() as anonymous:
        player_id, token = new_player(anonymous)
        other_id, _ = new_player(anonymous)
    shoes = _ended_shoes_with_my_bets(server, token, 2)
    names = []
    with server.client(token) as client:
        for shoe_id in shoes:
            record = client.get(f"/api/shoes/{shoe_id}/record").json()
            assert player_id not in json.dumps(record)
            assert verify_record(record).ok
            name = client.get(f"/api/me/shoes/{shoe_id}/pseudonym").json()["pseudonym"]
            stakes = [
                w["stake"]
                for coup in record["coups"]
                for w in coup["wagers"]
                if w["player"] == name
            ]
            assert stakes and all(stake == 100 for stake in stakes)
            names.append(name)
        assert client.get("/api/me/shoes/nope/pseudonym").status_code == 404
    assert names[0] != names[1]  # two shoes cannot be joined by the name
    with server.client() as anonymous:
        assert anonymous.get(f"/api/me/shoes/{shoes[0]}/pseudonym").status_code == 401
    assert other_id not in names


def test_no_response_shows_a_server_file_path(server: ServerProcess) -> None:
    paths = [
        "/api/tables",
        "/api/tables/quick",
        "/api/rules/quick",
        "/api/config",
        "/healthz",
        "/openapi.json",
        "/static/nope.js",
        "/static/../pyproject.toml",
        "/static/%2e%2e/%2e%2e/pyproject.toml",
        "/api/shoes/nope/record",
        "/api/rounds/notanumber",
        "/api/rules/..%2f..%2fetc%2fpasswd",
    ]
    leaks = (str(REPO), str(QUICK_TABLE.resolve()), "site-packages", "Traceback", '.py"')
    with server.client() as client:
        bodies = [client.get(path).text for path in paths]
        bodies.append(client.post("/api/players", content=b"{not json").text)
        bodies.append(client.post("/api/sessions", content=b"\xff\xfe").text)
    with httpx.Client() as plain, plain.stream("GET", f"{server.url}/ws/tables/quick") as ws:
        bodies.append(ws.read().decode(errors="replace"))
    for body in bodies:
        for leak in leaks:
            assert leak not in body, (leak, body[:300])
