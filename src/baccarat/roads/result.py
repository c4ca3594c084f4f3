"""The input record of the roads (spec §2) and the token notation ``Bbn9``, ``Tp2``, ``P``.

A token is the outcome letter ``B``, ``P`` or ``T``, then optional flags ``b`` (banker pair),
``p`` (player pair) and ``n`` (natural) in any order, then an optional digit: the winning total
(for a tie, the tied total). Separators (space, ``,``, ``|``, ``_``) are ignored, so tokens may
also be written back to back.

>>> parse_results("Bbn9 Tp2, P")  # doctest: +NORMALIZE_WHITESPACE
(Result(outcome='B', banker_pair=True, player_pair=False, natural=True, total=9),
 Result(outcome='T', banker_pair=False, player_pair=True, natural=False, total=2),
 Result(outcome='P', banker_pair=False, player_pair=False, natural=False, total=None))
>>> "".join(r.outcome for r in parse_results("BBPT|B_P"))
'BBPTBP'
>>> parse_results("B Bx")
Traceback (most recent call last):
...
baccarat.roads.result.TokenError: bad road token 'Bx': use B/P/T, flags b/p/n, total 0-9
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from baccarat.coup import Coup

__all__ = ["OUTCOMES", "Letter", "Result", "TokenError", "parse_results", "result_from_coup"]

Letter = Literal["B", "P", "T"]
OUTCOMES: tuple[Letter, ...] = ("B", "P", "T")

_SEPARATORS = re.compile(r"[\s,|_]+")
_TOKEN = re.compile(r"([BPT])([bpn]*)([0-9]?)")
_NAMES: dict[str, Letter] = {"banker": "B", "player": "P", "tie": "T", "b": "B", "p": "P", "t": "T"}
_HELP = "use B/P/T, flags b/p/n, total 0-9"


class TokenError(ValueError):
    """A road token that does not follow the notation; the message names it."""


@dataclass(frozen=True, slots=True)
class Result:
    """One dealt round as the roads see it.

    ``outcome`` is ``"B"``, ``"P"`` or ``"T"``; ``"banker"``, ``"player"``, ``"tie"`` (or a
    :class:`baccarat.coup.Outcome`) are accepted too and stored as the letter.

    >>> Result("B", banker_pair=True, total=7).token
    'Bb7'
    >>> Result("tie").outcome
    'T'
    """

    outcome: Letter
    banker_pair: bool = False
    player_pair: bool = False
    natural: bool = False
    total: int | None = None

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            letter = _NAMES.get(str(self.outcome).lower())
            if letter is None:
                raise ValueError(f"outcome must be 'B', 'P' or 'T', not {self.outcome!r}")
            # Frozen: normalise once here so the hot path compares single letters only.
            object.__setattr__(self, "outcome", letter)
        if self.total is not None and not 0 <= self.total <= 9:
            raise ValueError(f"total must be 0-9, not {self.total}")

    @property
    def token(self) -> str:
        """The result in token notation."""
        flags = "b" * self.banker_pair + "p" * self.player_pair + "n" * self.natural
        return f"{self.outcome}{flags}{'' if self.total is None else self.total}"


def result_from_coup(coup: Coup) -> Result:
    """The road record of a dealt coup: winner, pairs, natural and the winning total.

    >>> from baccarat.coup import deal
    >>> from baccarat.cards import parse_cards
    >>> result_from_coup(deal(parse_cards("4h 3c 2d 2s 7h"))).token
    'P6'
    """
    letter = coup.winner.value[0].upper()
    assert letter in OUTCOMES
    return Result(
        letter,
        banker_pair=coup.banker_pair,
        player_pair=coup.player_pair,
        natural=coup.natural,
        total=coup.winning_total,
    )


def _parse_word(word: str) -> list[Result]:
    results: list[Result] = []
    position = previous = 0
    while position < len(word):
        match = _TOKEN.match(word, position)
        flags = match.group(2) if match else ""
        if match is None or len(set(flags)) != len(flags):
            # A stray character usually belongs to the token before it ("Bx", "B10"): name both.
            start = previous if match is None and results else position
            raise TokenError(f"bad road token {_culprit(word, start, position)!r}: {_HELP}")
        total = match.group(3)
        results.append(
            Result(
                match.group(1),  # type: ignore[arg-type]  # the pattern admits only B, P or T
                banker_pair="b" in flags,
                player_pair="p" in flags,
                natural="n" in flags,
                total=int(total) if total else None,
            )
        )
        previous, position = position, match.end()
    return results


def _culprit(word: str, start: int, position: int) -> str:
    """The offending text: from ``start`` up to the next outcome letter after ``position``."""
    end = position + 1
    while end < len(word) and word[end] not in "BPT":
        end += 1
    return word[start:end]


def parse_results(text: str) -> tuple[Result, ...]:
    """Parse a sequence of tokens; raise :class:`TokenError` naming the first bad one.

    >>> len(parse_results("")), parse_results("T9")[0].total
    (0, 9)
    """
    results: list[Result] = []
    for word in _SEPARATORS.split(text):
        results.extend(_parse_word(word))
    return tuple(results)
