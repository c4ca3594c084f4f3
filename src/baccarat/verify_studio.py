"""Verifying a studio shoe's record: the cards as they were read, replayed through the rules.

A studio shoe has no seed: what makes its record checkable is that every card that left the
shoe is in it, in order, with what it became (``reads``). The verifier replays them through
the shoe's procedure (the burn by the first card's value, each coup's cards in the slots the
tableau makes due, the cut card and the last-coup rule), and checks that the coups are
exactly the cards read for them, with totals, winners and every wager recomputed
(``baccarat.verify_parts``). A shoe holds no more copies of a card than its decks.

The format is ``docs/studio.md`` ("The studio shoe's record").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from baccarat.cards import Card, CardCodeError
from baccarat.coup import due_slot
from baccarat.record import RecordError
from baccarat.shoe import ShoeError
from baccarat.table.studio_shoe import Certificate, StudioShoe, Use, slot_name
from baccarat.verify_parts import (
    Checker,
    VerifyReport,
    check_coup,
    compare_cards,
    json_type,
    read_cards,
    ruleset_of,
)

__all__ = ["STUDIO_FORMAT", "verify_studio_record"]

STUDIO_FORMAT = "baccarat-studio-record/1"
#: Reads that are cards of a coup: a round's, and a dummy hand's going on from it.
_DEALT = (Use.COUP, Use.DUMMY)

_REQUIRED: dict[str, type | tuple[type, ...]] = {
    "shoe_id": str,
    "decks": int,
    "ruleset": dict,
    "certificate": dict,
    "reads": list,
    "coups": list,
}


def _read_top(data: Mapping[str, Any]) -> None:
    for name, kind in _REQUIRED.items():
        if name not in data:
            raise RecordError(f"not a complete studio shoe record: {name!r} is missing")
        if not json_type(data[name], kind):
            raise RecordError(f"{name!r} has the wrong type: {data[name]!r}")


def verify_studio_record(data: Mapping[str, Any]) -> VerifyReport:
    """Check a studio shoe's record; ``RecordError`` if it is not one.

    >>> verify_studio_record({"format": STUDIO_FORMAT, "shoe_id": "s"})
    Traceback (most recent call last):
    ...
    baccarat.record.RecordError: not a complete studio shoe record: 'decks' is missing
    """
    _read_top(data)
    check = Checker()
    ruleset = ruleset_of(data["ruleset"], check)
    try:
        certificate = Certificate.from_json(dict(data["certificate"]))
    except (KeyError, TypeError, ValueError) as error:
        check.fail("certificate", f"not a shuffle certificate: {error}")
        return VerifyReport(tuple(check.failures))
    check.same("certificate.decks", data["decks"], certificate.decks)
    if ruleset is not None:
        check.same("certificate.burn", ruleset.shoe.burn, certificate.burn)
        check.same(
            "certificate.last_coup", ruleset.shoe.last_coup.value, certificate.last_coup.value
        )
    drawn = _replay(data["reads"], certificate, check)
    coups = data["coups"]
    seen: set[int] = set()
    wagers = 0
    for number, entry in enumerate(coups):
        wagers += _check_coup(number, entry, drawn, seen, ruleset, check)
    for round_number in sorted(set(drawn) - seen):
        check.fail("coups", f"the cards read for round {round_number} are in no coup")
    return VerifyReport(tuple(check.failures), len(coups), wagers, revealed=True)


def _replay(reads: list[Any], certificate: Certificate, check: Checker) -> dict[int, list[Card]]:
    """Every read through the shoe's procedure; the cards read for each round, in order."""
    shoe = StudioShoe.new(certificate)
    coups: dict[int, list[Card]] = {}
    current: int | None = None
    for index, entry in enumerate(reads):
        where = f"reads[{index}]"
        if not isinstance(entry, Mapping):
            check.fail(where, f"a read is a JSON object, not {entry!r}")
            return coups
        seq, code, use, position = (entry.get(k) for k in ("seq", "card", "use", "position"))
        round_number, scan_id = entry.get("round"), entry.get("scan_id")
        if seq != index + 1:
            check.fail(f"{where}.seq", f"should be {index + 1}: reads are numbered in order")
        try:
            if not isinstance(code, str):
                raise CardCodeError(repr(code), "a card code is a string")
            card = Card.parse(code)
        except CardCodeError as error:
            check.fail(f"{where}.card", f"{code!r} is not a card: {error}")
            return coups
        if use not in [u.value for u in Use] or not isinstance(scan_id, str):
            check.fail(where, "needs a string scan_id and use 'burn', 'coup' or 'burned'")
            return coups
        if round_number is not None and not json_type(round_number, int):
            check.fail(f"{where}.round", f"a round number or null, not {round_number!r}")
            return coups
        expected_use = _expected(shoe, coups.get(current or -1), Use(use), round_number, current)
        if expected_use is not None:
            check.fail(where, expected_use)
            return coups
        if Use(use) in _DEALT:
            assert round_number is not None
            if Use(use) is Use.DUMMY and round_number != current:
                check.fail(where, "a dummy hand goes on the coup of the round misdealt")
                return coups
            if round_number != current:
                if shoe.finished:
                    check.fail(where, "a coup begun after the shoe's last one (last-coup rule)")
                    return coups
                current = round_number
            cards = coups.setdefault(round_number, [])
            if due_slot(cards) is None:  # back to a round whose coup was complete
                check.fail(where, f"round {round_number}'s coup was complete: no card is due")
                return coups
            expected_position = slot_name(cards)
        elif Use(use) is Use.BURN:
            expected_position = f"burn_{len(shoe.reads) + 1}"
        else:
            expected_position = "burned"
        if position != expected_position:
            check.fail(f"{where}.position", f"should be {expected_position!r}, not {position!r}")
        try:
            shoe = shoe.read(
                scan_id,
                card,
                at=0,
                use=Use(use),
                by="",
                position=expected_position,
                round_id=round_number,
            )
        except ShoeError as error:
            check.fail(where, str(error))
            return coups
        if Use(use) in _DEALT:
            coups[round_number].append(card)  # type: ignore[index]
            if due_slot(coups[round_number]) is None:  # type: ignore[index]
                shoe = shoe.coup_done()
    return coups


