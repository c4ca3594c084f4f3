"""The robot's physical shoe: eight whole decks, shuffled by the OS CSPRNG, drawn in order."""

from __future__ import annotations

import random
import secrets
from collections import Counter

import pytest

from baccarat.cards import full_deck
from baccarat.shoedevice.physical import DECKS, PhysicalShoe, ShoeEmptyError


def test_a_shoe_holds_each_card_of_eight_decks_eight_times() -> None:
    shoe = PhysicalShoe.shuffled()
    assert DECKS == 8
    assert len(shoe.order) == 416
    assert Counter(shoe.order) == Counter(dict.fromkeys(full_deck(), 8))


def test_cards_are_drawn_in_the_shoes_order_until_none_is_left() -> None:
    shoe = PhysicalShoe.shuffled()
    drawn = [shoe.draw() for _ in range(416)]
    assert drawn == list(shoe.order)
    assert (shoe.drawn, shoe.left) == (416, 0)
    with pytest.raises(ShoeEmptyError, match="all 416 cards of the shoe are drawn"):
        shoe.draw()


def test_shuffles_differ() -> None:
    orders = {PhysicalShoe.shuffled().order for _ in range(5)}
    assert len(orders) == 5
    # Not the deck order either.
    assert tuple(full_deck() * 8) not in orders


def test_the_os_csprng_shuffles_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[random.Random] = []

    class Counted(secrets.SystemRandom):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    # The module asks ``secrets`` for a generator each time: this one counts being made.
    monkeypatch.setattr(secrets, "SystemRandom", Counted)
    PhysicalShoe.shuffled()
    assert len(made) == 1
    monkeypatch.undo()
    # The random module's generator plays no part: seeding it alike gives different shoes.
    random.seed(7)
    first = PhysicalShoe.shuffled().order
    random.seed(7)
    assert PhysicalShoe.shuffled().order != first


def test_a_generator_given_makes_a_shoe_repeatable() -> None:
    assert PhysicalShoe.shuffled(rng=random.Random(3)).order == (
        PhysicalShoe.shuffled(rng=random.Random(3)).order
    )
    small = PhysicalShoe.shuffled(decks=1, rng=random.Random(3))
    assert sorted(small.order) == sorted(full_deck())


@pytest.mark.parametrize("decks", [0, 9, -1])
def test_a_shoe_holds_one_to_eight_decks(decks: int) -> None:
    with pytest.raises(ValueError, match="a shoe holds 1 to 8 decks"):
        PhysicalShoe.shuffled(decks=decks)
