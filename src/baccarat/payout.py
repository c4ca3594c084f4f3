"""What one event pays: a result and exact odds, and the money it returns.

Odds are profit per unit staked, as an exact fraction. Money is an ``int`` of minor
units; a payout that is not a whole minor unit is rounded down, in the house's favour.

>>> Payout.parse("19:20").returned(1000), Payout.parse("19:20").returned(105)
(1950, 204)
>>> Payout.parse("half").returned(1001), Payout.parse("push").returned(1001)
(1501, 1001)
>>> str(Payout.parse("0.54:1")), str(Payout.parse("1.5:1"))
('27:50', '3:2')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

__all__ = ["LOSS", "PUSH", "Payout", "PayoutError", "Result"]

_ODDS = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?::|to)\s*(\d+(?:\.\d+)?)\s*$")


class PayoutError(ValueError):
    """A payout that cannot be read."""


class Result(StrEnum):
    """How a wager ended. ``half`` is a win paid at 1:2 (no-commission Banker on 6)."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    HALF = "half"


@dataclass(frozen=True, slots=True)
class Payout:
    """A result with its odds (profit per unit staked; 0 for push and lose)."""

    result: Result
    odds: Fraction = Fraction(0)

    @classmethod
    def parse(cls, text: str) -> Payout:
        """Read ``"A:B"`` (win at A to B; decimals allowed), ``"push"``, ``"half"`` or ``"lose"``."""
        word = text.strip().lower()
        if word == "push":
            return PUSH
        if word == "lose":
            return LOSS
        if word == "half":
            return cls(Result.HALF, Fraction(1, 2))
        match = _ODDS.match(word)
        if match is None:
            raise PayoutError(f"{text!r} is not a payout (write 'A:B', 'push', 'half' or 'lose')")
        win, stake = Fraction(match[1]), Fraction(match[2])
        if stake == 0 or win == 0:
            raise PayoutError(f"{text!r}: both sides of the odds must be positive")
        return cls(Result.WIN, win / stake)

    def returned(self, stake: int) -> int:
        """What a stake gets back, stake included, rounded down to a whole minor unit."""
        if self.result is Result.LOSE:
            return 0
        return stake + (stake * self.odds.numerator) // self.odds.denominator

    @property
    def net(self) -> Fraction:
        """Net result per unit staked: the odds for a win, 0 for a push, −1 for a loss."""
        return Fraction(-1) if self.result is Result.LOSE else self.odds

    def __str__(self) -> str:
        if self.result is Result.WIN:
            return f"{self.odds.numerator}:{self.odds.denominator}"
        return self.result.value


PUSH = Payout(Result.PUSH)
LOSS = Payout(Result.LOSE)
