"""The checker of the Jepsen-style provider tests: what must hold once the faults are off and the
outbox has drained, judged from three sources written apart: the wallet's own books (``GET
/admin/transactions`` and its balances), the game's database, and the clients' history.

``problems`` returns every violation found, as readable lines (none: the run was sound):

- the wallet: every debit it took is ended by exactly one credit or one rollback; a credit or
  rollback moved what it must (a rollback the debit's amount, nothing for a debit refused or
  never seen); a debit that came after its rollback's tombstone was refused; each player's
  balance is the first one plus what its records moved (so no id moved money twice: an id is
  one record, however often it was sent);
- both books: every call the wallet recorded is one the game wrote, with its amount; a debit
  the game holds ``confirmed`` was taken by the wallet, one it holds ``refused`` was refused
  there, none is left ``pending``; a confirmed debit ends in one credit, an unknown one in one
  rollback, a refused one in neither; every credit and rollback is ``done`` and landed; each
  player's wallet balance is the first one minus the game's confirmed debits plus its credits;
- the money: a credit is what its debit's bets returned, recomputed here from the round's cards
  and the rule set (the stakes for a void or an undo, the whole debit for bets never placed);
- the clients: a bet answered 200 is placed, paid by a confirmed debit of its amount, with the
  balance the wallet answered; any other answer placed nothing; a key answers as it first did;
  no session was lost (401) and no answer was a server error but ``wallet_unavailable`` or
  ``database_unavailable`` (a "try again": the client sends the request again);
- the ledger: ``check_ledger`` clean, ``wallet:{op}`` = −confirmed debits + credits, and every
  operator player's own account 0.

``reconcile`` runs ``baccarat wallet reconcile`` on the game's database (no orphan: exit 0).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jepsen_support import OPERATOR, TRY_AGAIN, Attempt, Seat
from sqlalchemy import select
from typer.testing import CliRunner

from baccarat.cards import parse_cards
from baccarat.cli import app
from baccarat.coup import deal
from baccarat.rulesets import load_ruleset
from baccarat.settle import settle
from baccarat.store import Database, check_ledger
from baccarat.store.ledger import balances, player_account
from baccarat.store.schema import bet_outcomes, bets, rounds, wallet_transactions
from baccarat.store.wallet_calls import debit_id, wallet_account

__all__ = ["GameBooks", "problems", "read_game", "reconcile"]

Row = dict[str, Any]
#: A bet as the checks see it: spot, stake, its outcome's kind (None: none yet), returned.
Bet = tuple[str, int, str | None, int]
_PLACING = ("place", "rebet", "double")
#: Server errors a client may meet: the wallet's, and "try again" (the database failed a
#: request; the client sends it again).
_UNKNOWN_TO_CLIENT = ("wallet_unavailable", TRY_AGAIN)
_STANDARD = load_ruleset("standard")


@dataclass
class GameBooks:
    """What the game's database holds that the checks read."""

    calls: dict[str, Row]
    #: Each ledger transaction of bets: those bets.
    bets: dict[str, list[Bet]]
    #: Round id to (phase, cards).
    rounds: dict[int, tuple[str, str | None]]
    accounts: dict[str, int]
    ledger: list[str]


def read_game(db_url: str, seats: Sequence[Seat]) -> GameBooks:
    database = Database(db_url)
    try:
        with database.read() as c:
            calls = {row.id: dict(row._mapping) for row in c.execute(select(wallet_transactions))}
            placed = select(
                bets.c.txn_id,
                bets.c.spot,
                bets.c.stake,
                bet_outcomes.c.kind,
                bet_outcomes.c.returned,
            ).select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
            by_txn: dict[str, list[Bet]] = defaultdict(list)
            for txn, spot, stake, kind, returned in c.execute(placed):
                by_txn[txn].append((spot, int(stake), kind, int(returned or 0)))
            phases = {
                row.id: (row.phase, row.cards)
                for row in c.execute(select(rounds.c.id, rounds.c.phase, rounds.c.cards))
            }
            names = [wallet_account(OPERATOR), *(player_account(s.player_id) for s in seats)]
            held = balances(c, names)
            report = check_ledger(c)
    finally:
        database.dispose()
    ledger = [] if report.ok else [f"ledger check: {report.problems}"]
    return GameBooks(calls, dict(by_txn), phases, held, ledger)