def _expected(
    shoe: StudioShoe,
    coup: list[Card] | None,
    use: Use,
    round_number: int | None,
    current: int | None,
) -> str | None:
    """Why a read of ``use`` cannot come now (``None``: it can)."""
    if shoe.burn_due > 0:
        return None if use is Use.BURN else f"the burn is not done ({shoe.burn_due} to go)"
    if use is Use.BURN:
        return "the burn is done: this card is not a burn card"
    if round_number is None:
        return f"a {use.value} card belongs to a round"
    if use in _DEALT and round_number == current and coup is not None and due_slot(coup) is None:
        return f"round {round_number}'s coup was complete: no card is due"
    return None


def _check_coup(
    number: int,
    entry: Any,
    drawn: dict[int, list[Card]],
    seen: set[int],
    ruleset: Any,
    check: Checker,
) -> int:
    if not isinstance(entry, Mapping) or not json_type(entry.get("round"), int):
        check.fail("", "a coup is a JSON object with its round number", number)
        return 0
    round_number = int(entry["round"])
    if round_number in seen:
        check.fail("round", f"round {round_number}'s coup is listed twice", number)
        return 0
    seen.add(round_number)
    read = drawn.get(round_number)
    if read is None:
        check.fail("round", f"no card was read for round {round_number}", number)
        return 0
    cards = read_cards(number, entry, check)
    if cards is None:
        return 0
    compare_cards("cards", [c.code for c in read], [c.code for c in cards], check, number)
    if entry.get("dummy") is True and (entry.get("voided") is not True or entry.get("wagers")):
        check.fail("dummy", "a dummy hand is a voided round's coup and settles no wager", number)
        return 0
    if due_slot(read) is not None:  # voided part-way: its cards left the shoe, nothing settled
        if entry.get("voided") is not True:
            check.fail("voided", "a coup read part-way must be voided", number)
        if entry.get("wagers"):
            check.fail("wagers", "a voided coup settles no wager", number)
        return 0
    return check_coup(number, entry, None, ruleset, check)
