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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from baccarat.cards import Card, CardCodeError
from baccarat.coup import Coup, DealError, deal
from baccarat.fair import ALGORITHM, FairError, FairShoe, commitment, parse_server_seed
from baccarat.record import RECORD_FORMAT, RecordError
from baccarat.rulesets import BUILTIN_RULESETS, RuleSet, RuleSetError, load_ruleset, parse_ruleset
from baccarat.settle import SettlementError, settle
from baccarat.shoe import LastCoupRule, ShoeError, ShoeProcedure

__all__ = ["Failure", "VerifyReport", "verify_record"]


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
    #: Coups the shoe would have dealt after the record's last, when it says it ended early.
    not_dealt: int = 0

    @property
    def ok(self) -> bool:
        """Everything in the record holds (and it was revealed, so everything was checked)."""
        return not self.failures


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


def _json_type(value: Any, kind: type | tuple[type, ...]) -> bool:
    # JSON true/false are Python bools, which are ints too: never accept one as a number.
    if isinstance(value, bool) and kind is int:
        return False
    return isinstance(value, kind)


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
            if not _json_type(data[name], kind):
                raise RecordError(f"{name!r} has the wrong type: {data[name]!r}")


class _Checker:
    """Collects failures while the record is walked."""

    def __init__(self) -> None:
        self.failures: list[Failure] = []

    def fail(
        self, field: str, message: str, coup: int | None = None, card: int | None = None
    ) -> None:
        self.failures.append(Failure(coup, card, field, message))

    def same(self, field: str, expected: Any, found: Any, coup: int | None = None) -> bool:
        if expected == found:
            return True
        self.fail(field, f"should be {expected!r}, the record says {found!r}", coup)
        return False


def verify_record(data: Mapping[str, Any]) -> VerifyReport:
    """Check a record against the scheme and the rules; ``RecordError`` if it is not a record.

    The checks and their order are those of ``docs/shoe-record.md``.
    """
    _read_top(data)
    check = _Checker()
    algorithm_ok = data["algorithm"] == ALGORITHM
    if not algorithm_ok:
        check.fail(
            "algorithm",
            f"this verifier knows {ALGORITHM!r}, not {data['algorithm']!r}: the order is not checked",
        )
    ruleset = _ruleset(data["ruleset"], check)
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
        wagers += _check_coup(number, entry, dealt, ruleset, check)
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


def _ruleset(entry: Mapping[str, Any], check: _Checker) -> RuleSet | None:
    name, text = entry.get("name"), entry.get("toml")
    if not isinstance(name, str) or not (text is None or isinstance(text, str)):
        check.fail("ruleset", "needs a string 'name' and, for a custom rule set, a string 'toml'")
        return None
    try:
        if text is None:
            if name not in BUILTIN_RULESETS:
                raise RuleSetError(f"{name!r} is not built in and the record holds no 'toml'")
            return load_ruleset(name)
        source = f"<rule set {name!r} in the record>"
        ruleset = parse_ruleset(text, source)
    except RuleSetError as error:
        check.fail("ruleset", str(error))
        return None
    check.same("ruleset.name", ruleset.name, name)
    return ruleset


def _procedure(decks: int, entry: Mapping[str, Any], check: _Checker) -> ShoeProcedure | None:
    burn, last = entry.get("burn"), entry.get("last_coup")
    cut: Any = entry.get("cut_card_from_end")
    rules = [rule.value for rule in LastCoupRule]
    if not isinstance(burn, bool) or not _json_type(cut, int) or last not in rules:
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
    data: Mapping[str, Any], procedure: ShoeProcedure, check: _Checker
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
        _compare_cards("burn", burned, data["burn"], check, coup=None)
    return list(shoe.coups())


def _compare_cards(
    field: str, expected: Sequence[str], found: Sequence[Any], check: _Checker, coup: int | None
) -> None:
    """Report the first card that differs (or the first missing or extra one)."""
    for index, (want, have) in enumerate(zip(expected, found, strict=False)):
        if want != have:
            check.fail(field, f"the shoe dealt {want!r}, the record says {have!r}", coup, index)
            return
    if len(expected) != len(found):
        index = min(len(expected), len(found))
        check.fail(
            field,
            f"the shoe dealt {len(expected)} cards here, the record has {len(found)}",
            coup,
            index,
        )


