"""Test-only sources of coups for the integrity tests: fair shoes, a biased shoe, a counter.

Nothing here is reachable from the command line or the server: the biased shoe exists only
to show that the monitor catches one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from baccarat.analysis.exact.counts import CardCounts
from baccarat.analysis.simulate.strategy import DRAGON_7_COUNT
from baccarat.cards import Card, Rank
from baccarat.coup import Coup
from baccarat.rulesets import RuleSet
from baccarat.shoe import Shoe


def biased_shoe(rng: random.Random, ruleset: RuleSet, nines_for_kings: int) -> Shoe:
    """A shoe of the rule set's decks where ``nines_for_kings`` kings have become nines."""
    order = [Card.from_index(c) for c in range(52 * ruleset.decks)]
    kings = [i for i, card in enumerate(order) if card.rank is Rank.KING][:nines_for_kings]
    for i in kings:
        order[i] = Card(Rank.NINE, order[i].suit)
    rng.shuffle(order)
    return Shoe.from_procedure(order, ruleset.shoe)


@dataclass(frozen=True)
class Dealt:
    """One coup as the table dealt it, with the cards left before it and the count then."""

    shoe_id: str
    coup: Coup
    before: CardCounts
    #: Whether the published Dragon 7 count says bet before this coup.
    count_bets: bool


def deal_shoe(shoe: Shoe, shoe_id: str) -> Iterator[Dealt]:
    """Every coup of ``shoe``, with what the shoe held before it and the Dragon 7 count's call.

    The count sees what a player at the table sees: the turned burn card and every card
    dealt (``baccarat.analysis.simulate.strategy``).
    """
    tags = DRAGON_7_COUNT.tags
    running = tags[shoe.burned[0].rank.index] if shoe.burned else 0
    before = CardCounts.of(shoe.order[shoe.position :])
    while not shoe.finished:
        bets = DRAGON_7_COUNT.bets(running, shoe.cards_left)
        coup = shoe.deal_coup()
        yield Dealt(shoe_id, coup, before, bets)
        before = before.without(coup.cards)
        running += sum(tags[card.rank.index] for card in coup.cards)


def fair_shoe(seed: str, ruleset: RuleSet) -> Shoe:
    return Shoe.shuffled(rng=random.Random(seed), procedure=ruleset.shoe)
