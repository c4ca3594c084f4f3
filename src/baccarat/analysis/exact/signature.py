"""Which event each bet falls on, for every kind of coup, read from the catalogue itself.

A coup's **signature** is its final totals, how many cards each hand holds, and each
hand's **pair level**: 0 if its two first cards differ in rank, 1 if they share a rank
but are different cards, 2 if they are the same card (same rank and suit, from two
decks). For every signature that a coup can have, one representative coup is dealt
(``baccarat.coup.deal``) and each bet type's own ``classify`` is asked about it, so the
odds engine and settlement read the same definition of every bet.

>>> from baccarat.bets import BET_TYPES
>>> events = bet_events(BET_TYPES["banker"])
>>> events.kind, events.needs_ranks
('value', False)
>>> pairs = bet_events(BET_TYPES["perfect_pair"])
>>> pairs.kind, pairs.needs_ranks, pairs.needs_suits
('pairs', True, True)
>>> [pairs.bet.events[i] for i in pairs.by_levels[2]]
['perfect_pair', 'perfect_pair', 'perfect_pair']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal, TypeAlias

import numpy as np
from numpy.typing import NDArray

from baccarat.analysis.cache import cached_json, function_key, source_stamp
from baccarat.analysis.exact.coup_table import NO_PAIR, SIGNATURES, coup_table, signature_id
from baccarat.bets import BetType
from baccarat.cards import Card, Rank, Suit
from baccarat.coup import Coup, Hand, Outcome, deal

__all__ = [
    "LEVELS",
    "BetEvents",
    "Dependence",
    "Representatives",
    "bet_events",
    "coup_signature",
    "feasible_levels",
    "pair_level",
    "representatives",
]

Ints = NDArray[np.int64]
#: What a bet's event depends on: the signature, the pair levels, or both.
Dependence: TypeAlias = Literal["value", "pairs", "mixed"]

#: Pair levels: 0 no pair, 1 a pair of rank, 2 the same card twice.
LEVELS = 3
_OUTCOME_INDEX = {Outcome.BANKER: 0, Outcome.PLAYER: 1, Outcome.TIE: 2}
# Ten-valued cards get different ranks by position, so two of them only pair when asked to.
_TENS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.JACK)
_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS)


def pair_level(hand: Hand) -> int:
    """0, 1 or 2: no pair, a pair of rank, or the same card twice (a suited pair)."""
    if hand.suited_pair:
        return 2
    return 1 if hand.pair else 0


def coup_signature(coup: Coup) -> tuple[int, int, int]:
    """The signature id of a coup and the pair levels of Player and Banker."""
    sid = signature_id(
        coup.player_total, coup.banker_total, len(coup.player.cards), len(coup.banker.cards)
    )
    return sid, pair_level(coup.player), pair_level(coup.banker)


def feasible_levels(shared_value: int) -> tuple[int, ...]:
    """The pair levels two first cards can have, given the value they share (or ``NO_PAIR``).

    Cards of different values never pair; two cards of the same value 1-9 share a rank;
    two ten-valued cards may or may not.
    """
    if shared_value == NO_PAIR:
        return (0,)
    return (0, 1, 2) if shared_value == 0 else (1, 2)


def _representative(values: Ints, player_level: int, banker_level: int) -> Coup:
    cards = [
        Card(_TENS[i] if value == 0 else Rank(int(value)), _SUITS[i])
        for i, value in enumerate(values)
        if value >= 0
    ]
    for first, second, level in ((0, 2, player_level), (1, 3, banker_level)):
        if level == 1:
            cards[second] = Card(cards[first].rank, cards[second].suit)
        elif level == 2:
            cards[second] = cards[first]
    return deal(cards)


@dataclass(frozen=True, eq=False)
class Representatives:
    """One coup per possible (signature, Player level, Banker level)."""

    coups: tuple[Coup, ...]
    signature: Ints
    player_level: Ints
    banker_level: Ints
    #: For each signature id: 0 Banker wins, 1 Player wins, 2 tie; -1 if no coup has it.
    winner: Ints


@cache
def representatives() -> Representatives:
    """The representative coups (about 1,400, dealt once per process)."""
    table = coup_table()
    found: dict[tuple[int, int, int], Coup] = {}
    for sid, key, values in zip(
        table.group_signature.tolist(), table.group_key.tolist(), table.examples, strict=True
    ):
        shared_p, shared_b = divmod(key, 11)
        for hp in feasible_levels(shared_p):
            for hb in feasible_levels(shared_b):
                if (sid, hp, hb) not in found:
                    coup = _representative(values, hp, hb)
                    if coup_signature(coup) != (sid, hp, hb):  # pragma: no cover - a table bug
                        raise AssertionError(f"representative {coup} is not {(sid, hp, hb)}")
                    found[sid, hp, hb] = coup
    keys = sorted(found)
    winner = np.full(SIGNATURES, -1, dtype=np.int64)
    for (sid, _, _), coup in found.items():
        winner[sid] = _OUTCOME_INDEX[coup.winner]  # the totals, so the winner, are the signature's
    return Representatives(
        coups=tuple(found[k] for k in keys),
        signature=np.array([k[0] for k in keys], dtype=np.int64),
        player_level=np.array([k[1] for k in keys], dtype=np.int64),
        banker_level=np.array([k[2] for k in keys], dtype=np.int64),
        winner=winner,
    )


@dataclass(frozen=True, eq=False)
class BetEvents:
    """The event of one bet type for every possible coup signature."""

    bet: BetType
    #: Event index (into ``bet.events``) by signature id, Player level, Banker level; -1: no coup.
    table: Ints
    #: ``value``: the event depends on the signature only; ``pairs``: on the pair levels only;
    #: ``mixed``: on both.
    kind: Dependence
    #: The event depends on the pair levels at all (so counts by rank are needed).
    needs_ranks: bool
    #: The event tells a pair of rank from the same card twice (so counts by card are needed).
    needs_suits: bool

    @property
    def by_signature(self) -> Ints:
        """For a ``value`` bet: the event index of each signature id (-1: no coup)."""
        return np.asarray(self.table.max(axis=(1, 2)), dtype=np.int64)

    @property
    def by_levels(self) -> Ints:
        """For a ``pairs`` bet: the event index of each (Player level, Banker level)."""
        return np.asarray(self.table.max(axis=0), dtype=np.int64)


_events_cache: dict[int, BetEvents] = {}


def bet_events(bet: BetType) -> BetEvents:
    """The event table of ``bet``, from its ``classify`` on every representative coup."""
    cached = _events_cache.get(id(bet))
    if cached is not None and cached.bet is bet:
        return cached
    stored = cached_json(
        "bet-events",
        _events_key(bet),
        lambda: _stored(bet),
        valid=lambda value: isinstance(value, dict) and value.get("kind") in _KINDS,
    )
    table = np.array(stored["table"], dtype=np.int64).reshape(SIGNATURES, LEVELS, LEVELS)
    kind: Dependence = stored["kind"]
    result = BetEvents(bet, table, kind, bool(stored["needs_ranks"]), bool(stored["needs_suits"]))
    _events_cache[id(bet)] = result
    return result


_KINDS = ("value", "pairs", "mixed")


def _stored(bet: BetType) -> dict[str, object]:
    events = _classified(bet, _classify_all(bet))
    return {
        "table": events.table.tolist(),
        "kind": events.kind,
        "needs_ranks": events.needs_ranks,
        "needs_suits": events.needs_suits,
    }


#: The modules whose code decides a bet's event table (with the bet's own classifier).
_SOURCES = (
    "baccarat.analysis.exact.signature",
    "baccarat.analysis.exact.coup_table",
    "baccarat.bets",
    "baccarat.cards",
    "baccarat.coup",
    "baccarat.tableau",
)


def _events_key(bet: BetType) -> object:
    # Dealing 1,417 coups and classifying them is a third of a second; the table is kept on
    # disk under what it depends on: the bet type and the code that deals and classifies.
    module = getattr(bet.classify, "__module__", None) or ""
    return [
        bet.name,
        list(bet.events),
        function_key(bet.classify),
        source_stamp(*_SOURCES, module),
    ]


def _classify_all(bet: BetType) -> Ints:
    reps = representatives()
    index = {event: i for i, event in enumerate(bet.events)}
    table = np.full((SIGNATURES, LEVELS, LEVELS), -1, dtype=np.int64)
    for coup, sid, hp, hb in zip(
        reps.coups,
        reps.signature.tolist(),
        reps.player_level.tolist(),
        reps.banker_level.tolist(),
        strict=True,
    ):
        event = bet.classify(coup)
        if event not in index:
            raise ValueError(f"bet {bet.name!r} classified a coup as {event!r}, not in its events")
        table[sid, hp, hb] = index[event]
    return table


def _distinct(values: NDArray[np.int64]) -> int:
    return len(set(values[values >= 0].tolist()))


def _classified(bet: BetType, table: Ints) -> BetEvents:
    levels_matter = any(_distinct(table[sid].ravel()) > 1 for sid in range(SIGNATURES))
    value_matters = any(
        _distinct(table[:, hp, hb]) > 1 for hp in range(LEVELS) for hb in range(LEVELS)
    )
    # Levels 1 and 2 are always possible together, so comparing them cell by cell suffices.
    suits = bool(
        np.any((table[:, 1, :] != table[:, 2, :]) & (table[:, 1, :] >= 0))
        or np.any((table[:, :, 1] != table[:, :, 2]) & (table[:, :, 1] >= 0))
    )
    kind: Dependence = "value" if not levels_matter else ("pairs" if not value_matters else "mixed")
    return BetEvents(bet, table, kind, levels_matter, suits)
