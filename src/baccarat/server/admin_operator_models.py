"""The back office's view of the operators' wallets (``/api/admin/operators``): operators with
their outbox counts, the outbox by state, and a period's reconciliation
(``baccarat.store.reconcile``). Money is integer minor units of the operator's currency,
instants ISO 8601 UTC. ``baccarat wallet reconcile --json`` prints the same
``ReconciliationView``, so people and machines read one shape.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from pydantic import BaseModel, ConfigDict

from baccarat.server.clock import iso_utc
from baccarat.store.operators import Operator
from baccarat.store.outbox_view import outbox_state
from baccarat.store.reconcile import DebitLine, Orphan, Reconciliation, Totals
from baccarat.store.wallet_calls import WalletCall

__all__ = [
    "WHEN",
    "DebitLineView",
    "LedgerCheckView",
    "OperatorList",
    "OperatorView",
    "OrphanView",
    "OutboxCounts",
    "OutboxPage",
    "PlayerTotalsView",
    "ReconciliationView",
    "RoundTotalsView",
    "TotalsView",
    "WalletCallView",
    "call_view",
    "instant_ms",
    "operator_view",
    "reconciliation_view",
]


#: A period's bound: a UTC day (its start), or a time of day, UTC unless an offset is given.
WHEN = r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$"
_WHEN = re.compile(WHEN)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def instant_ms(text: str) -> int:
    """The instant ``text`` names, in ms since the epoch: a day is its start (UTC), a time
    without an offset is UTC. ``ValueError`` (one line) for anything else.

    >>> instant_ms("1970-01-02"), instant_ms("1970-01-01T00:01"), instant_ms("1970-01-01T08:00+07:00")
    (86400000, 60000, 3600000)
    >>> instant_ms("2026-02-30")
    Traceback (most recent call last):
    ...
    ValueError: not a date: '2026-02-30' (day is out of range for month)
    """
    if not _WHEN.match(text):
        raise ValueError(f"not a date: {text!r} (write 2026-12-01 or 2026-12-01T10:00)")
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as error:
        raise ValueError(f"not a date: {text!r} ({error})") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - _EPOCH) // timedelta(milliseconds=1)


class _View(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OutboxCounts(_View):
    """Credits and rollbacks per state: queued (not tried yet), retrying (queued again after
    an attempt), failed (refused for good: a person looks), done."""

    queued: int = 0
    retrying: int = 0
    failed: int = 0
    done: int = 0


class OperatorView(_View):
    id: str
    name: str
    wallet_url: str
    currency: str
    timeout_ms: int
    created_at: str
    disabled_at: str | None
    outbox: OutboxCounts


class OperatorList(_View):
    operators: list[OperatorView]


class WalletCallView(_View):
    """One call of the operator's wallet: a debit (``pending``, ``confirmed``, ``refused``,
    ``unknown``) or a credit or rollback (``queued``, ``done``, ``failed``; ``outbox_state``
    tells a retrying one apart). ``answer``: the wallet's definite answer, as it sent it."""

    id: str
    kind: str
    player_id: str
    round_id: int | None
    table_id: str | None
    amount: int
    currency: str
    reference_id: str | None
    state: str
    outbox_state: str | None
    attempts: int
    next_attempt_at: str | None
    last_error: str | None
    answer: str | None
    created_at: str
    updated_at: str


class OutboxPage(_View):
    operator_id: str
    currency: str
    #: ``null``: every row still to send or refused (queued, retrying and failed).
    state: str | None
    rows: list[WalletCallView]
    #: The ``after`` of the next page (``null``: this is the last).
    next_after: str | None


class DebitLineView(_View):
    debit: WalletCallView
    end: WalletCallView | None
    round_phase: str | None
    external_id: str | None


class OrphanView(_View):
    kind: str
    debit_id: str
    call: WalletCallView


class TotalsView(_View):
    debits: int
    debited: int
    credited: int
    rolled_back: int
    net: int


class RoundTotalsView(TotalsView):
    round_id: int | None
    table_id: str | None


class PlayerTotalsView(TotalsView):
    player_id: str
    external_id: str | None


