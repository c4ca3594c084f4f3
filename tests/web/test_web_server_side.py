"""What the page relies on from the server, checked over HTTP and WebSocket (no browser).

Face-down squeezes (no card before its reveal, the Banker's third card last), the atomic undo
of the last chip, the bare shoe record, the live audience count and the page at ``/``.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
from web_support import Served
from websockets.sync.client import ClientConnection, connect

from baccarat.cards import parse_cards
from baccarat.coup import deal
from baccarat.store import Database
from baccarat.store.check import check_ledger
from baccarat.table.reveal import squeeze_order

pytest_plugins = ("web_support",)


def ws_url(served: Served, table: str, ticket: str | None = None) -> str:
    base = served.url.replace("http://", "ws://")
    return f"{base}/ws/tables/{table}" + (f"?ticket={ticket}" if ticket else "")


def guest(client: httpx.Client) -> str:
    response = client.post("/api/players")
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    client.headers["Authorization"] = f"Bearer {token}"
    return token


def place(client: httpx.Client, table: str, round_id: int, bets: dict[str, int]) -> Any:
    response = client.post(
        f"/api/tables/{table}/bets",
        json={"round_id": round_id, "bets": bets},
        headers={"Idempotency-Key": uuid.uuid4().hex},
    )
    assert response.status_code == 200, response.text
    return response.json()


def leaf_strings(value: Any) -> set[str]:
    """Every string value inside a JSON message (keys excluded)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(leaf_strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(leaf_strings(v) for v in value))
    return set()


def _one_face_down_round(served: Served) -> list[dict[str, Any]]:
    """Every message from the first ``round_open`` seen to that round's ``round_result``, the
    virtual clock stepped between reads (what a step published is read before the next)."""
    messages: list[dict[str, Any]] = []
    with connect(ws_url(served, "quick")) as socket:
        socket.recv(timeout=10)  # the snapshot
        round_id = None
        while True:
            served.step()
            while True:
                try:
                    message = json.loads(socket.recv(timeout=0.2))
                except TimeoutError:
                    break  # late ones come after the next step, still in order
                if message["type"] == "round_open" and round_id is None:
                    round_id = message["round_id"]
                if round_id is None:
                    continue
                messages.append(message)
                if message["type"] == "round_result" and message["round_id"] == round_id:
                    return messages


def test_face_down_squeezes_each_card_and_turns_the_banker_third_last(
    virtual_quick_server: Served,
) -> None:
    quick_server = virtual_quick_server
    settings = quick_server.get("/api/tables")
    tables = settings if isinstance(settings, list) else settings["tables"]
    assert [t["settings"]["dealing"] for t in tables] == ["face-down"]

    messages = _one_face_down_round(quick_server)
    result = messages[-1]
    player, banker = result["player"], result["banker"]
    dealt = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
    coup = deal(parse_cards(" ".join(dealt)))
    deal_kinds = [m["type"] for m in messages if m["type"] in ("squeeze", "card")]
    # A squeeze right before each card, naming the same place.
    assert deal_kinds == ["squeeze", "card"] * len(coup.cards)
    turns = [m for m in messages if m["type"] in ("squeeze", "card")]
    for squeeze, card in zip(turns[::2], turns[1::2], strict=True):
        assert (squeeze["hand"], squeeze["position"]) == (card["hand"], card["position"])
        # Who squeezes and until when; never the card.
        assert set(squeeze) == {
            "type",
            "seq",
            "table_id",
            "now",
            "round_id",
            "hand",
            "position",
            "squeezer",
            "deadline_ms",
        }
    # Player's two, Banker's two, Player's third, Banker's third last; each with its card.
    order = [(m["hand"], m["position"], m["card"]) for m in turns[1::2]]
    assert order == [(c.hand, c.position, c.card.code) for c in squeeze_order(coup)]
    expected_places = [("player", 0), ("player", 1), ("banker", 0), ("banker", 1)]
    expected_places += [("player", 2)] * (len(player) == 3) + [("banker", 2)] * (len(banker) == 3)
    assert [(h, p) for h, p, _ in order] == expected_places
    # No message carries a card's code (as a value anywhere in it) before that card's own event.
    for code in {card.code for card in coup.cards}:
        first = next(i for i, m in enumerate(messages) if code in leaf_strings(m))
        assert messages[first]["type"] == "card" and messages[first]["card"] == code


