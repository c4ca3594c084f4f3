"""Voids of a table's rounds: by staff, by the round's own rule, and how the table shows one.

A round is voided by its state machine's rule in every phase (open, closed, mid-reveal;
``baccarat.table.Round``): every stake comes back in the void's transaction, which for a
member of staff is audited as the command's actor. A void is then published: the table
follows it if it is the round in play, and each player sees what came back to them.
"""

from __future__ import annotations

from sqlalchemy import Connection

from baccarat.live.commands import Refused, VoidRound
from baccarat.live.events import RoundCancelled
from baccarat.live.table import LiveTable
from baccarat.refusals import RefusalCode
from baccarat.store.clock import db_now
from baccarat.store.rounds import get_round
from baccarat.store.settlement import VoidedRound, void_round

__all__ = ["show_void", "void_by_staff"]


def void_by_staff(c: Connection, table_id: str, command: VoidRound) -> VoidedRound | Refused:
    """In a write transaction: void round ``command.round_id`` of ``table_id`` by its own
    rule, audited as ``command.actor``; a refusal if the round is not the table's or not in
    play."""
    round_id = command.round_id
    row = get_round(c, round_id, lock=True)
    if row is None or row.table_id != table_id:
        return Refused(RefusalCode.ROUND_NOT_FOUND, f"there is no round {round_id}")
    voided = void_round(c, row, command.reason, db_now(c), actor=command.actor, audit=command.audit)
    if voided is None:
        message = f"round {round_id} is {row.phase.value}: only a round in play is voided"
        return Refused(RefusalCode.ROUND_FINISHED, message)
    return voided


def show_void(table: LiveTable, voided: VoidedRound, actor: str) -> None:
    """Publish a void: the table shows it (the round in play follows it), with what came back
    to each player in their own copy."""
    change = voided.change
    own = {player: {"returned": amount} for player, amount in voided.returned.items()}
    table.subscribers.publish(RoundCancelled(table.id, change.row, dict(voided.returned), actor))
    if table.round is not None and table.round.id == change.row.id:
        table.follow(change, own)
    else:  # not the round in play: a client learns of it from the event or its last_round
        table.announce(change.row, change.events, own)
