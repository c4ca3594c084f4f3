"""Responsible-gaming state as stored: a player's controls, recent activity, the bet gate.

``player_controls`` holds the JSON of ``LimitSettings``, ``Breaks``, ``SessionSettings``
and the running ``Session``. A player without a row has no controls (a guest who never
set any): the bet path then skips the policy entirely, at the cost of one query per batch.

The activity the limits are checked against is read from the ledger's own rows: one
``Wager`` per bet of the last 31 days (its outcome's return once settled; voided and
undone bets are left out: they risked nothing), one ``Deposit`` per cashier deposit.
The guest demo credit is a ``deposit`` transaction without the cashier memo: not counted.

Time is an ``int`` of epoch milliseconds here: the caller passes the policy's ``now_ms``
(the server's one clock); the pure policy gets it as a ``datetime`` from this module.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, select

from baccarat.refusals import Refusal
from baccarat.responsible import (
    NO_BREAKS,
    NO_LIMITS,
    Activity,
    Breaks,
    Deposit,
    LimitSettings,
    PlayerState,
    Session,
    SessionSettings,
    Wager,
    may_bet,
)
from baccarat.responsible.instants import from_epoch_ms
from baccarat.store.ledger import player_account
from baccarat.store.schema import (
    bet_outcomes,
    bets,
    ledger_entries,
    ledger_transactions,
    player_controls,
)

__all__ = [
    "ACTIVITY_DAYS",
    "CASHIER",
    "BetGate",
    "Controls",
    "load_activity",
    "load_controls",
    "player_state",
    "save_controls",
]

#: The memo of a cashier transaction (deposit or withdrawal), unlike the guest demo credit.
CASHIER = "cashier"
#: How far back the activity is read: the longest limit window (30 days) and a margin.
ACTIVITY_DAYS = 31
_DAY_MS = timedelta(days=1) // timedelta(milliseconds=1)


@dataclass(frozen=True, slots=True)
class Controls:
    """A player's stored controls."""

    limits: LimitSettings = NO_LIMITS
    breaks: Breaks = NO_BREAKS
    session_settings: SessionSettings = field(default_factory=SessionSettings)
    session: Session | None = None


def _controls(row: Any) -> Controls:
    session = getattr(row, "session", None)
    return Controls(
        LimitSettings.from_json(json.loads(row.limits)),
        Breaks.from_json(json.loads(row.breaks)),
        SessionSettings.from_json(json.loads(row.session_settings)),
        None if session is None else Session.from_json(json.loads(session)),
    )


def load_controls(
    connection: Connection, player_ids: Iterable[str], *, lock: bool = False
) -> dict[str, Controls]:
    """The stored controls of the players named (players without a row are left out)."""
    query = select(player_controls).where(player_controls.c.player_id.in_(sorted(set(player_ids))))
    if lock and connection.dialect.name == "postgresql":
        query = query.with_for_update()
    return {row.player_id: _controls(row) for row in connection.execute(query)}


def save_controls(connection: Connection, player_id: str, controls: Controls, at: int) -> None:
    """Write a player's controls (insert or replace)."""
    values = {
        "limits": json.dumps(controls.limits.to_json(), sort_keys=True),
        "breaks": json.dumps(controls.breaks.to_json(), sort_keys=True),
        "session_settings": json.dumps(controls.session_settings.to_json(), sort_keys=True),
        "session": None
        if controls.session is None
        else json.dumps(controls.session.to_json(), sort_keys=True),
        "updated_at": at,
    }
    updated = connection.execute(
        player_controls.update().where(player_controls.c.player_id == player_id).values(**values)
    )
    if updated.rowcount == 0:
        connection.execute(player_controls.insert().values(player_id=player_id, **values))


def load_activity(
    connection: Connection, player_ids: Iterable[str], now_ms: int
) -> dict[str, Activity]:
    """Each player's wagers and cashier deposits of the ``ACTIVITY_DAYS`` days before ``now_ms``."""
    ids = sorted(set(player_ids))
    since = now_ms - ACTIVITY_DAYS * _DAY_MS
    wagers: dict[str, list[Wager]] = {p: [] for p in ids}
    query = (
        select(
            bets.c.player_id,
            bets.c.stake,
            bets.c.created_at,
            bet_outcomes.c.kind,
            bet_outcomes.c.returned,
        )
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(bets.c.player_id.in_(ids), bets.c.created_at >= since)
        .order_by(bets.c.id)
    )
    for row in connection.execute(query):
        if row.kind in ("voided", "undone"):
            continue
        returned = int(row.returned) if row.kind == "settled" else None
        wagers[row.player_id].append(Wager(from_epoch_ms(row.created_at), int(row.stake), returned))
    accounts = {player_account(p): p for p in ids}
    deposits: dict[str, list[Deposit]] = {p: [] for p in ids}
    query_deposits = (
        select(
            ledger_entries.c.account_id, ledger_entries.c.amount, ledger_transactions.c.created_at
        )
        .select_from(
            ledger_entries.join(
                ledger_transactions, ledger_transactions.c.id == ledger_entries.c.txn_id
            )
        )
        .where(
            ledger_entries.c.account_id.in_(sorted(accounts)),
            ledger_transactions.c.kind == "deposit",
            ledger_transactions.c.memo == CASHIER,
            ledger_transactions.c.created_at >= since,
            ledger_entries.c.amount > 0,
        )
    )
    for entry in connection.execute(query_deposits):
        deposits[accounts[entry.account_id]].append(
            Deposit(from_epoch_ms(entry.created_at), int(entry.amount))
        )
    return {p: Activity(tuple(wagers[p]), tuple(deposits[p])) for p in ids}


def player_state(connection: Connection, player_id: str, now_ms: int) -> PlayerState:
    """One player's whole state for the policy at ``now_ms`` (no controls: the defaults)."""
    controls = load_controls(connection, [player_id]).get(player_id, Controls())
    activity = load_activity(connection, [player_id], now_ms)[player_id]
    return PlayerState(controls.limits, controls.breaks, controls.session, activity)


class BetGate:
    """The policy on the bet path of one batch at ``now_ms``: states loaded once, wagers
    added as accepted."""

    def __init__(self, connection: Connection, player_ids: Iterable[str], now_ms: int) -> None:
        controls = load_controls(connection, player_ids)
        self.states: dict[str, PlayerState] = {}
        self.now = from_epoch_ms(now_ms)
        if controls:
            activity = load_activity(connection, controls, now_ms)
            self.states = {
                p: PlayerState(c.limits, c.breaks, c.session, activity[p])
                for p, c in controls.items()
            }

    def refuse(self, player_id: str, total: int) -> Refusal | None:
        """The policy's refusal of a request staking ``total``; else the stake is counted."""
        state = self.states.get(player_id)
        if state is None or total <= 0:
            return None
        refusal = may_bet(state, total, self.now)
        if refusal is None:
            activity = state.activity.with_wagers([Wager(self.now, total)])
            self.states[player_id] = replace(state, activity=activity)
        return refusal
