"""The shoe record (``docs/shoe-record.md``) of a stored shoe, with every wager and its return.

A wager in the record is one player's whole stake on one bet in one round (the unit the
rules settle); voided and undone bets are not wagers of any coup. Its player is a per-shoe
pseudonym (``baccarat.store.pseudonyms``). A coup enters the record
once its round is settled, which is after its result was announced (``RoundRow.face``), so
even the record of a shoe in play never shows the current round's cards. A coup voided after
its cards were drawn enters it, marked ``voided``, only once the shoe has ended.

A studio shoe's record (``baccarat-studio-record/1``, ``docs/studio.md``) holds its shuffle
certificate and every card read instead of seeds: it is published only once the shoe has
ended (before, its reads would show cards of the round in play).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import Connection, func, select

from baccarat.coup import Coup, deal, due_slot
from baccarat.record import WagerEntry, build_record, ruleset_entry
from baccarat.rulesets import parse_ruleset
from baccarat.store.pseudonyms import pseudonym, record_key
from baccarat.store.rounds import RoundRow, shoe_rounds
from baccarat.store.schema import bet_outcomes, bets, rounds
from baccarat.store.shoes import ShoeRow
from baccarat.store.studio import set_aside, shoe_reads
from baccarat.table import Phase
from baccarat.table.studio_shoe import Read, Use
from baccarat.verify_studio import STUDIO_FORMAT

__all__ = ["shoe_record"]


def shoe_record(connection: Connection, shoe: ShoeRow) -> dict[str, Any]:
    """The record of ``shoe``: revealed (server seed included) only if the shoe has ended."""
    if shoe.studio:
        return _studio_record(connection, shoe)
    # A coup voided after it was dealt took its cards from the shoe: once the shoe has ended
    # (and every card may be shown) it stays in the record, marked, so the order lines up.
    played = [
        (row, coup)
        for row in shoe_rounds(connection, shoe.id)
        if (coup := _recorded_coup(row, revealed=shoe.ended)) is not None
    ]
    wagers = _wagers(connection, shoe)
    return build_record(
        shoe.fair(),
        parse_ruleset(shoe.ruleset_toml),
        [coup for _, coup in played],
        wagers=[wagers.get(row.id, []) for row, _ in played],
        revealed=shoe.ended,
        voided=[row.phase is Phase.VOIDED for row, _ in played],
    )


def _wagers(connection: Connection, shoe: ShoeRow) -> dict[int, list[WagerEntry]]:
    """Every settled wager of the shoe by round: a player's whole stake on one bet, under the
    player's per-shoe pseudonym."""
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
    return wagers


def _studio_record(connection: Connection, shoe: ShoeRow) -> dict[str, Any]:
    """A studio shoe's record: its certificate, every card read, what was set aside, and each
    round that drew cards (a settled one with its wagers, a voided one marked)."""
    if not shoe.ended:
        raise ValueError(f"shoe {shoe.id}: a studio shoe's record is published once it ended")
    numbers = {row.id: row for row in shoe_rounds(connection, shoe.id)}
    wagers = _wagers(connection, shoe)
    reads = []
    for read in shoe_reads(connection, shoe.id):  # every card, in the order it left the shoe
        row = numbers.get(read.round_id) if read.round_id is not None else None
        reads.append(
            {
                "seq": read.seq,
                "scan_id": read.scan_id,
                "card": read.card.code,
                "at": read.at,
                "use": read.use.value,
                "position": read.position,
                "by": read.by,
                "round": None if row is None else row.number,
            }
        )
    # A coup's cards are its reads: a dummy hand dealt on after a misdeal goes on its round's.
    dealt: dict[int, list[Read]] = defaultdict(list)
    for read in shoe_reads(connection, shoe.id):
        if read.use in (Use.COUP, Use.DUMMY) and read.round_id is not None:
            dealt[read.round_id].append(read)
    coups = []
    for row in numbers.values():
        cards = [read.card for read in dealt.get(row.id, [])]
        if not cards or not row.phase.final:
            continue
        entry: dict[str, Any] = {"round": row.number, "cards": [card.code for card in cards]}
        if due_slot(cards) is None:
            coup = deal(cards)
            entry |= {
                "player_total": coup.player_total,
                "banker_total": coup.banker_total,
                "winner": coup.winner.value,
            }
        if row.phase is Phase.VOIDED:
            entry["voided"] = True
        if any(read.use is Use.DUMMY for read in dealt[row.id]):
            entry["dummy"] = True
        entry["wagers"] = [wager.to_json() for wager in wagers.get(row.id, [])]
        coups.append(entry)
    ruleset = parse_ruleset(shoe.ruleset_toml)
    return {
        "format": STUDIO_FORMAT,
        "shoe_id": shoe.id,
        "table_id": shoe.table_id,
        "number": shoe.number,
        "decks": shoe.decks,
        "ruleset": ruleset_entry(ruleset),
        "certificate": shoe.certificate,
        "reads": reads,
        "set_aside": set_aside(connection, shoe.id),
        "coups": coups,
        "started_at": shoe.started_at,
        "ended_at": shoe.ended_at,
    }


def _recorded_coup(row: RoundRow, *, revealed: bool) -> Coup | None:
    """The round's coup as the record holds it: a settled one as shown; a voided one with
    every card only once the shoe is revealed; ``None`` for a round without a coup."""
    if row.phase is Phase.SETTLED:
        return row.face().coup
    if revealed and row.phase is Phase.VOIDED and row.cards is not None:
        return row.state.coup
    return None
