"""What both verifiers share: a failure and the report, the checker collecting failures, and
the checks of a record's rule set, a coup's cards, totals and winner, and each wager.

A fair shoe's record (``baccarat.verify``) and a studio shoe's (``baccarat.verify_studio``)
differ in where the order comes from: a seed, or the cards as they were read. What a coup
is and what it pays is the same for both, and checked here once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from baccarat.cards import Card, CardCodeError
from baccarat.coup import Coup, DealError, deal
from baccarat.rulesets import BUILTIN_RULESETS, RuleSet, RuleSetError, load_ruleset, parse_ruleset
from baccarat.settle import SettlementError, settle

__all__ = [
    "Checker",
    "Failure",
    "VerifyReport",
    "check_coup",
    "check_wager",
    "compare_cards",
    "json_type",
    "read_cards",
    "ruleset_of",
]


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


def json_type(value: Any, kind: type | tuple[type, ...]) -> bool:
    # JSON true/false are Python bools, which are ints too: never accept one as a number.
    if isinstance(value, bool) and kind is int:
        return False
    return isinstance(value, kind)


class Checker:
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


def ruleset_of(entry: Mapping[str, Any], check: Checker) -> RuleSet | None:
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


def compare_cards(
    field: str, expected: Sequence[str], found: Sequence[Any], check: Checker, coup: int | None
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


def read_cards(number: int, entry: Mapping[str, Any], check: Checker) -> list[Card] | None:
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


def check_coup(
    number: int,
    entry: Any,
    dealt: list[Coup] | None,
    ruleset: RuleSet | None,
    check: Checker,
) -> int:
    """Check one coup and its wagers; return how many wagers it holds."""
    if not isinstance(entry, Mapping):
        check.fail("", f"a coup is a JSON object, not {entry!r}", number)
        return 0
    cards = read_cards(number, entry, check)
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
            compare_cards("cards", expected, [card.code for card in cards], check, number)
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
            check_wager(number, index, wager, coup, ruleset, check)
    return len(wagers)


def check_wager(
    number: int, index: int, wager: Any, coup: Coup, ruleset: RuleSet, check: Checker
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
    if not json_type(returned, int):
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
