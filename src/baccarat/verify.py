"""Verifying a shoe record: rebuild the fair order, replay the shoe, recompute every payout.

``verify_record`` never trusts what the record derives: the burn, the coups and the amounts
are recomputed from the four inputs of the order and the rule set, then compared field by
field. Every failure found is a ``Failure``; the whole answer is a ``VerifyReport``.

>>> from baccarat.fair import FairShoe
>>> from baccarat.record import build_record
>>> from baccarat.rulesets import load_ruleset
>>> fair, rules = FairShoe(bytes(32), "client", "shoe-1", 8), load_ruleset("standard")
>>> record = build_record(fair, rules, list(fair.shoe(rules.shoe).coups()))
>>> verify_record(record).ok
True
>>> record["coups"][0]["cards"][1] = "Xx"
>>> [str(failure) for failure in verify_record(record).failures]
["coup 1, card 2 (coups[0].cards[1]): 'Xx' is not a card: bad card code 'Xx': unknown rank 'X'"]
>>> verify_record({"format": "something else"})
Traceback (most recent call last):
...
baccarat.record.RecordError: not a shoe record: format is 'something else', not 'baccarat-shoe-record/1'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from baccarat.coup import Coup
from baccarat.fair import ALGORITHM, FairError, FairShoe, commitment, parse_server_seed
from baccarat.record import RECORD_FORMAT, RecordError
from baccarat.shoe import LastCoupRule, ShoeError, ShoeProcedure
from baccarat.verify_parts import (
    Checker,
    Failure,
    VerifyReport,
    check_coup,
    compare_cards,
    json_type,
    ruleset_of,
)
from baccarat.verify_studio import STUDIO_FORMAT, verify_studio_record

__all__ = ["Failure", "VerifyReport", "verify_record"]


# Top-level fields: name -> JSON type. Optional ones are those published only with the reveal.
_REQUIRED: dict[str, type | tuple[type, ...]] = {
    "algorithm": str,
    "shoe_id": str,
    "decks": int,
    "ruleset": dict,
    "procedure": dict,
    "commitment": str,
    "client_seed": str,
    "cut_position": int,
    "coups": list,
}
_REVEALED: dict[str, type | tuple[type, ...]] = {"server_seed": str, "digest": str, "burn": list}


def _read_top(data: Any) -> None:
    if not isinstance(data, Mapping):
        raise RecordError(f"not a shoe record: a JSON object is needed, not {type(data).__name__}")
    found = data.get("format")
    if found != RECORD_FORMAT:
        raise RecordError(f"not a shoe record: format is {found!r}, not {RECORD_FORMAT!r}")
    for fields, required in ((_REQUIRED, True), (_REVEALED, False)):
        for name, kind in fields.items():
            if name not in data:
                if required:
                    raise RecordError(f"not a complete shoe record: {name!r} is missing")
                continue
            if not json_type(data[name], kind):
                raise RecordError(f"{name!r} has the wrong type: {data[name]!r}")


def verify_record(data: Mapping[str, Any]) -> VerifyReport:
    """Check a record against the scheme and the rules; ``RecordError`` if it is not a record.

    The checks and their order are those of ``docs/shoe-record.md``; a studio shoe's record
    (``baccarat-studio-record/1``) is checked by ``baccarat.verify_studio``.
    """
    if isinstance(data, Mapping) and data.get("format") == STUDIO_FORMAT:
        return verify_studio_record(data)
    _read_top(data)
    check = Checker()
    algorithm_ok = data["algorithm"] == ALGORITHM
    if not algorithm_ok:
        check.fail(
            "algorithm",
            f"this verifier knows {ALGORITHM!r}, not {data['algorithm']!r}: the order is not checked",
        )
    ruleset = ruleset_of(data["ruleset"], check)
    procedure = _procedure(data["decks"], data["procedure"], check)
    if procedure is not None:
        check.same(
            "cut_position", 52 * procedure.decks - procedure.cut_card_from_end, data["cut_position"]
        )
    dealt = None
    if "server_seed" not in data:
        check.fail("server_seed", "not revealed yet: the order, digest and burn cannot be checked")
    elif algorithm_ok and procedure is not None:
        dealt = _check_order(data, procedure, check)
    coups = data["coups"]
    wagers = 0
    for number, entry in enumerate(coups):
        wagers += check_coup(number, entry, dealt, ruleset, check)
    not_dealt = 0
    ended_early = data.get("ended_early", False)
    if not isinstance(ended_early, bool):
        check.fail("ended_early", f"must be true or false, not {ended_early!r}")
    elif dealt is not None and len(coups) < len(dealt):
        if ended_early:  # an operator's new shoe: the rest of the order was never dealt
            not_dealt = len(dealt) - len(coups)
        else:
            check.fail(
                "",
                f"missing: the shoe deals {len(dealt)} coups under its last-coup rule, "
                f"the record stops after {len(coups)}",
                coup=len(coups),
            )
    elif dealt is not None and ended_early:
        check.fail(
            "ended_early", "the record holds every coup the shoe deals: it did not end early"
        )
    revealed = "server_seed" in data
    return VerifyReport(tuple(check.failures), len(coups), wagers, revealed, not_dealt)


def _procedure(decks: int, entry: Mapping[str, Any], check: Checker) -> ShoeProcedure | None:
    burn, last = entry.get("burn"), entry.get("last_coup")
    cut: Any = entry.get("cut_card_from_end")
    rules = [rule.value for rule in LastCoupRule]
    if not isinstance(burn, bool) or not json_type(cut, int) or last not in rules:
        check.fail(
            "procedure",
            "needs burn (true/false), cut_card_from_end (an integer) and "
            f"last_coup ('one-more' or 'finish'), not {dict(entry)!r}",
        )
        return None
    try:
        return ShoeProcedure(decks, burn, cut, LastCoupRule(last))
    except ShoeError as error:
        check.fail("procedure", str(error))
        return None


def _check_order(
    data: Mapping[str, Any], procedure: ShoeProcedure, check: Checker
) -> list[Coup] | None:
    """Commitment, digest and burn; the coups the shoe really deals, or None if unbuildable."""
    try:
        seed = parse_server_seed(data["server_seed"])
    except FairError as error:
        check.fail("server_seed", str(error))
        return None
    if commitment(seed) != data["commitment"]:
        check.fail(
            "commitment",
            f"SHA-256 of the server seed is {commitment(seed)}, the record commits to "
            f"{data['commitment']!r}: the seed or the commitment was changed",
        )
    fair = FairShoe(seed, data["client_seed"], data["shoe_id"], procedure.decks)
    if "digest" not in data:
        check.fail("digest", "missing from a revealed record")
    elif data["digest"] != fair.digest:
        check.fail(
            "digest",
            f"the order rebuilt from server_seed, client_seed, shoe_id and decks has digest "
            f"{fair.digest}, the record says {data['digest']!r}",
        )
    shoe = fair.shoe(procedure)
    burned = [card.code for card in shoe.burned]
    if "burn" not in data:
        check.fail("burn", "missing from a revealed record")
    else:
        compare_cards("burn", burned, data["burn"], check, coup=None)
    return list(shoe.coups())
