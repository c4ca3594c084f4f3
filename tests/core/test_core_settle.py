"""Settlement tables for every built-in rule set, rounding, refusals, and a money-conservation property."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.bets import BET_TYPES
from baccarat.cards import Card, full_deck, parse_cards
from baccarat.coup import Coup, deal, deal_from
from baccarat.payout import Result
from baccarat.rulesets import BUILTIN_RULESETS, load_ruleset
from baccarat.settle import SettlementError, settle

# Coups worked by hand (deal order P1 B1 P2 B2 [P3] [B3]):
NATURAL_9 = "9h 3c Kd 4s"  # Player natural 9 vs Banker 7; 4 cards
BANKER_6_TWO = "2h 3c 3d 3s 9c"  # Player 5 draws 9 -> 4; Banker 3+3 = 6 stands; banker pair
BANKER_7_THREE = "Kh 2c Qd 2s 2d 3h"  # Player 0 draws 2; Banker 4 draws 3 -> 7, by 5; banker pair
PLAYER_8_THREE = "Kh 3c 3d 3s 5h"  # Player 3 draws 5 -> 8; Banker 6 stands on a 5
TIE_6 = "4h 3c 2d 3s"  # both stand on 6
NATURAL_TIE = "8h 9c Kd 9s"  # natural 8 each; banker pair
PAIRS_PERFECT = "5h 7c 5h 7s 9c"  # Player 0 draws 9 -> 9 by 5; both pairs, Player's suited
BY_NINE = "Kh Qc Ad Js 8h Ks"  # Player 1 draws 8 -> 9; Banker 0 draws K -> 0
BANKER_6_THREE = "Kh 3c Qd 2s 5h Ac"  # Player 0 draws 5; Banker 5 draws A -> 6 by 1

# (rule set, bet, coup, result, amount returned on a stake of 1000); every row worked by hand.
TABLE = [
    ("standard", "player", NATURAL_9, "win", 2000),
    ("standard", "banker", NATURAL_9, "lose", 0),
    ("standard", "tie", NATURAL_9, "lose", 0),
    ("standard", "player_pair", NATURAL_9, "lose", 0),
    ("standard", "dragon_bonus_player", NATURAL_9, "win", 2000),
    ("standard", "dragon_bonus_banker", NATURAL_9, "lose", 0),
    ("standard", "small", NATURAL_9, "win", 2500),
    ("standard", "big", NATURAL_9, "lose", 0),
    ("standard", "banker", BANKER_6_TWO, "win", 1950),
    ("no-commission", "banker", BANKER_6_TWO, "half", 1500),
    ("ez", "banker", BANKER_6_TWO, "win", 2000),
    ("tie-9", "banker", BANKER_6_TWO, "win", 1950),
    ("no-commission", "super_6", BANKER_6_TWO, "win", 13000),
    ("standard", "banker_pair", BANKER_6_TWO, "win", 12000),
    ("standard", "either_pair", BANKER_6_TWO, "win", 6000),
    ("standard", "perfect_pair", BANKER_6_TWO, "lose", 0),
    ("standard", "dragon_bonus_banker", BANKER_6_TWO, "lose", 0),
    ("standard", "big", BANKER_6_TWO, "win", 1540),
    ("standard", "banker", BANKER_7_THREE, "win", 1950),
    ("no-commission", "banker", BANKER_7_THREE, "win", 2000),
    ("ez", "banker", BANKER_7_THREE, "push", 1000),
    ("ez", "dragon_7", BANKER_7_THREE, "win", 41000),
    ("ez", "panda_8", BANKER_7_THREE, "lose", 0),
    ("ez", "player", BANKER_7_THREE, "lose", 0),
    ("standard", "dragon_bonus_banker", BANKER_7_THREE, "win", 3000),
    ("standard", "player_pair", BANKER_7_THREE, "lose", 0),  # K and Q are no pair
    ("standard", "banker_pair", BANKER_7_THREE, "win", 12000),
    ("ez", "panda_8", PLAYER_8_THREE, "win", 26000),
    ("ez", "dragon_7", PLAYER_8_THREE, "lose", 0),
    ("ez", "player", PLAYER_8_THREE, "win", 2000),
    ("standard", "dragon_bonus_player", PLAYER_8_THREE, "lose", 0),  # non-natural win by 2
    ("standard", "player", TIE_6, "push", 1000),
    ("standard", "banker", TIE_6, "push", 1000),
    ("no-commission", "banker", TIE_6, "push", 1000),
    ("ez", "banker", TIE_6, "push", 1000),
    ("standard", "tie", TIE_6, "win", 9000),
    ("no-commission", "tie", TIE_6, "win", 9000),
    ("ez", "tie", TIE_6, "win", 9000),
    ("tie-9", "tie", TIE_6, "win", 10000),
    ("standard", "dragon_bonus_player", TIE_6, "lose", 0),
    ("standard", "dragon_bonus_banker", TIE_6, "lose", 0),
    ("no-commission", "super_6", TIE_6, "lose", 0),  # a tie on 6 is no Banker win
    ("standard", "small", TIE_6, "win", 2500),
    ("standard", "dragon_bonus_player", NATURAL_TIE, "push", 1000),
    ("standard", "dragon_bonus_banker", NATURAL_TIE, "push", 1000),
    ("standard", "tie", NATURAL_TIE, "win", 9000),
    ("standard", "banker_pair", NATURAL_TIE, "win", 12000),
    ("standard", "perfect_pair", PAIRS_PERFECT, "win", 26000),
    ("standard", "player_pair", PAIRS_PERFECT, "win", 12000),
    ("standard", "banker_pair", PAIRS_PERFECT, "win", 12000),
    ("standard", "either_pair", PAIRS_PERFECT, "win", 6000),
    ("standard", "dragon_bonus_player", PAIRS_PERFECT, "win", 3000),
    ("standard", "dragon_bonus_player", BY_NINE, "win", 31000),
    ("standard", "big", BY_NINE, "win", 1540),
    ("standard", "banker", BANKER_6_THREE, "win", 1950),
    ("no-commission", "banker", BANKER_6_THREE, "half", 1500),
    ("no-commission", "super_6", BANKER_6_THREE, "win", 13000),
    ("standard", "dragon_bonus_banker", BANKER_6_THREE, "lose", 0),
]
# The side bets every built-in shares pay alike everywhere: the same rows under each rule set.
SHARED_SIDES = {
    "player": [(NATURAL_9, "win", 2000), (TIE_6, "push", 1000)],
    "player_pair": [(PAIRS_PERFECT, "win", 12000), (BANKER_7_THREE, "lose", 0)],
    "banker_pair": [(NATURAL_TIE, "win", 12000), (NATURAL_9, "lose", 0)],
    "either_pair": [(BANKER_6_TWO, "win", 6000), (NATURAL_9, "lose", 0)],
    "perfect_pair": [(PAIRS_PERFECT, "win", 26000), (BANKER_6_TWO, "lose", 0)],
    "dragon_bonus_player": [(BY_NINE, "win", 31000), (NATURAL_TIE, "push", 1000)],
    "dragon_bonus_banker": [(BANKER_7_THREE, "win", 3000), (TIE_6, "lose", 0)],
    "big": [(BY_NINE, "win", 1540), (TIE_6, "lose", 0)],
    "small": [(TIE_6, "win", 2500), (BY_NINE, "lose", 0)],
}
TABLE += [
    (rules, bet, cards, result, returned)
    for rules in ("no-commission", "ez", "tie-9")
    for bet, rows in SHARED_SIDES.items()
    if load_ruleset(rules).offers(bet)
    for cards, result, returned in rows
]


@pytest.mark.parametrize(("rules", "bet", "cards", "result", "returned"), TABLE)
def test_settlement_table(rules: str, bet: str, cards: str, result: str, returned: int) -> None:
    (wager,) = settle({bet: 1000}, deal(parse_cards(cards)), load_ruleset(rules))
    assert (wager.result.value, wager.returned) == (result, returned)


def test_table_covers_every_offered_bet_of_every_builtin() -> None:
    covered = {(rules, bet) for rules, bet, *_ in TABLE}
    # A rupiah rule set pays as its dollar one does (test_core_rulesets): the same cases.
    for name in BUILTIN_RULESETS:
        for bet in load_ruleset(name).bets:
            assert (name.removesuffix("-idr"), bet) in covered, (name, bet)


@pytest.mark.parametrize(
    ("rules", "bet", "cards", "stake", "returned"),
    [
        ("standard", "banker", BANKER_6_TWO, 105, 204),  # 105 * 19/20 = 99.75 -> 99
        ("standard", "banker", BANKER_6_TWO, 1, 1),  # a 0.95 profit rounds down to nothing
        ("no-commission", "banker", BANKER_6_TWO, 1001, 1501),  # half of 1001 = 500.5 -> 500
        ("standard", "big", BANKER_6_TWO, 101, 155),  # 101 * 0.54 = 54.54 -> 54
        ("standard", "small", NATURAL_9, 101, 252),  # 101 * 1.5 = 151.5 -> 151
        ("standard", "tie", TIE_6, 7, 63),
    ],
)
def test_rounding_is_down_to_a_whole_minor_unit(
    rules: str, bet: str, cards: str, stake: int, returned: int
) -> None:
    (wager,) = settle({bet: stake}, deal(parse_cards(cards)), load_ruleset(rules))
    assert wager.returned == returned


@pytest.mark.parametrize(
    ("wagers", "message"),
    [
        ({}, "no wagers"),
        ({"player": 100, "martingale": 100}, "unknown bet 'martingale'"),
        ({"player": 100, "dragon_7": 100}, "does not offer 'dragon_7'"),
        ({"player": 0}, "positive integer"),
        ({"player": -5}, "positive integer"),
        ({"player": 10.5}, "positive integer"),
        ({"player": True}, "positive integer"),
        ({"player": "100"}, "positive integer"),
    ],
)
def test_bad_wagers_are_refused_whole(wagers: dict[str, object], message: str) -> None:
    with pytest.raises(SettlementError, match=message):
        settle(wagers, deal(parse_cards(TIE_6)), load_ruleset("standard"))  # type: ignore[arg-type]


CARDS = st.lists(st.sampled_from(full_deck() * 2), min_size=6, max_size=6)


def _coup(cards: list[Card]) -> Coup:
    return deal_from(iter(cards).__next__)


@given(
    st.sampled_from(BUILTIN_RULESETS),
    CARDS,
    st.dictionaries(st.sampled_from(list(BET_TYPES)), st.integers(1, 10**12), min_size=1),
)
def test_settlement_never_creates_or_loses_a_minor_unit(
    rules: str, cards: list[Card], wagers: dict[str, int]
) -> None:
    ruleset = load_ruleset(rules)
    wagers = {bet: stake for bet, stake in wagers.items() if ruleset.offers(bet)} or {"player": 1}
    coup = _coup(cards)
    settlement = settle(wagers, coup, ruleset)
    assert [w.bet for w in settlement] == list(wagers)
    for wager in settlement:
        exact = Fraction(wager.stake) * (1 + wager.payout.odds)
        if wager.result is Result.LOSE:
            assert wager.returned == 0
        elif wager.result is Result.PUSH:
            assert wager.returned == wager.stake
        else:
            # Paid exactly to the pay table, less the fraction of a minor unit it cannot pay.
            assert 0 <= exact - wager.returned < 1
            assert wager.returned >= wager.stake
        assert isinstance(wager.returned, int)
    assert settlement.staked == sum(wagers.values())
    assert settlement.net == settlement.returned - settlement.staked