def _wallet(rows: Sequence[Row], seats: Sequence[Seat], finals: dict[str, int]) -> list[str]:
    """The wallet's records on their own."""
    found = [
        f"wallet: {t} recorded {n} times"
        for t, n in Counter(r["transaction_id"] for r in rows).items()
        if n > 1
    ]
    ends: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        if row["kind"] != "debit" and row["status"] == "ok":
            ends[row["reference_id"]].append(row)
    stones = {row["reference_id"] for row in rows if row["tombstone"]}
    for row in (row for row in rows if row["kind"] == "debit"):
        tid, took = row["transaction_id"], row["status"] == "ok"
        if took and row["moved"] != -row["amount"]:
            found.append(f"wallet: debit {tid} of {row['amount']} moved {row['moved']}")
        closing = ends.get(tid, [])
        if took and len(closing) != 1:
            found.append(f"wallet: debit {tid} taken, ended {len(closing)} times: {closing}")
        for end in closing:
            due = (row["amount"] if end["kind"] == "rollback" else end["amount"]) if took else 0
            if end["moved"] != due:
                found.append(f"wallet: {end['kind']} {end['transaction_id']} moved {end['moved']}")
        if tid in stones and (took or row["code"] != "transaction_rolled_back"):
            found.append(f"wallet: debit {tid} after its tombstone answered {row['answer']}")
    moved: dict[str, int] = defaultdict(int)
    for row in rows:
        moved[row["player_id"]] += row["moved"]
    for seat in seats:
        held, expected = finals[seat.external_id], seat.start_balance + moved[seat.external_id]
        if held != expected:
            found.append(f"wallet: {seat.external_id} holds {held}, its records say {expected}")
    return found


def _books(
    game: GameBooks, rows: Sequence[Row], seats: Sequence[Seat], finals: dict[str, int]
) -> list[str]:
    """The game's calls against the wallet's records, and each player's balance."""
    theirs = {row["transaction_id"]: row for row in rows}
    found = [
        f"the wallet recorded {t}, which the game never wrote"
        for t in theirs.keys() - game.calls.keys()
    ]
    ended: dict[str, list[str]] = defaultdict(list)
    for call in (c for c in game.calls.values() if c["kind"] != "debit"):
        ended[call["reference_id"]].append(call["kind"])
        seen = theirs.get(call["id"])
        if call["state"] != "done":
            found.append(
                f"game: {call['kind']} {call['id']} left {call['state']}: {call['last_error']}"
            )
        elif seen is None or seen["status"] != "ok" or seen["amount"] != call["amount"]:
            found.append(f"game: {call['kind']} {call['id']} done, the wallet has {seen}")
    must_end = {"confirmed": ["credit"], "unknown": ["rollback"], "refused": []}
    wallet_says = {"confirmed": "ok", "refused": "refused"}
    for call in (c for c in game.calls.values() if c["kind"] == "debit"):
        seen, state = theirs.get(call["id"]), call["state"]
        if state not in must_end:
            found.append(f"game: debit {call['id']} left {state}")
        elif ended.get(call["id"], []) != must_end[state]:
            found.append(f"game: debit {call['id']} {state}, ended by {ended.get(call['id'])}")
        if state in wallet_says and (seen is None or seen["status"] != wallet_says[state]):
            found.append(f"game: debit {call['id']} {state}, the wallet has {seen}")
        if seen is not None and seen["amount"] != call["amount"]:
            found.append(f"game: debit {call['id']} of {call['amount']}, the wallet's {seen}")
    for seat in seats:
        mine = [c for c in game.calls.values() if c["player_id"] == seat.player_id]
        taken = sum(c["amount"] for c in mine if c["kind"] == "debit" and c["state"] == "confirmed")
        given = sum(c["amount"] for c in mine if c["kind"] == "credit")
        if finals[seat.external_id] != seat.start_balance - taken + given:
            found.append(
                f"{seat.external_id}: the wallet holds {finals[seat.external_id]}, the game "
                f"says {seat.start_balance} - {taken} + {given}"
            )
    return found


