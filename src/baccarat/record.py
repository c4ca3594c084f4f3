"""Shoe records (``baccarat-shoe-record/1``, ``docs/shoe-record.md``): one JSON object per shoe.

A record holds what was published before the shoe (commitment, client seed, rule set,
procedure), every coup dealt and the wagers settled on it, and after the reveal the
server seed, the digest and the burn, so ``verify_record`` (whose checks live in
``baccarat.verify``) can rebuild and check all of it.

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
>>> verify_record(record).ok
True
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from baccarat.coup import Coup
from baccarat.fair import ALGORITHM, FairShoe
from baccarat.rulesets import BUILTIN_RULESETS, RuleSet, load_ruleset
from baccarat.shoe import ShoeProcedure

__all__ = [
    "RECORD_FORMAT",
    "Failure",
    "RecordError",
    "VerifyReport",
    "WagerEntry",
    "build_record",
    "ruleset_toml",
    "verify_record",
]

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


@dataclass(frozen=True, slots=True)
class Failure:
    """One thing a record gets wrong: where (coup and card index, 0-based) and what.

    >>> print(Failure(2, 1, "cards", "the shoe dealt 'Kd', the record says '7h'"))
    coup 3, card 2 (coups[2].cards[1]): the shoe dealt 'Kd', the record says '7h'
    >>> print(Failure(None, None, "digest", "does not match"))
    digest: does not match
    """

    coup: int | None
    card: int | None
    field: str
    message: str

    @property
    def path(self) -> str:
        """Where in the record, as a JSON path (``coups[2].cards[1]``, ``digest``, ``coups[9]``).

        An empty ``field`` with a coup index means the coup as a whole.
        """
        inner = self.field if self.card is None else f"{self.field}[{self.card}]"
        if self.coup is None:
            return inner
        return f"coups[{self.coup}].{inner}" if inner else f"coups[{self.coup}]"

    def __str__(self) -> str:
        if self.coup is None:
            return f"{self.path}: {self.message}"
        where = f"coup {self.coup + 1}" + ("" if self.card is None else f", card {self.card + 1}")
        return f"{where} ({self.path}): {self.message}"


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``verify_record`` found: every failure, and how much it checked."""

    failures: tuple[Failure, ...]
    coups: int = 0
    wagers: int = 0
    revealed: bool = False

    @property
    def ok(self) -> bool:
        """Everything in the record holds (and it was revealed, so everything was checked)."""
        return not self.failures


def build_record(
    fair: FairShoe,
    ruleset: RuleSet,
    coups: Sequence[Coup],
    *,
    wagers: Sequence[Sequence[WagerEntry]] | None = None,
    revealed: bool = True,
    procedure: ShoeProcedure | None = None,
) -> dict[str, Any]:
    """The record of a shoe: ``coups`` as dealt from ``fair.shoe(procedure)``.

    ``procedure`` defaults to the rule set's, with the fair shoe's deck count. ``wagers``,
    when given, has one list per coup. With ``revealed=False`` the server seed, digest
    and burn are left out: the rest is safe to publish while the shoe is in play.
    """
    proc = procedure or dataclasses.replace(ruleset.shoe, decks=fair.decks)
    if proc.decks != fair.decks:
        raise RecordError(
            f"the procedure is for {proc.decks} decks, the fair shoe has {fair.decks}"
        )
    if wagers is not None and len(wagers) != len(coups):
        raise RecordError(f"{len(wagers)} lists of wagers for {len(coups)} coups")
    shoe = fair.shoe(proc)
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "algorithm": ALGORITHM,
        "shoe_id": fair.shoe_id,
        "decks": fair.decks,
        "ruleset": _ruleset_entry(ruleset),
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
    record["cut_position"] = shoe.cut_position
    entries = []
    for number, coup in enumerate(coups):
        entry: dict[str, Any] = {
            "cards": [card.code for card in coup.cards],
            "player_total": coup.player_total,
            "banker_total": coup.banker_total,
            "winner": coup.winner.value,
        }
        if wagers is not None:
            entry["wagers"] = [wager.to_json() for wager in wagers[number]]
        entries.append(entry)
    record["coups"] = entries
    return record


def _ruleset_entry(ruleset: RuleSet) -> dict[str, str]:
    # A built-in set is named; any other (or a built-in name redefined) travels as TOML.
    if ruleset.name in BUILTIN_RULESETS and load_ruleset(ruleset.name) == ruleset:
        return {"name": ruleset.name}
    return {"name": ruleset.name, "toml": ruleset_toml(ruleset)}


def _toml_string(text: str) -> str:
    # JSON string escapes are TOML basic-string escapes, except that TOML also wants DEL escaped.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def ruleset_toml(ruleset: RuleSet) -> str:
    """A TOML text that loads back to exactly ``ruleset`` (every bet's pays and limits explicit).

    >>> import tomllib
    >>> data = tomllib.loads(ruleset_toml(load_ruleset("tie-9")))
    >>> data["name"], data["bets"]["tie"]["pays"], data["shoe"]["last_coup"]
    ('tie-9', {'tie': '9:1'}, 'one-more')
    """
    shoe = ruleset.shoe
    lines = [
        f"name = {_toml_string(ruleset.name)}",
        f"title = {_toml_string(ruleset.title)}",
        f"description = {_toml_string(ruleset.description)}",
        "",
        "[shoe]",
        f"decks = {shoe.decks}",
        f"burn = {'true' if shoe.burn else 'false'}",
        f"cut_card_from_end = {shoe.cut_card_from_end}",
        f"last_coup = {_toml_string(shoe.last_coup.value)}",
        "",
        "[table]",
        f"chips = [{', '.join(str(chip) for chip in ruleset.chips)}]",
    ]
    for name, rule in ruleset.bets.items():
        pays = ", ".join(f"{event} = {_toml_string(str(pay))}" for event, pay in rule.pays.items())
        lines += [
            "",
            f"[bets.{name}]",
            f"pays = {{ {pays} }}",
            f"min_stake = {rule.min_stake}",
            f"max_stake = {rule.max_stake}",
        ]
    return "\n".join(lines) + "\n"


def verify_record(data: Mapping[str, Any]) -> VerifyReport:
    """Check a record against the scheme and the rules; ``RecordError`` if it is not a record.

    The checks and their order are those of ``docs/shoe-record.md``.
    """
    # Imported here because the verifier reads records with helpers of this module.
    from baccarat.verify import verify

    return verify(data)
