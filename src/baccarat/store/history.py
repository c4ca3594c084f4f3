"""Game recall: the rounds a player bet on, newest first, with the ledger's own balances.

Each round is named as its table names it (the table, its shoe's number there and its number
in that shoe) besides its server-wide id, and gives its bets per spot (undone bets left out), the cards shown so far and the
result once announced (``RoundRow.face``: never a card before its reveal), what each spot
returned, and the player's balance just before the round's first ledger entry
on the player's account and just after its last one: both are sums of the ledger's
entries, so the recall agrees with the ledger to the minor unit.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, select

from baccarat.coup import Coup
from baccarat.store.ledger import player_account
from baccarat.store.rounds import get_round
from baccarat.store.schema import bet_outcomes, bets, ledger_entries, ledger_transactions
from baccarat.store.shoes import shoe_numbers

__all__ = ["RoundRecall", "history_page"]


@dataclass(frozen=True, slots=True)
class RoundRecall:
    """One round as the player lived it."""

    round_id: int
    table_id: str
    #: The number of the round's shoe at its table.
    shoe_number: int
    #: The round's number in its shoe.
    number: int
    time_ms: int
    phase: str
    #: Why the round was voided (``None`` unless it was).
    void_reason: str | None
    cards: list[str] | None
    result: dict[str, Any] | None
    spots: dict[str, dict[str, Any]]
    staked: int
    returned: int
    balance_before: int
    balance_after: int

    def to_json(self) -> dict[str, Any]:
        return {
            "round_id": self.round_id,
            "table_id": self.table_id,
            "shoe_number": self.shoe_number,
            "number": self.number,
            "time_ms": self.time_ms,
            "phase": self.phase,
            "void_reason": self.void_reason,
            "cards": self.cards,
            "result": self.result,
            "bets": [{"bet": bet, **spot} for bet, spot in self.spots.items()],
            "staked": self.staked,
            "returned": self.returned,
            "net": self.returned - self.staked,
            "balance_before": self.balance_before,
            "balance_after": self.balance_after,
        }


def _kept() -> Any:
    return (bet_outcomes.c.kind.is_(None)) | (bet_outcomes.c.kind != "undone")


def history_page(
    connection: Connection, player_id: str, page: int, per_page: int
) -> tuple[int, list[RoundRecall]]:
    """The number of rounds the player bet on, and one page of them (page 1: the newest)."""
    joined = bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id)
    played = (
        select(bets.c.round_id)
        .select_from(joined)
        .where(bets.c.player_id == player_id, _kept())
        .distinct()
    )
    total = connection.scalar(select(func.count()).select_from(played.subquery())) or 0
    round_ids = list(
        connection.scalars(
            played.order_by(bets.c.round_id.desc()).limit(per_page).offset((page - 1) * per_page)
        )
    )
    numbers: dict[str, int] = {}
    return int(total), [_recall(connection, player_id, r, numbers) for r in round_ids]


def _shoe_number(connection: Connection, shoe_id: str, known: dict[str, int]) -> int:
    """The number of shoe ``shoe_id`` at its table (read once per page into ``known``)."""
    if shoe_id not in known:
        known.update(shoe_numbers(connection, [shoe_id]))
    return known[shoe_id]


def _recall(
    connection: Connection, player_id: str, round_id: int, numbers: dict[str, int]
) -> RoundRecall:
    row = get_round(connection, round_id)
    assert row is not None
    query = (
        select(
            bets.c.spot,
            bets.c.stake,
            bet_outcomes.c.kind,
            bet_outcomes.c.event,
            bet_outcomes.c.result,
            bet_outcomes.c.returned,
        )
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(bets.c.round_id == round_id, bets.c.player_id == player_id, _kept())
        .order_by(bets.c.id)
    )
    spots: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"stake": 0, "outcome": None, "event": None, "result": None, "returned": None}
    )
    for bet in connection.execute(query):
        spot = spots[bet.spot]
        spot["stake"] += int(bet.stake)
        spot["outcome"], spot["event"], spot["result"] = bet.kind, bet.event, bet.result
        if bet.returned is not None:
            spot["returned"] = (spot["returned"] or 0) + int(bet.returned)
    before, after = _balances_around(connection, player_id, round_id)
    face = row.face()
    cards = face.codes or None
    return RoundRecall(
        round_id=round_id,
        table_id=row.table_id,
        shoe_number=_shoe_number(connection, row.shoe_id, numbers),
        number=row.number,
        time_ms=row.finished_at or row.closed_at or row.opened_at,
        phase=row.phase.value,
        void_reason=row.void_reason,
        cards=cards,
        result=None if face.coup is None else _result(face.coup),
        spots=dict(spots),
        staked=sum(s["stake"] for s in spots.values()),
        returned=sum(s["returned"] or 0 for s in spots.values()),
        balance_before=before,
        balance_after=after,
    )


def _result(coup: Coup) -> dict[str, Any]:
    return {
        "winner": coup.winner,
        "player_total": coup.player.total,
        "banker_total": coup.banker.total,
        "natural": coup.natural,
    }


def _balances_around(connection: Connection, player_id: str, round_id: int) -> tuple[int, int]:
    """The player's balance before the round's first entry and after its last (by entry id)."""
    account = player_account(player_id)
    span = connection.execute(
        select(func.min(ledger_entries.c.id), func.max(ledger_entries.c.id))
        .select_from(
            ledger_entries.join(
                ledger_transactions, ledger_transactions.c.id == ledger_entries.c.txn_id
            )
        )
        .where(ledger_entries.c.account_id == account, ledger_transactions.c.round_id == round_id)
    ).one()
    first, last = span
    if first is None:
        return 0, 0

    def upto(condition: Any) -> int:
        query = select(func.coalesce(func.sum(ledger_entries.c.amount), 0)).where(
            ledger_entries.c.account_id == account, condition
        )
        return int(connection.scalar(query) or 0)

    return upto(ledger_entries.c.id < first), upto(ledger_entries.c.id <= last)