def test_undo_last_takes_back_one_request_atomically(virtual_server: Served) -> None:
    table_server = virtual_server  # on a virtual clock: the window closes when the test says
    with httpx.Client(base_url=table_server.url, timeout=10) as client:
        guest(client)
        start = client.get("/api/me").json()["balance"]
        round_id = table_server.open_round("standard")["round"]["id"]
        place(client, "standard", round_id, {"player": 100})
        place(client, "standard", round_id, {"player": 100})
        place(client, "standard", round_id, {"tie": 200, "banker": 300})
        url = f"/api/tables/standard/bets?round_id={round_id}&last=true"

        undone = client.delete(url)
        assert undone.status_code == 200, undone.text
        body = undone.json()
        assert body["action"] == "undo" and body["returned"] == 500
        assert body["bets"] == {"player": 200}
        assert body["balance"] == start - 200 == client.get("/api/me").json()["balance"]

        # The next chip counts from what is left (nothing remembered from before the undo).
        assert place(client, "standard", round_id, {"player": 100})["bets"] == {"player": 300}
        assert client.delete(url).json()["bets"] == {"player": 200}
        assert client.delete(url).json()["bets"] == {"player": 100}
        last = client.delete(url).json()
        assert last["bets"] == {} and last["balance"] == start
        nothing = client.delete(url)
        assert nothing.status_code == 422
        assert nothing.json()["error"]["code"] == "nothing_to_undo"
        assert client.get("/api/me").json()["balance"] == start
        # The round's record still lists every placement, each taken back (append-only).
        kept = client.get(f"/api/rounds/{round_id}").json()["bets"]
        assert sorted((b["spot"], b["stake"], b["outcome"]) for b in kept) == [
            ("banker", 300, "undone"),
            ("player", 100, "undone"),
            ("player", 100, "undone"),
            ("player", 100, "undone"),
            ("tie", 200, "undone"),
        ]

        # Once betting has closed, nothing can be taken back.
        place_round = table_server.open_round("standard", after=round_id)["round"]["id"]
        place(client, "standard", place_round, {"banker": 100})
        table_server.close_bets("standard")
        assert client.get("/api/tables/standard").json()["round"]["phase"] != "open"
        late = client.delete(f"/api/tables/standard/bets?round_id={place_round}&last=true")
        assert late.status_code == 409
        assert late.json()["error"]["code"] == "betting_closed"

    # The ledger's own invariants hold (balanced transactions, stakes in play, outcomes).
    database = Database(table_server.db_url)
    try:
        with database.read() as connection:
            report = check_ledger(connection)
    finally:
        database.dispose()
    assert report.problems == {}
    assert report.outcomes.get("undone", 0) >= 5


def test_the_bare_shoe_record_of_an_ended_shoe(virtual_quick_server: Served) -> None:
    quick_server = virtual_quick_server
    ended = quick_server.advance_until(
        lambda: quick_server.get("/api/tables/quick")["previous_shoe"], "a shoe to end"
    )
    shoe_id = ended["id"]
    with httpx.Client(base_url=quick_server.url, timeout=10) as client:
        bare = client.get(f"/api/shoes/{shoe_id}/record")
        assert bare.status_code == 200, bare.text
        assert bare.json() == client.get(f"/api/shoes/{shoe_id}").json()["record"]
        current = quick_server.get("/api/tables/quick")["shoe"]["id"]
        in_play = client.get(f"/api/shoes/{current}/record")
        if current != shoe_id:
            assert in_play.status_code == 409
            assert in_play.json()["error"]["code"] == "shoe_in_play"
        missing = client.get("/api/shoes/nope/record")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "shoe_not_found"


def _audience(served: Served) -> list[int]:
    """The counts the first watcher is told while a second one joins, then leaves."""
    counts: list[int] = []

    def next_count(socket: ClientConnection) -> int:
        while True:
            message = json.loads(socket.recv(timeout=10))
            if message["type"] == "watching":
                count: int = message["count"]
                return count

    with connect(ws_url(served, "ez")) as first:
        before = json.loads(first.recv(timeout=10))["table"]["watching"]
        counts.append(next_count(first))
        with connect(ws_url(served, "ez")) as second:
            second.recv(timeout=10)
            counts.append(next_count(first))
        counts.append(next_count(first))
    return [before, *counts]


def test_the_audience_count_is_sent_live(virtual_server: Served) -> None:
    before, alone, together, after = _audience(virtual_server)
    assert (alone, together, after) == (before + 1, before + 2, before + 1)


def test_the_page_is_served_at_the_root_without_a_redirect(virtual_server: Served) -> None:
    response = httpx.get(f"{virtual_server.url}/", timeout=10)
    assert response.status_code == 200 and not response.history
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["cache-control"] == "no-cache"
    assert '<script type="module" src="/static/js/main.js"' in response.text
