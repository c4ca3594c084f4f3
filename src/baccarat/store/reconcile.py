"""Reconciliation of an operator's wallet calls (reads only): every debit of a period with the
one credit or rollback that ends it, the orphans, totals per round and per player, and the
check that the ledger's ``wallet:{operator}`` account moved by exactly what the calls say
(the outbox by state is ``store.outbox_view``).

A debit belongs to the period it was written in (``created_at`` in ``[since, until)``); its
credit or rollback is read with it whenever that was written. An ORPHAN is a call that did
not end as it must (``ORPHAN_KINDS``):

- ``debit_not_ended``: a confirmed debit with no credit or rollback while its round is
  settled or voided (the player's money never went back);
- ``unknown_not_rolled_back``: a debit of unknown outcome with no rollback queued;
- ``outbox_queued`` / ``outbox_failed``: a credit or rollback still queued, or refused by the
  wallet for good (a human must look);
- ``debit_pending_stale``: a debit still ``pending`` past its operator's timeout (a crash
  between the call and its record);
- ``end_mismatch``: a credit of a debit that was not confirmed, or a rollback of one that was
  (money paid that was never taken, or a refund the ledger never saw).

Totals count what the wallet definitely moved: ``debited`` the confirmed debits, ``credited``
every credit written (what the game owes, sent or not), ``rolled_back`` the rollbacks, which
end debits of unknown outcome (never counted as debited); ``net = credited - debited``, the
players' result with the wallet.

The ledger check: over the period, the entries of ``wallet:{operator}`` sum to minus the
confirmed debits (each at its confirmation, the row's ``updated_at``: a confirmed debit is
not written again) plus the credits (each at its ``created_at``, the transaction that posted
it).

>>> Totals(debits=3, debited=1_500, credited=1_950, rolled_back=300).net
450
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from sqlalchemy import ColumnElement, Connection, func, select

from baccarat.store.operators import Operator, find_operator
from baccarat.store.schema import (
    ledger_entries,
    ledger_transactions,
    operator_players,
    rounds,
    wallet_transactions,
)
from baccarat.store.wallet_calls import WalletCall

__all__ = [
    "ORPHAN_KINDS",
    "DebitLine",
    "LedgerCheck",
    "Orphan",
    "Reconciliation",
    "Totals",
    "reconcile",
]

ORPHAN_KINDS = (
    "debit_not_ended",
    "unknown_not_rolled_back",
    "outbox_queued",
    "outbox_failed",
    "debit_pending_stale",
    "end_mismatch",
)
_W = wallet_transactions
_FINAL_PHASES = ("settled", "voided")


@dataclass(frozen=True, slots=True)
class DebitLine:
    """A debit of the period, the credit or rollback that ended it (if any), the phase of its
    round (``None``: no such round) and the operator's id for the player (``None``: none)."""

    debit: WalletCall
    end: WalletCall | None
    round_phase: str | None
    external_id: str | None = None


@dataclass(frozen=True, slots=True)
class Orphan:
    """A call that did not end as it must: which kind, and the row (``call``) it is about."""

    kind: str
    call: WalletCall
    debit_id: str


@dataclass(slots=True)
class Totals:
    """Debits (rows of any state), and the money of the confirmed ones and their ends."""

    debits: int = 0
    debited: int = 0
    credited: int = 0
    rolled_back: int = 0

    @property
    def net(self) -> int:
        return self.credited - self.debited

    def add(self, line: DebitLine) -> None:
        self.debits += 1
        if line.debit.state == "confirmed":
            self.debited += line.debit.amount
        if line.end is not None and line.end.kind == "credit":
            self.credited += line.end.amount
        elif line.end is not None:
            self.rolled_back += line.end.amount


@dataclass(frozen=True, slots=True)
class LedgerCheck:
    """What ``wallet:{operator}`` moved over the period, and what the calls say it must."""

    ledger: int
    expected: int

    @property
    def ok(self) -> bool:
        return self.ledger == self.expected


@dataclass(frozen=True, slots=True)
class Reconciliation:
    operator: Operator
    since_ms: int
    until_ms: int
    lines: list[DebitLine]
    orphans: list[Orphan]
    #: Per round (``None``: debits without a round) and per player (with the operator's id
    #: for them, ``external_ids``), in order of their first debit.
    rounds: dict[int | None, Totals]
    players: dict[str, Totals]
    external_ids: dict[str, str]
    total: Totals
    ledger: LedgerCheck
    table_ids: dict[int | None, str | None] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        """No orphan, and the ledger agrees."""
        return not self.orphans and self.ledger.ok


_CALL_FIELDS = tuple(item.name for item in fields(WalletCall))


