"""The shoe record (``docs/shoe-record.md``) of a stored shoe, with every wager and its return.

A wager in the record is one player's whole stake on one bet in one round (the unit the
rules settle); voided and undone bets are not wagers of any coup. Its player is a per-shoe
pseudonym (``baccarat.store.pseudonyms``). A coup enters the record
once its round is settled, which is after its result was announced (``RoundRow.face``), so
even the record of a shoe in play never shows the current round's cards. A coup voided after
its cards were drawn enters it, marked ``voided``, only once the shoe has ended.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import Connection, func, select

from baccarat.coup import Coup
from baccarat.record import WagerEntry, build_record
from baccarat.rulesets import parse_ruleset
from baccarat.store.pseudonyms import pseudonym, record_key
from baccarat.store.rounds import RoundRow, shoe_rounds
from baccarat.store.schema import bet_outcomes, bets, rounds
from baccarat.store.shoes import ShoeRow
from baccarat.table import Phase

__all__ = ["shoe_record"]


def shoe_record(connection: Connection, shoe: ShoeRow) -> dict[str, Any]:
    """The record of ``shoe``: revealed (server seed included) only if the shoe has ended."""
    # A coup voided after it was dealt took its cards from the shoe: once the shoe has ended
    # (and every card may be shown) it stays in the record, marked, so the order lines up.
    played = [
        (row, coup)
        for row in shoe_rounds(connection, shoe.id)
        if (coup := _recorded_coup(row, revealed=shoe.ended)) is not None
    ]
    query = (
        select(
            bets.c.round_id,
            bets.c.player_id,
            bets.c.spot,
            func.sum(bets.c.stake).label("stake"),
            func.sum(bet_outcomes.c.returned).label("returned"),
            func.max(bet_outcomes.c.result).label("result"),
            func.max(bet_outcomes.c.event).label("event"),
        )
        .select_from(
            bets.join(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id).join(
                rounds, rounds.c.id == bets.c.round_id
            )
        )
        .where(rounds.c.shoe_id == shoe.id, bet_outcomes.c.kind == "settled")
        .group_by(bets.c.round_id, bets.c.player_id, bets.c.spot)
        .order_by(bets.c.round_id, bets.c.player_id, bets.c.spot)
    )
    wagers: dict[int, list[WagerEntry]] = defaultdict(list)
    # Players appear by per-shoe pseudonyms (baccarat.store.pseudonyms), never by their ids.
    key = record_key(connection)
    for row in connection.execute(query):
        wagers[row.round_id].append(
            WagerEntry(
                pseudonym(key, shoe.id, row.player_id),
                row.spot,
                int(row.stake),
                int(row.returned),
                result=row.result,
                event=row.event,
            )
        )
    for entries in wagers.values():
        entries.sort(key=lambda wager: (wager.player, wager.bet))  # no order of player ids
    return build_record(
        shoe.fair(),
        parse_ruleset(shoe.ruleset_toml),
        [coup for _, coup in played],
        wagers=[wagers.get(row.id, []) for row, _ in played],
        revealed=shoe.ended,
        voided=[row.phase is Phase.VOIDED for row, _ in played],
    )


def _recorded_coup(row: RoundRow, *, revealed: bool) -> Coup | None:
    """The round's coup as the record holds it: a settled one as shown; a voided one with
    every card only once the shoe is revealed; ``None`` for a round without a coup."""
    if row.phase is Phase.SETTLED:
        return row.face().coup
    if revealed and row.phase is Phase.VOIDED and row.cards is not None:
        return row.state.coup
    return None