def _read_cards(number: int, entry: Mapping[str, Any], check: _Checker) -> list[Card] | None:
    codes = entry.get("cards")
    if not isinstance(codes, list):
        check.fail("cards", f"must be a list of card codes, not {codes!r}", number)
        return None
    cards = []
    for index, code in enumerate(codes):
        try:
            if not isinstance(code, str):
                raise CardCodeError(repr(code), "a card code is a string")
            card = Card.parse(code)
        except CardCodeError as error:
            check.fail("cards", f"{code!r} is not a card: {error}", number, index)
            return None
        if card.code != code:
            check.fail("cards", f"{code!r} is not canonical (write {card.code!r})", number, index)
        cards.append(card)
    return cards


def _check_coup(
    number: int,
    entry: Any,
    dealt: list[Coup] | None,
    ruleset: RuleSet | None,
    check: _Checker,
) -> int:
    """Check one coup and its wagers; return how many wagers it holds."""
    if not isinstance(entry, Mapping):
        check.fail("", f"a coup is a JSON object, not {entry!r}", number)
        return 0
    cards = _read_cards(number, entry, check)
    if dealt is not None:
        if number >= len(dealt):
            check.fail(
                "",
                f"the shoe ends after {len(dealt)} coups under its last-coup rule; "
                "this coup was never dealt",
                number,
            )
            return 0
        coup = dealt[number]
        if cards is not None:
            # Compared as cards, so a non-canonical code ('10h') is reported once, above.
            expected = [card.code for card in coup.cards]
            _compare_cards("cards", expected, [card.code for card in cards], check, number)
    elif cards is None:
        return 0
    else:
        # Without the seed, the coup can still be checked against the drawing rules.
        try:
            coup = deal(cards)
        except DealError as error:
            check.fail("cards", str(error), number)
            return 0
    check.same("player_total", coup.player_total, entry.get("player_total"), number)
    check.same("banker_total", coup.banker_total, entry.get("banker_total"), number)
    check.same("winner", coup.winner.value, entry.get("winner"), number)
    wagers = entry.get("wagers", [])
    if not isinstance(wagers, list):
        check.fail("wagers", f"must be a list, not {wagers!r}", number)
        return 0
    voided = entry.get("voided", False)
    if not isinstance(voided, bool):
        check.fail("voided", f"must be true or false, not {voided!r}", number)
    elif voided and wagers:
        check.fail("wagers", "a voided coup settles no wager: every stake was returned", number)
        return 0
    if ruleset is not None:
        for index, wager in enumerate(wagers):
            _check_wager(number, index, wager, coup, ruleset, check)
    return len(wagers)


def _check_wager(
    number: int, index: int, wager: Any, coup: Coup, ruleset: RuleSet, check: _Checker
) -> None:
    field = f"wagers[{index}]"
    if not isinstance(wager, Mapping):
        check.fail(field, f"a wager is a JSON object, not {wager!r}", number)
        return
    player, bet, returned = wager.get("player"), wager.get("bet"), wager.get("returned")
    stake: Any = wager.get("stake")  # settle() says what is wrong with a bad one
    if not isinstance(player, str) or not isinstance(bet, str):
        check.fail(field, "needs a string 'player' and a string 'bet'", number)
        return
    if not _json_type(returned, int):
        check.fail(
            f"{field}.returned", f"must be an integer of minor units, not {returned!r}", number
        )
        return
    try:
        (settled,) = settle({bet: stake}, coup, ruleset)
    except SettlementError as error:
        check.fail(field, str(error), number)
        return
    if settled.returned != returned:
        check.fail(
            f"{field}.returned",
            f"{bet} staking {stake} falls on {settled.event!r}, which pays {settled.payout} and "
            f"returns {settled.returned}; the record says {returned}",
            number,
        )
    for key, expected in (("result", settled.result.value), ("event", settled.event)):
        if key in wager:
            check.same(f"{field}.{key}", expected, wager[key], number)
