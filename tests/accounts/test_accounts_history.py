"""Game recall: the last rounds a player bet on, checked against the ledger's own entries."""

from __future__ import annotations

import csv
import io
from typing import Any

from accounts_support import Service, db_url_fixture, service_fixture  # noqa: F401
from sqlalchemy import select

from baccarat.cards import parse_cards
from baccarat.coup import deal
from baccarat.store import Database
from baccarat.store.schema import ledger_entries, ledger_transactions

SPOTS = ({"player": 1_000}, {"banker": 700, "tie": 100}, {"player": 300, "player_pair": 100})


def _ledger(db_url: str, account: str) -> list[tuple[int, int, int | None, str]]:
    """The account's entries in order: (entry id, amount, round id, transaction kind)."""
    database = Database(db_url)
    try:
        with database.read() as c:
            query = (
                select(
                    ledger_entries.c.id,
                    ledger_entries.c.amount,
                    ledger_transactions.c.round_id,
                    ledger_transactions.c.kind,
                )
                .select_from(
                    ledger_entries.join(
                        ledger_transactions, ledger_transactions.c.id == ledger_entries.c.txn_id
                    )
                )
                .where(ledger_entries.c.account_id == account)
                .order_by(ledger_entries.c.id)
            )
            return [(int(r[0]), int(r[1]), r[2], str(r[3])) for r in c.execute(query)]
    finally:
        database.dispose()


def test_recall_of_the_last_10_rounds_matches_the_ledger(service: Service) -> None:
    token = service.guest()
    player_id = service.call("GET", "/api/me", token).json()["id"]
    played: list[int] = []
    for index in range(11):
        round_id = service.betting_round()
        response = service.bet(token, round_id, SPOTS[index % len(SPOTS)])
        assert response.status_code == 200, response.text
        played.append(round_id)
        service.wait_final(round_id)
    page = service.call("GET", "/api/me/history?page=1&per_page=10", token).json()
    assert page["total"] == 11 and page["pages"] == 2
    rounds: list[dict[str, Any]] = page["rounds"]
    assert [r["round_id"] for r in rounds] == played[::-1][:10]
    second = service.call("GET", "/api/me/history?page=2&per_page=10", token).json()
    assert [r["round_id"] for r in second["rounds"]] == played[:1]

    entries = _ledger(service.db_url, f"player:{player_id}")
    running, balance_at = 0, {}
    for entry_id, amount, _, _ in entries:
        running += amount
        balance_at[entry_id] = running
    for recalled in rounds:
        mine = [e for e in entries if e[2] == recalled["round_id"]]
        first_id, last_id = mine[0][0], mine[-1][0]
        assert recalled["balance_before"] == balance_at[first_id] - mine[0][1]
        assert recalled["balance_after"] == balance_at[last_id]
        staked = -sum(amount for _, amount, _, kind in mine if kind == "bet")
        returned = sum(amount for _, amount, _, kind in mine if kind in ("settle", "void"))
        assert (recalled["staked"], recalled["returned"]) == (staked, returned)
        assert recalled["balance_after"] - recalled["balance_before"] == returned - staked
        index = played.index(recalled["round_id"])
        wanted = SPOTS[index % len(SPOTS)]
        assert {b["bet"]: b["stake"] for b in recalled["bets"]} == wanted
        assert sum(b["returned"] for b in recalled["bets"]) == returned
        coup = deal(parse_cards(" ".join(recalled["cards"])))
        assert recalled["result"]["winner"] == coup.winner
        assert recalled["time"].endswith("Z")
    # The newest round leaves the player with the balance the ledger holds now.
    assert rounds[0]["balance_after"] == service.call("GET", "/api/me", token).json()["balance"]

    exported = service.call("GET", "/api/me/history.csv", token)
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(exported.text)))
    assert len(lines) == sum(len(SPOTS[i % len(SPOTS)]) for i in range(11))
    for recalled in rounds:
        rows = [line for line in lines if int(line["round_id"]) == recalled["round_id"]]
        assert {line["bet"]: int(line["stake"]) for line in rows} == {
            b["bet"]: b["stake"] for b in recalled["bets"]
        }
        assert {int(line["balance_after"]) for line in rows} == {recalled["balance_after"]}
        # Named as its table names it: the shoe's number there and the round's in the shoe.
        named = {(int(line["shoe_number"]), int(line["number"])) for line in rows}
        assert named == {(recalled["shoe_number"], recalled["number"])}


def test_history_needs_a_token_and_valid_paging(service: Service) -> None:
    assert service.call("GET", "/api/me/history").status_code == 401
    token = service.guest()
    empty = service.call("GET", "/api/me/history", token).json()
    assert empty["total"] == 0 and empty["rounds"] == []
    assert service.call("GET", "/api/me/history?per_page=0", token).status_code == 422
    assert service.call("GET", "/api/me/history?page=0", token).status_code == 422
