"""Coups: the seeds' worked examples, and properties of dealing over random cards."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.cards import Card, full_deck, parse_cards
from baccarat.coup import Coup, DealError, Outcome, deal, deal_from, hand_total

CARDS = st.sampled_from(full_deck())


def coup_of(text: str) -> Coup:
    return deal(parse_cards(text))


def test_hand_values_from_the_seeds() -> None:
    # 7+8 = 15 -> 5; A+6+9 = 16 -> 6; 10+3+6 -> 9; K+10 -> 0 (000, 001, 002, 004).
    assert hand_total(parse_cards("7h 8d")) == 5
    assert hand_total(parse_cards("Ah 6d 9c")) == 6
    assert hand_total(parse_cards("10h 3d 6c")) == 9
    assert hand_total(parse_cards("Kh 10d")) == 0


def test_seed_000_player_stands_on_6_banker_draws_on_5() -> None:
    # Player 4+2 = 6 stands; Banker 3+2 = 5 draws because Player stood; draws 7 -> 2; Player wins.
    coup = coup_of("4h 3c 2d 2s 7h")
    assert [c.code for c in coup.player.cards] == ["4h", "2d"]
    assert [c.code for c in coup.banker.cards] == ["3c", "2s", "7h"]
    assert (coup.player_total, coup.banker_total, coup.winner) == (6, 2, Outcome.PLAYER)
    assert coup.player_rule == "player stands on 6-7"
    assert coup.banker_rule == "player stood: banker draws on 0-5"


def test_seed_001_natural_9_beats_natural_8() -> None:
    coup = coup_of("4h 2c 5d 6s")  # Player 4+5 = 9, Banker 2+6 = 8
    assert coup.player.natural and coup.banker.natural
    assert coup.cards_used == 4
    assert coup.winner is Outcome.PLAYER
    assert coup.player_rule == coup.banker_rule == "natural: no third card"


@pytest.mark.parametrize(
    ("cards", "player", "banker", "winner"),
    [
        ("7h 2c Kd 2s Kc", 7, 4, Outcome.PLAYER),  # 000: Player 7 vs Banker 4 -> Player
        ("Kh 8c 3d Ks", 3, 8, Outcome.BANKER),  # 000: 3 vs 8 -> Banker (Banker natural)
        ("4h 3c 2d 3s", 6, 6, Outcome.TIE),  # 000: 6 vs 6 -> Tie
        ("4h 3c 5d 4s", 9, 7, Outcome.PLAYER),  # 000: natural 9 vs 7: dealing stops at two cards
    ],
)
def test_seed_000_result_table(cards: str, player: int, banker: int, winner: Outcome) -> None:
    coup = coup_of(cards)
    assert (coup.player_total, coup.banker_total, coup.winner) == (player, banker, winner)


def test_a_third_card_nine_is_not_a_natural() -> None:
    coup = coup_of("Ah 3c 3d 4s 5c")  # Player 1+3 = 4 draws 5 -> 9; Banker 7 stands
    assert coup.player_total == 9
    assert not coup.player.natural
    assert not coup.natural


def test_natural_check_comes_before_drawing() -> None:
    coup = coup_of("2h 9c 3d Ks")  # Player 5 would draw, but Banker has a natural 9
    assert coup.cards_used == 4
    assert coup.winner is Outcome.BANKER


def test_banker_3_stands_on_player_third_8() -> None:
    coup = coup_of("2h Ac 3d 2s 8c")  # Player 5 draws 8 -> 3; Banker 3 stands on an 8
    assert coup.cards_used == 5
    assert coup.banker_rule == "banker 3 stands when the player third card is 8"


def test_pairs_are_by_rank_not_value() -> None:
    assert coup_of("Kh 5c Qd 5s 2c Ac").banker_pair
    assert not coup_of("Kh 5c Qd 5s 2c Ac").player_pair  # K and Q: both 0, no pair
    assert coup_of("5h 7c 5h 7s 9c").player.suited_pair


def test_too_few_or_too_many_cards() -> None:
    with pytest.raises(DealError, match="more cards than the 4 given"):
        deal(parse_cards("Ah 3c 3d 4s"))
    with pytest.raises(DealError, match="left over"):
        deal(parse_cards("4h 2c 5d 6s 7c"))


def test_json_has_exactly_the_documented_keys() -> None:
    data = coup_of("4h 3c 2d 2s 7h").to_json()
    assert data == {
        "player": ["4h", "2d"],
        "banker": ["3c", "2s", "7h"],
        "player_total": 6,
        "banker_total": 2,
        "winner": "player",
        "natural": False,
        "player_pair": False,
        "banker_pair": False,
        "cards_used": 5,
    }


def _deal_prefix(cards: list[Card]) -> Coup:
    return deal_from(iter(cards).__next__)


@given(st.lists(CARDS, min_size=6, max_size=6))
def test_properties_of_any_coup(cards: list[Card]) -> None:
    coup = _deal_prefix(cards)
    assert 0 <= coup.player_total <= 9 and 0 <= coup.banker_total <= 9
    assert 4 <= coup.cards_used <= 6
    assert list(coup.cards) == cards[: coup.cards_used]
    assert len(coup.player.cards) + len(coup.banker.cards) == coup.cards_used
    if coup.natural:
        assert coup.cards_used == 4
    # Deal order: P1 B1 P2 B2, then the Player's third card before the Banker's.
    assert coup.player.cards[:2] == (cards[0], cards[2])
    assert coup.banker.cards[:2] == (cards[1], cards[3])
    if len(coup.player.cards) == 3:
        assert coup.player.cards[2] == cards[4]
    # Deterministic, and ``deal`` of exactly the used cards gives the same coup.
    assert deal(cards[: coup.cards_used]) == coup == _deal_prefix(cards)
    expected = (
        Outcome.TIE
        if coup.player_total == coup.banker_total
        else Outcome.PLAYER
        if coup.player_total > coup.banker_total
        else Outcome.BANKER
    )
    assert coup.winner is expected
