"""Effects of removal: exact, and bound by the fact that an unseen card changes nothing.

Removing a card nobody sees leaves the next coup's odds as they were, so for every bet
the effects, weighted by how many cards of each rank are left, add up to exactly zero:
a property of the odds, not of the code, that any slip in the removals would break.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from baccarat.analysis.eor import effects_of_removal
from baccarat.analysis.exact import exact_odds, full_shoe
from baccarat.analysis.exact.counts import CardCounts, ValueCounts, known
from baccarat.cards import RANKS, Card, Rank
from baccarat.rulesets import load_ruleset


@pytest.mark.parametrize("rules", ["standard", "ez", "no-commission"])
def test_weighted_effects_of_a_full_shoe_add_up_to_zero(rules: str) -> None:
    ruleset = load_ruleset(rules)
    effects = effects_of_removal(full_shoe(ruleset), ruleset)
    assert set(effects.by_bet) == set(ruleset.bets)
    for name, row in effects.by_bet.items():
        assert sum(32 * e for e in row if e is not None) == 0, name
        assert any(e != 0 for e in row) or "pair" in name, name


def test_a_depleted_shoe_with_uneven_suits() -> None:
    rng = random.Random(11)
    cards = [Card.from_index(c) for c in range(104)]
    rng.shuffle(cards)
    shoe = CardCounts.of(cards[:70])
    standard = load_ruleset("standard")
    effects = effects_of_removal(shoe, standard)
    ranks = shoe.by_rank()
    for name, row in effects.by_bet.items():
        weighted = sum(ranks.count(r) * e for r, e in zip(RANKS, row, strict=True) if e is not None)
        assert weighted == 0, name
    # One rank by hand: the suit of the card taken out is unknown, so its effect is the
    # average over the suits left, weighted by how many of each there are.
    rank = Rank.EIGHT
    suits = list({c for c in cards[:70] if c.rank is rank})
    average = sum(
        shoe.count(card) * exact_odds(shoe.without([card]), standard).bets["perfect_pair"].ev
        for card in suits
    ) / ranks.count(rank)
    before = exact_odds(shoe, standard).bets["perfect_pair"].ev
    assert effects.by_bet["perfect_pair"][rank.index] == 100 * (average - before)


def test_a_rank_with_no_card_left_has_no_effect() -> None:
    shoe = CardCounts.of(c for c in (Card.from_index(i) for i in range(52)) if c.rank != Rank.SIX)
    effects = effects_of_removal(shoe, load_ruleset("standard"))
    assert all(row[Rank.SIX.index] is None for row in effects.by_bet.values())
    assert all(row[Rank.FIVE.index] is not None for row in effects.by_bet.values())


def test_pair_bets_are_not_moved_by_one_card_from_a_full_shoe() -> None:
    # (4D-1)/(52D-1) either way: one card of rank r leaves r's pairs and every other's
    # in exactly the same proportion.
    standard = load_ruleset("standard")
    effects = effects_of_removal(CardCounts.full(6), standard)
    for name in ("player_pair", "banker_pair", "either_pair", "perfect_pair"):
        assert set(effects.by_bet[name]) == {Fraction(0)}


def test_counts_by_value_give_the_tens_one_effect() -> None:
    tie9 = load_ruleset("tie-9")
    effects = effects_of_removal(ValueCounts.full(8), tie9)
    assert "player_pair" in effects.omitted
    for row in effects.by_bet.values():
        assert len(set(row[9:])) == 1
    by_card = effects_of_removal(CardCounts.full(8), tie9)
    assert effects.by_bet["tie"] == by_card.by_bet["tie"]
    assert (
        effects.ev["tie"]
        == by_card.ev["tie"]
        == exact_odds(ValueCounts.full(8), tie9).bets["tie"].ev
    )
    assert known(ValueCounts.full(8)).total == effects.cards_left == 416
