"""Betting strategies for the simulator: a flat bet, or a bet made only when a count says so.

A counting strategy keeps a running count of the cards it has seen (the turned burn
card and every card dealt; the cards burned face down are not seen), adding each card's
tag. The true count is the running count divided by the decks left in the shoe
(``cards_left / 52``); the strategy bets one unit when the true count reaches its
threshold, and nothing otherwise.

Written on the command line as ``flat:BET`` (or just ``BET``), ``count:BET`` for a
published count, ``count:BET::THRESHOLD`` to move its threshold, or
``count:BET:TAGS:THRESHOLD`` with 13 tags by rank (A, 2, …, 9, T, J, Q, K) or 10 by
value (A, 2, …, 9, then one tag for tens and faces), comma-separated.

>>> Strategy.parse("banker")
Strategy.parse('flat:banker')
>>> dragon = Strategy.parse("count:dragon_7")
>>> dragon.count.tags[:9], dragon.count.threshold
((0, 0, 0, -1, -1, -1, -1, 2, 2), Fraction(4, 1))
>>> dragon.count.true_count(running=10, cards_left=104)     # 10 over 2 decks left
Fraction(5, 1)
>>> dragon.count.bets(running=7, cards_left=104), dragon.count.bets(running=8, cards_left=104)
(False, True)
>>> Strategy.parse("count:banker")
Traceback (most recent call last):
...
baccarat.analysis.simulate.strategy.StrategyError: no published count for 'banker' (built in: dragon_7, panda_8); give tags: count:banker:TAGS:THRESHOLD
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from baccarat.bets import BET_TYPES
from baccarat.cards import RANKS

__all__ = [
    "BUILTIN_COUNTS",
    "DRAGON_7_COUNT",
    "PANDA_8_COUNT",
    "Count",
    "Strategy",
    "StrategyError",
]


class StrategyError(ValueError):
    """A strategy that cannot be read."""


@dataclass(frozen=True, slots=True)
class Count:
    """A card count: a tag per rank (A first, K last) and the true count to bet at."""

    tags: tuple[int, ...]
    threshold: Fraction

    def __post_init__(self) -> None:
        if len(self.tags) != 13:
            raise StrategyError(f"a count has 13 tags by rank, not {len(self.tags)}")

    def true_count(self, running: int, cards_left: int) -> Fraction:
        """The running count per deck left."""
        return Fraction(52 * running, cards_left)

    def bets(self, running: int, cards_left: int) -> bool:
        """Whether to bet before a coup, given the running count and the cards left."""
        return self.true_count(running, cards_left) >= self.threshold

    @property
    def text(self) -> str:
        """The tags and threshold as written on the command line."""
        tags = self.tags[:10] if self.tags[9:] == (self.tags[9],) * 4 else self.tags
        return f"{','.join(map(str, tags))}:{_number(self.threshold)}"


#: Dragon 7 (Eliot Jacobson's count, as published by the Wizard of Odds): 4 to 7 count −1,
#: 8 and 9 count +2; bet at a true count of +4 or more (this simulator measures 0.598 units
#: won per 8-deck shoe with it, the published 0.597).
DRAGON_7_COUNT = Count((0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), Fraction(4))
#: Panda 8 (the Wizard of Odds' count): A, 2 and tens +1; 3, 4, 5 and 8 −2; 6 and 7 −1;
#: 9 +4. The threshold is this project's choice, no published one being at hand: the
#: simulator finds the bet breaks even between true counts +11 and +12, and +11 wins about
#: 0.245 units a shoe (``docs/analysis.md``, "Simulation").
PANDA_8_COUNT = Count((1, 1, -2, -2, -2, -1, -1, -2, 4, 1, 1, 1, 1), Fraction(11))
#: The published counts, by the bet they are for.
BUILTIN_COUNTS: Mapping[str, Count] = MappingProxyType(
    {"dragon_7": DRAGON_7_COUNT, "panda_8": PANDA_8_COUNT}
)


@dataclass(frozen=True, slots=True)
class Strategy:
    """One unit on ``bet`` before every coup (``count`` is None), or when ``count`` says so."""

    bet: str
    count: Count | None = None

    @classmethod
    def parse(cls, text: str) -> Strategy:
        """Read ``flat:BET``, ``BET``, ``count:BET``, ``count:BET::T`` or ``count:BET:TAGS:T``."""
        parts = [part.strip() for part in text.strip().split(":")]
        kind = parts[0].lower()
        if len(parts) == 1:
            return cls(_bet(parts[0]))
        if kind == "flat" and len(parts) == 2:
            return cls(_bet(parts[1]))
        if kind != "count" or len(parts) not in (2, 4):
            raise StrategyError(
                f"bad strategy {text!r} (write flat:BET, count:BET or count:BET:TAGS:THRESHOLD)"
            )
        bet = _bet(parts[1])
        published = BUILTIN_COUNTS.get(bet)
        if len(parts) == 2 or not parts[2]:
            if published is None:
                raise StrategyError(
                    f"no published count for {bet!r} (built in: {', '.join(BUILTIN_COUNTS)}); "
                    f"give tags: count:{bet}:TAGS:THRESHOLD"
                )
            if len(parts) == 2:
                return cls(bet, published)
            return cls(bet, Count(published.tags, _threshold(parts[3])))
        return cls(bet, Count(_tags(parts[2]), _threshold(parts[3])))

    @property
    def text(self) -> str:
        """The shortest way to write the strategy on the command line.

        >>> Strategy.parse("count:dragon_7:0,0,0,-1,-1,-1,-1,2,2,0:3").text
        'count:dragon_7::3'
        """
        if self.count is None:
            return f"flat:{self.bet}"
        published = BUILTIN_COUNTS.get(self.bet)
        if published is not None and published.tags == self.count.tags:
            if published.threshold == self.count.threshold:
                return f"count:{self.bet}"
            return f"count:{self.bet}::{_number(self.count.threshold)}"
        return f"count:{self.bet}:{self.count.text}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Strategy.parse({self.text!r})"


def _bet(name: str) -> str:
    if name not in BET_TYPES:
        raise StrategyError(f"unknown bet {name!r} (bets: {', '.join(BET_TYPES)})")
    return name


def _tags(text: str) -> tuple[int, ...]:
    try:
        tags = tuple(int(tag) for tag in text.split(","))
    except ValueError:
        raise StrategyError(f"tags must be whole numbers separated by commas: {text!r}") from None
    if len(tags) == 10:
        # By value: A to 9, then one tag for tens and faces.
        return (*tags[:9], tags[9], tags[9], tags[9], tags[9])
    if len(tags) != len(RANKS):
        raise StrategyError(
            f"give 13 tags by rank (A..K) or 10 by value (A..9, then tens), not {len(tags)}"
        )
    return tags


def _threshold(text: str) -> Fraction:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise StrategyError(f"the threshold must be a number, not {text!r}") from None


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)
