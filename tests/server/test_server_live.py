"""The table service as a real process: many bettors across the close, retries, undo, limits.

The module runs one ``baccarat serve`` per database (SQLite, then PostgreSQL) with a 1.5 s
betting window, and talks to it over HTTP and WebSocket only.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from server_support import ledger_check, new_player, open_round, round_view, wait_round_final
from serving import ServerProcess
from sqlalchemy import text

from baccarat.store import Database

CREDIT = 1_000_000
METRICS_TOKEN = "live-metrics-token"


@pytest.fixture(scope="module")
def server(module_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(
        module_db_url,
        tmp_path_factory.mktemp("server"),
        tables="standard,ez",
        # Long enough for 24 bettors to land a bet each on a loaded machine before the close.
        betting_seconds=2.5,
        reveal_ms=10,
        result_ms=50,
        demo_credit=CREDIT,
        env={"BACCARAT_METRICS_TOKEN": METRICS_TOKEN},
    ).start()
    yield process
    process.stop()


def key() -> str:
    return uuid.uuid4().hex


def bet(
    client: httpx.Client, round_id: int, bets: dict[str, Any], idem: str | None = None
) -> httpx.Response:
    return client.post(
        "/api/tables/standard/bets",
        json={"round_id": round_id, "bets": bets},
        headers={"Idempotency-Key": idem or key()},
    )


def balance(client: httpx.Client) -> int:
    response = client.get("/api/me")
    assert response.status_code == 200, response.text
    value: int = response.json()["balance"]
    return value


# -- many bettors across the close instant ----------------------------------------------


async def _feed(url: str, target: asyncio.Future[int], messages: list[dict[str, Any]]) -> None:
    """Every message until the ``settled`` of the round ``target`` names (set once chosen)."""
    async with websockets.connect(url, max_size=2**22) as socket:
        async for raw in socket:
            message = json.loads(raw)
            messages.append(message)
            if (
                message["type"] == "settled"
                and target.done()
                and message["round_id"] == target.result()
            ):
                return


async def _crowd(server: ServerProcess, players: list[tuple[str, str]]) -> dict[str, Any]:
    acks: dict[str, list[dict[str, int]]] = defaultdict(list)
    refusals: Counter[str] = Counter()
    feeds: dict[str, list[dict[str, Any]]] = {}
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=server.url, timeout=10, limits=limits) as http:
        # The feeds connect first, so that the round's whole window is left for the bets.
        target: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        feed_tasks = []
        for player_id, token in players[:8]:
            feeds[player_id] = []
            bearer = {"Authorization": f"Bearer {token}"}
            ticket = (await http.post("/api/ws-tickets", headers=bearer)).json()["ticket"]
            url = f"{server.ws_url}/ws/tables/standard?ticket={ticket}"
            feed_tasks.append(asyncio.create_task(_feed(url, target, feeds[player_id])))
        spectator: list[dict[str, Any]] = []
        feed_tasks.append(
            asyncio.create_task(_feed(f"{server.ws_url}/ws/tables/standard", target, spectator))
        )
        state = (await http.get("/api/tables/standard")).json()
        while (
            state["round"]["phase"] != "open"
            or state["round"]["closes_at_ms"] - state["now"] < 1_800
        ):
            await asyncio.sleep(0.02)
            state = (await http.get("/api/tables/standard")).json()
        round_id, closes_at = state["round"]["id"], state["round"]["closes_at_ms"]
        target.set_result(round_id)
        stop_at = closes_at + 400  # keep betting well past the close

        async def bettor(number: int, player_id: str, token: str) -> None:
            spots = ["player", "banker", "tie"]
            i = 0
            while True:
                spot = spots[(number + i) % 3]
                # Varied stakes, bounded so that no bettor nears a limit or its balance.
                body = {"round_id": round_id, "bets": {spot: 100 + (7 * i + number) % 900}}
                response = await http.post(
                    "/api/tables/standard/bets",
                    json=body,
                    headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key()},
                )
                if response.status_code == 200:
                    acks[player_id].append(response.json()["accepted"])
                else:
                    assert response.status_code == 409, response.text
                    refusals[response.json()["error"]["code"]] += 1
                    if refusals["betting_closed"] and (await _late(http, stop_at)):
                        return
                i += 1

        await asyncio.gather(
            *(bettor(n, pid, tok) for n, (pid, tok) in enumerate(players)),
        )
        await asyncio.wait_for(asyncio.gather(*feed_tasks), timeout=30)
    return {
        "round_id": round_id,
        "acks": acks,
        "refusals": refusals,
        "feeds": feeds,
        "spectator": spectator,
    }


async def _late(http: httpx.AsyncClient, stop_at: int) -> bool:
    state = (await http.get("/api/tables/standard")).json()
    return bool(state["now"] > stop_at)


def test_every_acknowledged_bet_settles_once_and_no_refused_bet_leaves_a_trace(
    server: ServerProcess,
) -> None:
    with server.client() as anonymous:
        players = [new_player(anonymous) for _ in range(24)]
    outcome = asyncio.run(_crowd(server, players))
    round_id, acks = outcome["round_id"], outcome["acks"]
    assert sum(len(a) for a in acks.values()) >= 24, "bets before the close must be accepted"
    assert outcome["refusals"] == Counter({"betting_closed": outcome["refusals"]["betting_closed"]})
    assert outcome["refusals"]["betting_closed"] >= 24, "every bettor must hit the close"

    with server.client() as anonymous:
        wait_round_final(anonymous, round_id)
    for player_id, token in players:
        acknowledged: Counter[str] = Counter()
        for accepted in acks[player_id]:
            acknowledged.update(accepted)
        with server.client(token) as client:
            view = round_view(client, round_id)
            stored: Counter[str] = Counter()
            for item in view["bets"]:
                assert item["outcome"] == "settled", item
                stored[item["spot"]] += item["stake"]
            # Exactly the acknowledged stakes were recorded: no lost bet, no refused one.
            assert stored == acknowledged
            returned = sum(item["returned"] for item in view["bets"])
            assert balance(client) == CREDIT - sum(acknowledged.values()) + returned

    # The private `settled` message of a watching player carries its final balance.
    for player_id, token in players[:8]:
        settled = [
            m
            for m in outcome["feeds"][player_id]
            if m["type"] == "settled" and m["round_id"] == round_id
        ]
        with server.client(token) as client:
            mine = balance(client)
        if acks[player_id]:
            assert len(settled) == 1 and settled[0]["balance"] == mine
            assert settled[0]["staked"] == sum(sum(a.values()) for a in acks[player_id])
    spectator_settled = [m for m in outcome["spectator"] if m["type"] == "settled"]
    assert spectator_settled and "balance" not in spectator_settled[-1]

    # Every feed saw consecutive seq numbers after its snapshot.
    for messages in [*outcome["feeds"].values(), outcome["spectator"]]:
        assert messages[0]["type"] == "snapshot"
        seqs = [m["seq"] for m in messages]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))

    # In the database: every bet committed before its round's close, and the ledger holds.
    database = Database(server.db_url)
    try:
        with database.read() as connection:
            late = connection.execute(
                text(
                    "SELECT count(*) FROM bets b JOIN rounds r ON r.id = b.round_id "
                    "WHERE b.created_at >= r.closes_at OR b.created_at > r.closed_at"
                )
            ).scalar_one()
    finally:
        database.dispose()
    assert late == 0
    report = ledger_check(server.db_url)
    assert report["ok"] and report["total"] == 0


# -- idempotent retries ---------------------------------------------------------------------


def test_a_retry_with_the_same_key_returns_the_same_answer_and_moves_no_money(
    server: ServerProcess,
) -> None:
    with server.client() as anonymous:
        _, token = new_player(anonymous)
    with server.client(token) as client:
        round_id = open_round(client, "standard", min_left_ms=500)
        idem = key()
        first = bet(client, round_id, {"player": 1000, "tie": 100}, idem)
        assert first.status_code == 200, first.text
        again = bet(client, round_id, {"player": 1000, "tie": 100}, idem)
        assert again.status_code == 200 and again.json() == first.json()
        assert balance(client) == CREDIT - 1100
        other = bet(client, round_id, {"player": 500}, idem)
        assert other.status_code == 422
        assert other.json()["error"]["code"] == "idempotency_key_reused"
        assert balance(client) == CREDIT - 1100
        wait_round_final(client, round_id)
        # After the close, the retry still gets its answer (not a 409): it was accepted.
        late = bet(client, round_id, {"player": 1000, "tie": 100}, idem)
        assert late.status_code == 200 and late.json() == first.json()
        stakes = [b["stake"] for b in round_view(client, round_id)["bets"]]
        assert sorted(stakes) == [100, 1000]


def test_concurrent_duplicates_of_one_request_place_it_once(server: ServerProcess) -> None:
    with server.client() as anonymous:
        _, token = new_player(anonymous)
        round_id = open_round(anonymous, "standard", min_left_ms=500)

    async def burst() -> list[httpx.Response]:
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key()}
        body = {"round_id": round_id, "bets": {"banker": 2500}}
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            return await asyncio.gather(
                *(
                    http.post("/api/tables/standard/bets", json=body, headers=headers)
                    for _ in range(8)
                )
            )

    responses = asyncio.run(burst())
    assert {r.status_code for r in responses} == {200}
    assert len({r.text for r in responses}) == 1
    with server.client(token) as client:
        assert balance(client) == CREDIT - 2500
        assert [b["stake"] for b in round_view(client, round_id)["bets"]] == [2500]


# -- undo, rebet, double --------------------------------------------------------------------


def test_undo_rebet_and_double(server: ServerProcess) -> None:
    with server.client() as anonymous:
        _, token = new_player(anonymous)
    with server.client(token) as client:
        nothing = client.post(
            "/api/tables/standard/bets/rebet",
            json={"round_id": open_round(client, "standard")},
            headers={"Idempotency-Key": key()},
        )
        assert nothing.status_code == 422
        assert nothing.json()["error"]["code"] == "no_previous_bets"

        first = open_round(client, "standard", min_left_ms=600)
        assert bet(client, first, {"player": 1000, "tie": 100}).status_code == 200
        undo = client.delete("/api/tables/standard/bets")
        assert undo.status_code == 200, undo.text
        assert undo.json()["returned"] == 1100 and undo.json()["bets"] == {}
        assert balance(client) == CREDIT
        placed = bet(client, first, {"banker": 500, "player_pair": 100})
        assert placed.status_code == 200
        view = wait_round_final(client, first)
        kinds = Counter(b["outcome"] for b in view["bets"])
        assert kinds == Counter({"undone": 2, "settled": 2})
        won = sum(b["returned"] for b in view["bets"] if b["outcome"] == "settled")
        assert balance(client) == CREDIT - 600 + won

        closed = client.delete("/api/tables/standard/bets", params={"round_id": first})
        assert closed.status_code == 409

        second = open_round(client, "standard", min_left_ms=600)
        rebet = client.post(
            "/api/tables/standard/bets/rebet",
            json={"round_id": second},
            headers={"Idempotency-Key": key()},
        )
        assert rebet.status_code == 200, rebet.text
        assert rebet.json()["accepted"] == {"banker": 500, "player_pair": 100}
        double = client.post(
            "/api/tables/standard/bets/double",
            json={"round_id": second},
            headers={"Idempotency-Key": key()},
        )
        assert double.status_code == 200, double.text
        assert double.json()["accepted"] == {"banker": 1000, "player_pair": 200}
        assert double.json()["bets"] == {"banker": 1500, "player_pair": 300}
        assert double.json()["balance"] == CREDIT - 600 + won - 1800


# -- refusals -------------------------------------------------------------------------------


def _refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]


def test_limits_balance_and_bad_requests_are_refused_without_a_trace(
    server: ServerProcess,
) -> None:
    with server.client() as anonymous:
        _, token = new_player(anonymous)
        round_id = open_round(anonymous, "standard", min_left_ms=1200)
    with server.client(token) as client:
        _refused(bet(client, round_id, {"player": 99}), 422, "below_minimum")
        _refused(bet(client, round_id, {"tie": 200_001}), 422, "above_maximum")
        _refused(bet(client, round_id, {"dragon_7": 100}), 422, "bet_not_offered")
        _refused(bet(client, round_id, {"hot_streak": 100}), 422, "unknown_bet")
        _refused(bet(client, round_id, {"player": 0}), 422, "invalid_stake")
        _refused(bet(client, round_id, {"player": -500}), 422, "invalid_stake")
        _refused(bet(client, round_id, {}), 422, "empty_bet")
        _refused(bet(client, round_id, {"player": 10.5}), 422, "invalid_request")
        _refused(bet(client, round_id, {"player": "1000"}), 422, "invalid_request")
        # A fresh window for the rest: a loaded machine answers a dozen requests slowly.
        round_id = open_round(client, "standard", min_left_ms=1200)
        # All or nothing: the valid Player spot is not placed with the refused Tie.
        _refused(bet(client, round_id, {"player": 1000, "tie": 300_000}), 422, "above_maximum")
        _refused(bet(client, round_id, {"banker": CREDIT + 1}), 422, "above_maximum")
        _refused(bet(client, round_id + 10_000, {"player": 100}), 409, "betting_closed")
        _refused(
            client.post(
                "/api/tables/nope/bets",
                json={"round_id": round_id, "bets": {"player": 100}},
                headers={"Idempotency-Key": key()},
            ),
            404,
            "table_not_found",
        )
        missing_key = client.post(
            "/api/tables/standard/bets", json={"round_id": round_id, "bets": {"player": 100}}
        )
        _refused(missing_key, 422, "invalid_request")
        # The per-spot maximum counts what is already on the spot this round.
        assert bet(client, round_id, {"tie": 150_000}).status_code == 200
        _refused(bet(client, round_id, {"tie": 50_001}), 422, "above_maximum")
        assert balance(client) == CREDIT - 150_000
        assert [b["stake"] for b in round_view(client, round_id)["bets"]] == [150_000]
    _refused(httpx.get(f"{server.url}/api/me"), 401, "unauthorized")
    with server.client("not-a-token") as stranger:
        _refused(bet(stranger, round_id, {"player": 100}), 401, "unauthorized")


def test_not_enough_balance_has_its_own_code(server: ServerProcess) -> None:
    with server.client() as anonymous:
        _, token = new_player(anonymous)
    with server.client(token) as client:
        round_id = open_round(client, "standard", min_left_ms=700)
        assert bet(client, round_id, {"banker": 1_000_000}).status_code == 200
        assert balance(client) == 0
        _refused(bet(client, round_id, {"player": 100}), 422, "insufficient_funds")
        assert balance(client) == 0


def test_the_table_shows_rules_round_and_shoe(server: ServerProcess) -> None:
    with server.client() as client:
        tables = client.get("/api/tables").json()
        assert [t["id"] for t in tables] == ["standard", "ez"]
        ez = client.get("/api/tables/ez").json()
        assert ez["pays"]["banker"] == {"win": "1:1", "win_three_card_7": "push", "tie": "push"}
        assert ez["bets"]["dragon_7"]["max_stake"] == 50_000
        assert ez["shoe"]["commitment"] and len(ez["shoe"]["commitment"]) == 64
        assert ez["round"]["closes_at"].endswith("Z")
        _refused(client.get("/api/tables/nope"), 404, "table_not_found")
        _refused(client.get("/api/rounds/999999999"), 404, "round_not_found")
        _refused(client.get("/api/shoes/nope"), 404, "shoe_not_found")
        metrics = client.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
        assert metrics.status_code == 200
        assert "baccarat_bets_accepted_total" in metrics.text
        assert "baccarat_bet_ack_seconds_bucket" in metrics.text
