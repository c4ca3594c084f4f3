"""The feed's messages: the published JSON Schema is the models', and a served table sends
nothing else.

The table service runs in-process (a real app, its dealers and feed) with a face-down table of
short shoes and a face-up one. A player bets on both, a reality check falls due, and a dealer
fails once between the close and the deal (so its round is voided while the clients watch).
Every message the player's and a spectator's sockets get is validated by the models' union
(by ``type``), and serializing the validated model gives the message back unchanged.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient
from server_support import QUICK_TABLE
from sqlalchemy import Connection
from starlette.testclient import WebSocketTestSession

from baccarat.cards import Card
from baccarat.live import dealer as dealer_module
from baccarat.server import Settings, create_app, tables_from
from baccarat.server.events import MESSAGES, AnyMessage, schema_text
from baccarat.shoe import CardCounts
from baccarat.store import rounds as rounds_store
from baccarat.store.rounds import RoundChange

ROOT = Path(__file__).resolve().parents[2]
DAY_MS = 24 * 3_600_000
REALITY_CHECK_S = 300
#: Every ``type`` the models' union knows.
#: Every type but a studio table's own (``studio``), which the studio tests check on its feed,
#: what answers a squeezer's page (``peel``, ``refused``: ``test_server_squeeze``) and an
#: operator's player's wallet balance (``balance``: ``tests/provider/test_provider_bets_http``).
TYPES = {model.model_fields["type"].default for model in get_args(get_args(AnyMessage)[0])} - {
    "studio",
    "peel",
    "refused",
    "balance",
}


class MovableClock:
    """The system clock plus an offset the test moves ahead (a reality check falls due); the
    dealers' waits are real, and a betting window closes by the database's clock."""

    def __init__(self) -> None:
        self.offset_ms = 0

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000 + self.offset_ms

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


def test_the_published_schema_is_generated_from_the_models() -> None:
    published = (ROOT / "docs" / "events.schema.json").read_text()
    assert published == schema_text(), "regenerate it as baccarat.server.events says"
    schema = json.loads(published)
    mapping = schema["discriminator"]["mapping"]
    assert set(mapping) == TYPES | {"studio", "peel", "refused", "balance"}
    assert {choice["$ref"] for choice in schema["oneOf"]} == set(mapping.values())


def _open_round(client: TestClient, table: str, min_left_ms: int = 700) -> int:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        data = client.get(f"/api/tables/{table}").json()
        state = data["round"]
        if state and state["phase"] == "open" and state["closes_at_ms"] - data["now"] > min_left_ms:
            return int(state["id"])
        time.sleep(0.02)
    raise AssertionError(f"no open round at {table}")


def _bet(client: TestClient, token: str, table: str, round_id: int) -> None:
    response = client.post(
        f"/api/tables/{table}/bets",
        json={"round_id": round_id, "bets": {"player": 100}},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex},
    )
    assert response.status_code == 200, response.text


def _read_until(
    socket: WebSocketTestSession,
    done: Callable[[Sequence[dict[str, Any]]], bool],
    seconds: float = 60,
) -> list[dict[str, Any]]:
    """The socket's messages until ``done`` holds of them (the table sends events steadily)."""
    messages: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while not done(messages):
        assert time.monotonic() < deadline, [m["type"] for m in messages]
        messages.append(socket.receive_json())
    return messages


def _has(messages: Sequence[dict[str, Any]], kind: str, **fields: Any) -> bool:
    return any(
        m["type"] == kind and all(m.get(k, None) == v for k, v in fields.items()) for m in messages
    )


