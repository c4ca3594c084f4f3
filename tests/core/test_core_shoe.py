"""The shoe procedure: burn, cut card, both last-coup rules, reproducible shuffles, compositions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.cards import Card, Rank, full_deck, parse_cards
from baccarat.shoe import (
    Composition,
    LastCoupRule,
    Shoe,
    ShoeError,
    ShoeProcedure,
    burn_count,
)


@pytest.mark.parametrize(
    ("code", "burned"),
    [("As", 2), ("2d", 3), ("5h", 6), ("9c", 10), ("Ts", 11), ("Jd", 11), ("Qh", 11), ("Kc", 11)],
)
def test_burn_takes_the_turned_card_and_its_value(code: str, burned: int) -> None:
    # An ace burns 1 more, a 5 burns 5 more, tens and faces burn 10 more.
    assert burn_count(Card.parse(code)) == burned
    order = [Card.parse(code), *full_deck()]
    shoe = Shoe(order)
    assert len(shoe.burned) == burned
    assert shoe.burned[0] == Card.parse(code)
    assert shoe.position == burned


def test_burn_can_be_switched_off() -> None:
    shoe = Shoe(full_deck(), burn=False)
    assert shoe.burned == ()
    assert shoe.deal_coup().cards[0] == full_deck()[0]


@pytest.mark.parametrize("decks", [0, 9, -1])
def test_deck_count_is_checked(decks: int) -> None:
    with pytest.raises(ShoeError, match="1 to 8 decks"):
        Shoe.shuffled(decks=decks)
    with pytest.raises(ShoeError, match="1 to 8 decks"):
        ShoeProcedure(decks=decks)


def test_same_seed_same_shoe_and_default_is_csprng() -> None:
    a = Shoe.shuffled(decks=8, rng=random.Random(42))
    b = Shoe.shuffled(decks=8, rng=random.Random(42))
    c = Shoe.shuffled(decks=8, rng=random.Random(43))
    assert a.order == b.order != c.order
    assert [x.cards for x in a.coups()] == [x.cards for x in b.coups()]
    assert sorted(Shoe.shuffled(decks=2).order) == sorted(full_deck() * 2)


def _coups_by_hand(order: list[Card], cut_from_end: int, rule: LastCoupRule) -> tuple[int, int]:
    """Number of coups and cards used, by dealing with an independent loop from the procedure."""
    from baccarat.coup import deal_from

    position = burn_count(order[0])
    cut = len(order) - cut_from_end
    coups, one_more = 0, False
    while len(order) - position >= 6:
        coup = deal_from(iter(order[position:]).__next__)
        position += coup.cards_used
        coups += 1
        if one_more:
            break
        if position > cut:
            if rule is LastCoupRule.FINISH:
                break
            one_more = True
    return coups, position


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(1, 8),
    st.integers(0, 52),
    st.sampled_from(list(LastCoupRule)),
)
def test_cut_card_and_last_coup_rules(seed: int, decks: int, cut: int, rule: LastCoupRule) -> None:
    shoe = Shoe.shuffled(
        rng=random.Random(seed),
        procedure=ShoeProcedure(decks=decks, cut_card_from_end=cut, last_coup=rule),
    )
    order = list(shoe.order)
    coups = list(shoe.coups())
    assert shoe.finished
    assert sum(c.cards_used for c in coups) + len(shoe.burned) == shoe.position <= len(order)
    assert (len(coups), shoe.position) == _coups_by_hand(order, cut, rule)


def test_one_more_deals_exactly_one_coup_after_the_cut_card() -> None:
    order = list(Shoe.shuffled(decks=1, rng=random.Random(5)).order)
    for rule, extra in ((LastCoupRule.FINISH, 0), (LastCoupRule.ONE_MORE, 1)):
        shoe = Shoe(order, last_coup=rule)
        seen_at = None
        count = 0
        for count, _ in enumerate(shoe.coups(), 1):
            if shoe.cut_card_out and seen_at is None:
                seen_at = count
        assert seen_at is not None
        assert count == seen_at + extra


@pytest.mark.parametrize("seed", range(200))
def test_one_deck_dealt_to_its_end_never_runs_short(seed: int) -> None:
    # The latest possible cut card: no card behind it; the shoe must still end cleanly.
    for cut in (0, 3, 14):
        shoe = Shoe.shuffled(
            rng=random.Random(seed), procedure=ShoeProcedure(decks=1, cut_card_from_end=cut)
        )
        coups = list(shoe.coups())
        assert coups
        assert shoe.position <= 52
        with pytest.raises(ShoeError, match="finished"):
            shoe.deal_coup()


def test_replay_from_an_explicit_card_list() -> None:
    cards = parse_cards("As 9h 4h 3c 2d 2s 7h 4h 2c 5d 6s 9c 9c 9c 9c 9c 9c")
    shoe = Shoe(cards, cut_card_from_end=0)
    assert [c.code for c in shoe.burned] == ["As", "9h"]
    first, second = shoe.deal_coup(), shoe.deal_coup()
    assert (str(first.player), str(first.banker)) == ("4h 2d", "3c 2s 7h")
    assert (str(second.player), str(second.banker)) == ("4h 5d", "2c 6s")
    assert shoe.position == 2 + 5 + 4
    with pytest.raises(ShoeError, match="at least 6"):
        Shoe(cards[:5])


def test_composition() -> None:
    full = Composition.full(8)
    assert full.total == 416 and full.counts == (32,) * 13
    assert full.by_value() == (128, 32, 32, 32, 32, 32, 32, 32, 32, 32)
    less = full.without([Rank.KING, Card.parse("5h")])
    assert less.count(Rank.KING) == 31 and less.count(Rank.FIVE) == 31 and less.total == 414
    assert Composition.of(parse_cards("As Ad Kc")).counts[0] == 2
    with pytest.raises(ShoeError, match="no K left"):
        Composition.of(parse_cards("As")).without([Rank.KING])
    with pytest.raises(ShoeError, match="negative"):
        Composition((-1,) + (0,) * 12)
    shoe = Shoe.shuffled(decks=1, rng=random.Random(1))
    shoe.deal_coup()
    assert shoe.composition().total == shoe.cards_left