class LedgerCheckView(_View):
    """What ``wallet:{operator}`` moved over the period (``ledger``) and what the calls say
    it must have (``expected``: minus the confirmed debits, plus the credits)."""

    ledger: int
    expected: int
    ok: bool


class ReconciliationView(_View):
    operator_id: str
    currency: str
    since: str
    until: str
    #: No orphan, and the ledger agrees.
    clean: bool
    ledger: LedgerCheckView
    total: TotalsView
    #: Each list holds its first ``limit`` items (of its ``*_total``), in the order of the
    #: debits: the oldest first.
    orphans: list[OrphanView]
    orphans_total: int
    rounds: list[RoundTotalsView]
    rounds_total: int
    players: list[PlayerTotalsView]
    players_total: int
    #: The period's debits, each with the credit or rollback that ended it.
    lines: list[DebitLineView]
    lines_total: int


def _iso(ms: int | None) -> str | None:
    return None if ms is None else iso_utc(ms)


def call_view(call: WalletCall) -> WalletCallView:
    ended = call.kind != "debit"
    return WalletCallView(
        id=call.id,
        kind=call.kind,
        player_id=call.player_id,
        round_id=call.round_id,
        table_id=call.table_id,
        amount=call.amount,
        currency=call.currency,
        reference_id=call.reference_id,
        state=call.state,
        outbox_state=outbox_state(call.state, call.attempts) if ended else None,
        attempts=call.attempts,
        next_attempt_at=_iso(call.next_attempt_at),
        last_error=call.last_error,
        answer=call.answer,
        created_at=iso_utc(call.created_at),
        updated_at=iso_utc(call.updated_at),
    )


def operator_view(operator: Operator, counts: dict[str, int] | None) -> OperatorView:
    return OperatorView(
        id=operator.id,
        name=operator.name,
        wallet_url=operator.wallet_url,
        currency=operator.currency,
        timeout_ms=operator.timeout_ms,
        created_at=iso_utc(operator.created_at),
        disabled_at=_iso(operator.disabled_at),
        outbox=OutboxCounts(**(counts or {})),
    )


def _figures(totals: Totals) -> dict[str, int]:
    return {
        "debits": totals.debits,
        "debited": totals.debited,
        "credited": totals.credited,
        "rolled_back": totals.rolled_back,
        "net": totals.net,
    }


def _line(line: DebitLine) -> DebitLineView:
    end = None if line.end is None else call_view(line.end)
    return DebitLineView(
        debit=call_view(line.debit), end=end, round_phase=line.round_phase,
        external_id=line.external_id,
    )  # fmt: skip


def _orphan(orphan: Orphan) -> OrphanView:
    return OrphanView(kind=orphan.kind, debit_id=orphan.debit_id, call=call_view(orphan.call))


def reconciliation_view(found: Reconciliation, limit: int | None = None) -> ReconciliationView:
    """The reconciliation as the API and ``--json`` show it: the totals, and the first
    ``limit`` orphans, rounds, players and lines (all of them with ``None``)."""
    cut = slice(limit)
    rounds = list(found.rounds.items())[cut]
    players = list(found.players.items())[cut]
    return ReconciliationView(
        operator_id=found.operator.id,
        currency=found.operator.currency,
        since=iso_utc(found.since_ms),
        until=iso_utc(found.until_ms),
        clean=found.clean,
        ledger=LedgerCheckView(
            ledger=found.ledger.ledger, expected=found.ledger.expected, ok=found.ledger.ok
        ),
        total=TotalsView(**_figures(found.total)),
        orphans=[_orphan(o) for o in found.orphans[cut]],
        orphans_total=len(found.orphans),
        rounds=[
            RoundTotalsView(
                round_id=round_id, table_id=found.table_ids.get(round_id), **_figures(totals)
            )
            for round_id, totals in rounds
        ],
        rounds_total=len(found.rounds),
        players=[
            PlayerTotalsView(
                player_id=player, external_id=found.external_ids.get(player), **_figures(totals)
            )
            for player, totals in players
        ],
        players_total=len(found.players),
        lines=[_line(line) for line in found.lines[cut]],
        lines_total=len(found.lines),
    )