def _columns(table: Any, prefix: str) -> list[ColumnElement[Any]]:
    return [table.c[name].label(f"{prefix}{name}") for name in _CALL_FIELDS]


def _call(row: Any, prefix: str) -> WalletCall:
    return WalletCall(**{name: row._mapping[f"{prefix}{name}"] for name in _CALL_FIELDS})


def _lines(
    connection: Connection, operator_id: str, since_ms: int, until_ms: int
) -> list[DebitLine]:
    debit, end = _W.alias("d"), _W.alias("e")
    joined = (
        debit.outerjoin(end, end.c.reference_id == debit.c.id)
        .outerjoin(rounds, rounds.c.id == debit.c.round_id)
        .outerjoin(operator_players, operator_players.c.player_id == debit.c.player_id)
    )
    query = (
        select(
            *_columns(debit, "d_"),
            *_columns(end, "e_"),
            rounds.c.phase,
            operator_players.c.external_id,
        )
        .select_from(joined)
        .where(
            debit.c.operator_id == operator_id,
            debit.c.kind == "debit",
            debit.c.created_at >= since_ms,
            debit.c.created_at < until_ms,
        )
        .order_by(debit.c.created_at, debit.c.id)
    )
    return [
        DebitLine(
            _call(row, "d_"),
            None if row.e_id is None else _call(row, "e_"),
            row.phase,
            row.external_id,
        )
        for row in connection.execute(query)
    ]


def _orphans(line: DebitLine, timeout_ms: int, now_ms: int) -> Iterable[Orphan]:
    debit, end = line.debit, line.end
    if debit.state == "confirmed" and end is None and line.round_phase in _FINAL_PHASES:
        yield Orphan("debit_not_ended", debit, debit.id)
    if debit.state == "unknown" and (end is None or end.kind != "rollback"):
        yield Orphan("unknown_not_rolled_back", debit, debit.id)
    if debit.state == "pending" and now_ms - debit.created_at > timeout_ms:
        yield Orphan("debit_pending_stale", debit, debit.id)
    if end is None:
        return
    if end.state in ("queued", "failed"):
        yield Orphan(f"outbox_{end.state}", end, debit.id)
    if (end.kind == "credit") != (debit.state == "confirmed"):
        yield Orphan("end_mismatch", end, debit.id)


def _ledger(connection: Connection, operator_id: str, since_ms: int, until_ms: int) -> LedgerCheck:
    moved = connection.scalar(
        select(func.coalesce(func.sum(ledger_entries.c.amount), 0))
        .select_from(ledger_entries.join(ledger_transactions))
        .where(
            ledger_entries.c.account_id == f"wallet:{operator_id}",
            ledger_transactions.c.created_at >= since_ms,
            ledger_transactions.c.created_at < until_ms,
        )
    )

    def total(kind: str, state: str | None, at: Any) -> int:
        query = select(func.coalesce(func.sum(_W.c.amount), 0)).where(
            _W.c.operator_id == operator_id, _W.c.kind == kind, at >= since_ms, at < until_ms
        )
        if state is not None:
            query = query.where(_W.c.state == state)
        return int(connection.scalar(query) or 0)

    debited = total("debit", "confirmed", _W.c.updated_at)
    credited = total("credit", None, _W.c.created_at)
    return LedgerCheck(ledger=int(moved or 0), expected=credited - debited)


def reconcile(
    connection: Connection, operator_id: str, *, since_ms: int, until_ms: int, now_ms: int
) -> Reconciliation | None:
    """The reconciliation of ``operator_id`` over ``[since_ms, until_ms)`` as of ``now_ms``
    (which pending debits are past their timeout); ``None`` for an unknown operator."""
    operator = find_operator(connection, operator_id)
    if operator is None:
        return None
    lines = _lines(connection, operator_id, since_ms, until_ms)
    by_round: dict[int | None, Totals] = defaultdict(Totals)
    by_player: dict[str, Totals] = defaultdict(Totals)
    tables: dict[int | None, str | None] = {}
    total = Totals()
    orphans: list[Orphan] = []
    external: dict[str, str] = {}
    for line in lines:
        by_round[line.debit.round_id].add(line)
        by_player[line.debit.player_id].add(line)
        tables.setdefault(line.debit.round_id, line.debit.table_id)
        total.add(line)
        orphans.extend(_orphans(line, operator.timeout_ms, now_ms))
        if line.external_id is not None:
            external[line.debit.player_id] = line.external_id
    return Reconciliation(
        operator=operator,
        since_ms=since_ms,
        until_ms=until_ms,
        lines=lines,
        orphans=orphans,
        rounds=dict(by_round),
        players=dict(by_player),
        external_ids=external,
        total=total,
        ledger=_ledger(connection, operator_id, since_ms, until_ms),
        table_ids=tables,
    )