def test_every_message_a_served_table_sends_is_one_the_schema_describes(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = Settings(
        db=db_url,
        tables=tables_from(
            [f"{QUICK_TABLE}:face-down", "standard"],
            betting_ms=1500,
            reveal_ms=5,
            result_ms=20,
            squeeze_ms=5,  # the player squeezes: nobody turns, the card turns itself at once
        ),
        idle_minutes=DAY_MS / 60_000,
        guest_hours=DAY_MS / 3_600_000,
    )
    clock = MovableClock()
    doomed: list[int] = []  # the standard round whose dealer fails before the deal

    def failing_once(
        c: Connection, *, round_id: int, cards: Sequence[tuple[Card, CardCounts | None]]
    ) -> RoundChange | None:
        if round_id in doomed:
            doomed.remove(round_id)
            raise RuntimeError("the dealer fails between the close and the deal (test)")
        return rounds_store.store_draws(c, round_id=round_id, cards=cards)

    monkeypatch.setattr(dealer_module, "store_draws", failing_once)
    with TestClient(create_app(config, clock=clock)) as client:
        token = client.post("/api/players").json()["token"]
        settings = {"time_limit_s": None, "reality_check_every_s": REALITY_CHECK_S}
        answer = client.put(
            "/api/me/session-settings", json=settings, headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code == 200, answer.text
        bearer = {"Authorization": f"Bearer {token}"}
        with (
            client.websocket_connect("/ws/tables/quick", headers=bearer) as quick,
            client.websocket_connect("/ws/tables/standard", headers=bearer) as standard,
            client.websocket_connect("/ws/tables/standard") as spectator,
        ):
            voided = _open_round(client, "standard")
            doomed.append(voided)
            _bet(client, token, "standard", voided)
            settled = _open_round(client, "quick")
            _bet(client, token, "quick", settled)
            # The live stakes first: once the clock is moved ahead the dealers (on the same
            # clock) find the windows over and close them without another look.
            quick_open = _read_until(
                quick, lambda ms: _has(ms, "stakes", round_id=settled, stakes={"player": 100})
            )
            clock.offset_ms = REALITY_CHECK_S * 1000

            def mine_voided(ms: Sequence[dict[str, Any]]) -> bool:
                return _has(ms, "round_void", round_id=voided, returned=100) and _has(
                    ms, "reality_check"
                )

            def quick_done(ms: Sequence[dict[str, Any]]) -> bool:
                kinds = [m["type"] for m in ms]
                ended = "shoe_end" in kinds and "shoe_start" in kinds[kinds.index("shoe_end") :]
                return ended and any(
                    m["type"] == "settled" and m["round_id"] == settled and "wagers" in m
                    for m in ms
                )

            def spectator_done(ms: Sequence[dict[str, Any]]) -> bool:
                # The table goes on after the void: a new round opens.
                return (
                    _has(ms, "round_void", round_id=voided)
                    and any(m["type"] == "round_open" and m["round_id"] > voided for m in ms)
                    and _has(ms, "watching")
                )

            received = {
                "standard": _read_until(standard, mine_voided),
                "quick": quick_open + _read_until(quick, lambda ms: quick_done([*quick_open, *ms])),
                "spectator": _read_until(spectator, spectator_done),
            }
    every = [message for messages in received.values() for message in messages]
    for message in every:
        model = MESSAGES.validate_python(message)
        assert json.loads(model.text()) == message  # sent exactly as the model writes it
    assert {m["type"] for m in every} == TYPES
    # A player's own part reaches that player only.
    [public_void] = [m for m in received["spectator"] if m["type"] == "round_void"]
    assert "returned" not in public_void and public_void["reason"].startswith("the table restarted")
    assert not _has(received["spectator"], "reality_check")
    own = next(m for m in received["quick"] if m["type"] == "settled" and m["round_id"] == settled)
    assert own["staked"] == 100 and own["players"] == 1 and own["wagers"][0]["bet"] == "player"
    # The round's stakes of all players per spot: live while it is open, and at its close.
    assert _has(received["quick"], "stakes", round_id=settled, stakes={"player": 100})
    assert _has(received["quick"], "bets_closed", round_id=settled, stakes={"player": 100})
    # The table's sequence has no holes on any socket.
    for messages in received.values():
        seqs = [m["seq"] for m in messages if m["type"] != "reality_check"]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