def _returned(game: GameBooks, debit: Row) -> int | None:
    """What the debit's bets returned, recomputed (``None``: they are not all resolved)."""
    placed = game.bets.get(debit["bet_txn_id"] or "", [])
    if not placed:
        whole: int = debit["amount"]
        return whole  # nothing placed: the whole debit goes back
    kinds = {kind for _, _, kind, _ in placed}
    phase, cards = game.rounds[debit["round_id"]]
    if kinds == {"settled"} and phase == "settled" and cards is not None:
        coup = deal(parse_cards(cards))
        return settle({spot: stake for spot, stake, _, _ in placed}, coup, _STANDARD).returned
    if kinds <= {"voided", "undone"}:
        return sum(stake for _, stake, _, _ in placed)
    return None


def _money(game: GameBooks, seats: Sequence[Seat]) -> list[str]:
    found = list(game.ledger)
    credits = {c["reference_id"]: c for c in game.calls.values() if c["kind"] == "credit"}
    confirmed = [
        c for c in game.calls.values() if c["kind"] == "debit" and c["state"] == "confirmed"
    ]
    for debit in confirmed:
        stakes = sum(stake for _, stake, _, _ in game.bets.get(debit["bet_txn_id"] or "", []))
        if debit["bet_txn_id"] is not None and stakes != debit["amount"]:
            found.append(f"game: debit {debit['id']} of {debit['amount']} paid stakes of {stakes}")
        credit, due = credits.get(debit["id"]), _returned(game, debit)
        if credit is None or credit["amount"] != due:
            found.append(f"game: debit {debit['id']} owed {due}, credited {credit}")
    held = game.accounts.get(wallet_account(OPERATOR), 0)
    due = sum(c["amount"] for c in credits.values()) - sum(d["amount"] for d in confirmed)
    if held != due:
        found.append(f"ledger: {wallet_account(OPERATOR)} holds {held}, the calls say {due}")
    for seat in seats:
        own = game.accounts.get(player_account(seat.player_id), 0)
        if own:
            found.append(f"ledger: {seat.external_id}'s own account holds {own}")
    return found


def _clients(game: GameBooks, history: Sequence[Attempt]) -> list[str]:
    found = [
        f"client: {a.action} {a.key} answered {a.status} {a.body}"
        for a in history
        if a.status == 401
        or (a.status is not None and a.status >= 500 and a.code not in _UNKNOWN_TO_CLIENT)
    ]
    by_key: dict[tuple[str, str], list[Attempt]] = defaultdict(list)
    for attempt in history:
        by_key[attempt.player_id, attempt.key].append(attempt)
    for (player_id, key), attempts in by_key.items():
        # "Try again" leaves the outcome unknown to the client, as no answer does.
        answered = [a for a in attempts if a.status is not None and a.code != TRY_AGAIN]
        if attempts[0].action not in _PLACING or not answered:
            continue
        debit = game.calls.get(debit_id(player_id, key))
        oks = [a for a in answered if a.status == 200]
        if oks and (len(oks) != len(answered) or any(a.body != oks[0].body for a in oks)):
            found.append(f"client: key {key} answered {[(a.status, a.body) for a in answered]}")
        if not oks:
            if debit is not None and debit["bet_txn_id"] is not None:
                found.append(f"client: {answered[0].status} {answered[0].code}, placed {debit}")
            continue
        if debit is None or debit["state"] != "confirmed" or debit["bet_txn_id"] is None:
            found.append(f"client: bet {key} answered 200, its debit is {debit}")
            continue
        receipt = oks[0].body or {}
        paid = sum(receipt["accepted"].values()) == debit["amount"]
        if not paid or receipt["balance"] != json.loads(debit["answer"]).get("balance"):
            found.append(f"client: receipt {receipt} for the debit {debit}")
    return found


def reconcile(db_url: str) -> dict[str, Any]:
    """``baccarat wallet reconcile --json`` over all time, in this process (the command is
    what is tested, not its imports); its exit 0 says no orphan and the ledger agrees."""
    done = CliRunner().invoke(
        app,
        [
            *("wallet", "reconcile", "--operator", OPERATOR, "--db", db_url, "--json"),
            *("--since", "2000-01-01", "--until", "2100-01-01"),
        ],
    )
    assert done.exit_code == 0, done.output[-3000:]
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def problems(
    game: GameBooks,
    rows: Sequence[Row],
    seats: Sequence[Seat],
    finals: dict[str, int],
    history: Sequence[Attempt],
) -> list[str]:
    """Every violation found (see the module)."""
    return [
        *_wallet(rows, seats, finals),
        *_books(game, rows, seats, finals),
        *_money(game, seats),
        *_clients(game, history),
    ]
