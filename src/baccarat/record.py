"""Shoe records (``baccarat-shoe-record/1``, ``docs/shoe-record.md``): one JSON object per shoe.

A record holds what was published before the shoe (commitment, client seed, rule set,
procedure), every coup dealt and the wagers settled on it, and after the reveal the
server seed, the digest and the burn, so ``baccarat.verify.verify_record`` can rebuild
and check all of it.

>>> from baccarat.fair import FairShoe
>>> from baccarat.rulesets import load_ruleset
>>> fair = FairShoe(bytes(32), "client", "shoe-1", 8)
>>> standard = load_ruleset("standard")
>>> coups = list(fair.shoe(standard.shoe).coups())
>>> record = build_record(fair, standard, coups)
>>> record["format"], record["ruleset"], len(record["coups"]) == len(coups)
('baccarat-shoe-record/1', {'name': 'standard'}, True)
>>> sorted(set(record) - set(build_record(fair, standard, coups[:3], revealed=False)))
['burn', 'digest', 'server_seed']
>>> from baccarat.verify import verify_record
>>> verify_record(record).ok
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from baccarat.coup import Coup
from baccarat.fair import ALGORITHM, FairShoe
from baccarat.rulesets import BUILTIN_RULESETS, RuleSet, load_ruleset
from baccarat.shoe import ShoeProcedure

__all__ = ["RECORD_FORMAT", "RecordError", "WagerEntry", "build_record", "ruleset_entry"]

RECORD_FORMAT = "baccarat-shoe-record/1"


class RecordError(ValueError):
    """Data that is not a shoe record at all (not an object, another format, a field missing)."""


@dataclass(frozen=True, slots=True)
class WagerEntry:
    """One wager of one player on one coup, and what it returned (stake included).

    ``result`` and ``event`` are optional: what the settlement said, kept for readers and
    checked by the verifier when present.

    >>> WagerEntry("7", "banker", 1000, 1950, result="win").to_json()
    {'player': '7', 'bet': 'banker', 'stake': 1000, 'returned': 1950, 'result': 'win'}
    """

    player: str
    bet: str
    stake: int
    returned: int
    result: str | None = None
    event: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The wager as its record entry (optional fields only when set)."""
        entry: dict[str, Any] = {
            "player": self.player,
            "bet": self.bet,
            "stake": self.stake,
            "returned": self.returned,
        }
        if self.result is not None:
            entry["result"] = self.result
        if self.event is not None:
            entry["event"] = self.event
        return entry


def build_record(
    fair: FairShoe,
    ruleset: RuleSet,
    coups: Sequence[Coup],
    *,
    wagers: Sequence[Sequence[WagerEntry]] | None = None,
    revealed: bool = True,
    procedure: ShoeProcedure | None = None,
    voided: Sequence[bool] | None = None,
) -> dict[str, Any]:
    """The record of a shoe: ``coups`` as dealt from ``fair.shoe(procedure)``.

    ``procedure`` defaults to the rule set's, with the fair shoe's deck count. ``wagers``,
    when given, has one list per coup; ``voided`` marks the coups dealt and then voided
    (their cards left the shoe; they settle nothing). With ``revealed=False`` the server
    seed, digest and burn are left out: the rest is safe to publish while the shoe is in
    play. A revealed record of fewer coups than the shoe deals says ``ended_early``: the
    shoe was ended before its last coup (an operator's new shoe).

    >>> fair = FairShoe(bytes(32), "client", "shoe-1", 8)
    >>> standard = load_ruleset("standard")
    >>> coups = list(fair.shoe(standard.shoe).coups())[:2]
    >>> short = build_record(fair, standard, coups, voided=[True, False])
    >>> short["ended_early"], short["coups"][0]["voided"], "voided" in short["coups"][1]
    (True, True, False)
    """
    proc = procedure or dataclasses.replace(ruleset.shoe, decks=fair.decks)
    if proc.decks != fair.decks:
        raise RecordError(
            f"the procedure is for {proc.decks} decks, the fair shoe has {fair.decks}"
        )
    if wagers is not None and len(wagers) != len(coups):
        raise RecordError(f"{len(wagers)} lists of wagers for {len(coups)} coups")
    if voided is not None and len(voided) != len(coups):
        raise RecordError(f"{len(voided)} voided marks for {len(coups)} coups")
    shoe = fair.shoe(proc)
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "algorithm": ALGORITHM,
        "shoe_id": fair.shoe_id,
        "decks": fair.decks,
        "ruleset": ruleset_entry(ruleset),
        "procedure": {
            "burn": proc.burn,
            "cut_card_from_end": proc.cut_card_from_end,
            "last_coup": proc.last_coup.value,
        },
        "commitment": fair.commitment,
        "client_seed": fair.client_seed,
    }
    if revealed:
        record["server_seed"] = fair.server_seed.hex()
        record["digest"] = fair.digest
        record["burn"] = [card.code for card in shoe.burned]
        if len(coups) < sum(1 for _ in fair.shoe(proc).coups()):
            record["ended_early"] = True
    record["cut_position"] = shoe.cut_position
    entries = []
    for number, coup in enumerate(coups):
        entry: dict[str, Any] = {
            "cards": [card.code for card in coup.cards],
            "player_total": coup.player_total,
            "banker_total": coup.banker_total,
            "winner": coup.winner.value,
        }
        if voided is not None and voided[number]:
            entry["voided"] = True
        if wagers is not None:
            entry["wagers"] = [wager.to_json() for wager in wagers[number]]
        entries.append(entry)
    record["coups"] = entries
    return record


def ruleset_entry(ruleset: RuleSet) -> dict[str, str]:
    """A record's rule set: a built-in one by name; any other (or a built-in name redefined)
    as TOML too."""
    if ruleset.name in BUILTIN_RULESETS and load_ruleset(ruleset.name) == ruleset:
        return {"name": ruleset.name}
    return {"name": ruleset.name, "toml": ruleset.to_toml()}
