"""The catalogue of bet types: a fixed name, and a predicate that sorts a coup into an event.

What an event pays is not here: pay tables are data in a rule set
(``baccarat.rulesets``). A bet type only says which event a coup is for it, and
which more general event to fall back on when a pay table does not name the
specific one (``win_6`` falls back on ``win``: a standard table pays a Banker 6
like any Banker win, a no-commission table pays it half).

This is the one definition of every bet: rule sets, settlement, the exact odds engine
and the simulator all read a bet's events from its ``classify`` here. A new kind of bet
is one ``BetType`` given to :func:`register`; nothing else changes.

>>> from baccarat.cards import parse_cards
>>> from baccarat.coup import deal
>>> coup = deal(parse_cards("9h 3c Kd 3s"))        # Player 9 (natural), Banker 6
>>> BET_TYPES["player"].classify(coup), BET_TYPES["dragon_bonus_player"].classify(coup)
('win', 'natural_win')
>>> BET_TYPES["banker_pair"].classify(coup), BET_TYPES["small"].classify(coup)
('pair', 'small')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from baccarat.coup import Coup, Hand, Outcome

__all__ = ["BET_NAMES", "BET_TYPES", "LOSE", "BetType", "register", "unregister"]

#: The event every bet falls to when nothing it pays for happened.
LOSE = "lose"


@dataclass(frozen=True, slots=True)
class BetType:
    """A kind of bet: its fixed name, what it is, and how a coup resolves it."""

    name: str
    label: str
    description: str
    #: Every event ``classify`` can return, ``lose`` included.
    events: tuple[str, ...]
    classify: Callable[[Coup], str] = field(repr=False, compare=False)
    #: A specific event and the general one it is paid as when a pay table omits it.
    fallback: Mapping[str, str] = field(default_factory=dict)

    def resolve(self, event: str, pays: Mapping[str, object]) -> str:
        """The event a pay table actually pays ``event`` as (``lose`` if it names none)."""
        while event not in pays:
            if event not in self.fallback:
                return LOSE
            event = self.fallback[event]
        return event


def _main(side: Outcome) -> Callable[[Coup], str]:
    def classify(coup: Coup) -> str:
        if coup.winner is Outcome.TIE:
            return "tie"
        if coup.winner is not side:
            return LOSE
        if side is Outcome.BANKER and coup.banker_total == 6:
            return "win_6"
        if side is Outcome.BANKER and coup.banker_total == 7 and len(coup.banker.cards) == 3:
            return "win_three_card_7"
        return "win"

    return classify


def _tie(coup: Coup) -> str:
    return f"tie_{coup.player_total}" if coup.winner is Outcome.TIE else LOSE


def _pair(hand: Callable[[Coup], Hand]) -> Callable[[Coup], str]:
    return lambda coup: "pair" if hand(coup).pair else LOSE


def _either_pair(coup: Coup) -> str:
    return "pair" if coup.player_pair or coup.banker_pair else LOSE


def _perfect_pair(coup: Coup) -> str:
    return "perfect_pair" if coup.player.suited_pair or coup.banker.suited_pair else LOSE


def _dragon_bonus(side: Outcome) -> Callable[[Coup], str]:
    def classify(coup: Coup) -> str:
        hand = coup.player if side is Outcome.PLAYER else coup.banker
        if coup.winner is Outcome.TIE:
            return "natural_tie" if coup.player.natural and coup.banker.natural else LOSE
        if coup.winner is not side:
            return LOSE
        if hand.natural:
            return "natural_win"
        return f"win_by_{coup.margin}" if coup.margin >= 4 else LOSE

    return classify


def _cards_used(coup: Coup) -> str:
    return "small" if coup.cards_used == 4 else "big"


def _three_card_win(side: Outcome, total: int) -> Callable[[Coup], str]:
    def classify(coup: Coup) -> str:
        hand = coup.player if side is Outcome.PLAYER else coup.banker
        won = coup.winner is side and hand.total == total and len(hand.cards) == 3
        return "win" if won else LOSE

    return classify


def _super_6(coup: Coup) -> str:
    if coup.winner is not Outcome.BANKER or coup.banker_total != 6:
        return LOSE
    return "win_three_cards" if len(coup.banker.cards) == 3 else "win_two_cards"


_TIES = tuple(f"tie_{n}" for n in range(10))
_MARGINS = tuple(f"win_by_{n}" for n in range(9, 3, -1))

_CATALOGUE = (
    BetType(
        "player",
        "Player",
        "Player's final total beats Banker's; a tie pushes.",
        ("win", "tie", LOSE),
        _main(Outcome.PLAYER),
    ),
    BetType(
        "banker",
        "Banker",
        "Banker's final total beats Player's; a tie pushes. Some tables treat a Banker win "
        "on 6 (win_6) or with a three-card 7 (win_three_card_7) apart.",
        ("win", "win_6", "win_three_card_7", "tie", LOSE),
        _main(Outcome.BANKER),
        {"win_6": "win", "win_three_card_7": "win"},
    ),
    BetType(
        "tie",
        "Tie",
        "Both hands end on the same total.",
        (*_TIES, LOSE),
        _tie,
        dict.fromkeys(_TIES, "tie"),
    ),
    BetType(
        "player_pair",
        "Player Pair",
        "Player's first two cards have the same rank.",
        ("pair", LOSE),
        _pair(lambda coup: coup.player),
    ),
    BetType(
        "banker_pair",
        "Banker Pair",
        "Banker's first two cards have the same rank.",
        ("pair", LOSE),
        _pair(lambda coup: coup.banker),
    ),
    BetType(
        "either_pair",
        "Either Pair",
        "Either hand's first two cards have the same rank.",
        ("pair", LOSE),
        _either_pair,
    ),
    BetType(
        "perfect_pair",
        "Perfect Pair",
        "Either hand's first two cards have the same rank and suit.",
        ("perfect_pair", LOSE),
        _perfect_pair,
    ),
    BetType(
        "dragon_bonus_player",
        "Dragon Bonus Player",
        "Player wins with a natural, or by 4 or more points; a natural tie pushes.",
        ("natural_win", "natural_tie", *_MARGINS, LOSE),
        _dragon_bonus(Outcome.PLAYER),
    ),
    BetType(
        "dragon_bonus_banker",
        "Dragon Bonus Banker",
        "Banker wins with a natural, or by 4 or more points; a natural tie pushes.",
        ("natural_win", "natural_tie", *_MARGINS, LOSE),
        _dragon_bonus(Outcome.BANKER),
    ),
    BetType("big", "Big", "The coup uses five or six cards.", ("big", "small"), _cards_used),
    BetType("small", "Small", "The coup uses four cards.", ("small", "big"), _cards_used),
    BetType(
        "dragon_7",
        "Dragon 7",
        "Banker wins with a three-card 7.",
        ("win", LOSE),
        _three_card_win(Outcome.BANKER, 7),
    ),
    BetType(
        "panda_8",
        "Panda 8",
        "Player wins with a three-card 8.",
        ("win", LOSE),
        _three_card_win(Outcome.PLAYER, 8),
    ),
    BetType(
        "super_6",
        "Super 6",
        "Banker wins with a total of 6.",
        ("win_two_cards", "win_three_cards", LOSE),
        _super_6,
        {"win_two_cards": "win", "win_three_cards": "win"},
    ),
)

_TYPES: dict[str, BetType] = {bet.name: bet for bet in _CATALOGUE}
#: Every bet type by its fixed name, in display order: the built-in ones, then any registered.
BET_TYPES: Mapping[str, BetType] = MappingProxyType(_TYPES)
#: The names of the built-in bet types.
BET_NAMES: tuple[str, ...] = tuple(_TYPES)
# A bet's name is a TOML key, a JSON key and part of a strategy (``count:NAME:TAGS:T``).
_NAME = re.compile(r"[a-z][a-z0-9_]*")


def register(bet: BetType) -> BetType:
    """Add a new kind of bet to the catalogue, for the life of the process.

    From then on a rule set may offer it (``[bets.NAME]`` with a pay table over its
    events), and settlement, the odds engine and the simulator price and settle it from
    its ``classify`` alone. Both engines sort coups by each hand's final total, its number
    of cards and its pair level (``baccarat.analysis.exact.signature``), so ``classify``
    must depend on nothing else (every built-in bet is proved to: ``bench/bench_signature.py``,
    whose check ``tests/analysis/test_exact_signature.py`` runs on a sample). Register a bet
    before reading the rule sets that offer it.

    >>> odd = BetType("odd", "Odd", "The two totals add up to an odd number.", ("win", LOSE),
    ...               lambda coup: "win" if (coup.player_total + coup.banker_total) % 2 else LOSE)
    >>> register(odd) is BET_TYPES["odd"]
    True
    >>> register(odd)
    Traceback (most recent call last):
    ...
    ValueError: the catalogue already has a bet type named 'odd'
    >>> unregister("odd"); "odd" in BET_TYPES
    False
    """
    if not _NAME.fullmatch(bet.name):
        raise ValueError(f"a bet name is lower case letters, digits and _, not {bet.name!r}")
    if bet.name in _TYPES:
        raise ValueError(f"the catalogue already has a bet type named {bet.name!r}")
    if not bet.events or len(set(bet.events)) != len(bet.events):
        raise ValueError(f"bet type {bet.name!r} needs distinct events, not {bet.events!r}")
    _TYPES[bet.name] = bet
    return bet


def unregister(name: str) -> None:
    """Remove a bet type added by :func:`register` (the built-in ones cannot be removed)."""
    if name in BET_NAMES:
        raise ValueError(f"{name!r} is a built-in bet type")
    if name not in _TYPES:
        raise KeyError(f"no registered bet type named {name!r}")
    del _TYPES[name]
