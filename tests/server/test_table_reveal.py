"""The reveal order of a coup, the crash policy, and the table settings."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.cards import Card, full_deck
from baccarat.coup import deal_from
from baccarat.table import Phase, TableSettings, recovery_action, reveal_order
from baccarat.table.reveal import reveal_bits, round_face, squeeze_order

DECK = full_deck()


@given(st.permutations(DECK))
def test_reveal_order_is_the_deal_order_with_each_cards_hand_and_place(order: list[Card]) -> None:
    cards = iter(order)
    coup = deal_from(lambda: next(cards))
    shown = reveal_order(coup)
    assert tuple(c.card for c in shown) == coup.cards
    assert [c.index for c in shown] == list(range(len(coup.cards)))
    for hand in ("player", "banker"):
        mine = [c for c in shown if c.hand == hand]
        expected = (coup.player if hand == "player" else coup.banker).cards
        assert tuple(c.card for c in mine) == expected
        assert [c.position for c in mine] == list(range(len(expected)))
    # The first four alternate Player, Banker, Player, Banker.
    assert [c.hand for c in shown[:4]] == ["player", "banker", "player", "banker"]


@pytest.mark.parametrize(("phase", "has_cards"), list(itertools.product(Phase, [False, True])))
def test_crash_policy_for_every_phase(phase: Phase, has_cards: bool) -> None:
    action = recovery_action(phase, has_cards=has_cards)
    if phase in (Phase.SETTLED, Phase.VOIDED):
        assert action == "none"
    elif has_cards:
        assert action == "resume"
    else:
        assert action == "void"


def test_settings_are_checked() -> None:
    assert TableSettings("t", "ez", dealing="face-down").dealing == "face-down"
    bad_settings = [
        ({"betting_ms": 0}, "betting_ms"),
        ({"reveal_ms": -1}, "negative"),
        ({"result_ms": -5}, "negative"),
        ({"dealing": "sideways"}, "dealing"),
    ]
    for bad, message in bad_settings:
        with pytest.raises(ValueError, match=message):
            TableSettings("t", "ez", **bad)  # type: ignore[arg-type]


@given(st.permutations(DECK), st.integers(0, 63), st.booleans())
def test_a_round_shows_exactly_its_turned_cards_and_the_result_only_with_all(
    order: list[Card], revealed: int, settled: bool
) -> None:
    cards = iter(order)
    coup = deal_from(lambda: next(cards))
    face = round_face(coup.cards, revealed, settled=settled)
    everything = reveal_order(coup)
    expected = everything if settled else [c for c in everything if revealed >> c.index & 1]
    assert face.cards == tuple(expected)  # in deal order
    assert face.codes == [c.card.code for c in expected]
    assert (face.coup is not None) == (len(expected) == len(everything))
    assert face.coup is None or face.coup.cards == coup.cards


@given(st.permutations(DECK), st.booleans())
def test_each_turn_adds_its_own_card_in_either_dealing(order: list[Card], face_down: bool) -> None:
    cards = iter(order)
    coup = deal_from(lambda: next(cards))
    turned = squeeze_order(coup) if face_down else reveal_order(coup)
    for count in range(len(turned) + 1):
        face = round_face(coup.cards, reveal_bits(turned[:count]))
        assert sorted(face.cards, key=lambda c: c.index) == sorted(
            turned[:count], key=lambda c: c.index
        )
        assert (face.coup is None) == (count < len(turned))


def test_no_cards_stored_shows_nothing() -> None:
    for revealed in (0, 63):
        for settled in (False, True):
            face = round_face(None, revealed, settled=settled)
            assert face.cards == () and face.coup is None
