"""The tableau, exhaustively, against a table written here independently of the library."""

from __future__ import annotations

import pytest

from baccarat.tableau import banker_decision, banker_draws, player_decision, player_draws

# Banker's action when Player drew, row = Banker total 0..7, column = Player third-card value 0..9.
# Written from the seeds' table (002) and the published tableau: D draws, S stands.
BANKER_WHEN_PLAYER_DREW = {
    0: "DDDDDDDDDD",
    1: "DDDDDDDDDD",
    2: "DDDDDDDDDD",
    3: "DDDDDDDDSD",
    4: "SSDDDDDDSS",
    5: "SSSSDDDDSS",
    6: "SSSSSSDDSS",
    7: "SSSSSSSSSS",
}


@pytest.mark.parametrize("player_total", range(10))
@pytest.mark.parametrize("banker_total", range(10))
@pytest.mark.parametrize("third", range(10))
def test_all_1000_cases_with_a_player_third_card(
    player_total: int, banker_total: int, third: int
) -> None:
    # Only reachable when neither hand is natural and Player drew on 0-5; check the table anyway
    # for every Banker total: 8 and 9 are naturals and never draw.
    expected = BANKER_WHEN_PLAYER_DREW.get(banker_total, "S" * 10)[third] == "D"
    assert banker_draws(banker_total, third) is expected
    assert player_draws(player_total) is (player_total <= 5)


@pytest.mark.parametrize("banker_total", range(10))
def test_banker_when_player_stood(banker_total: int) -> None:
    assert banker_draws(banker_total, None) is (banker_total <= 5)


def test_every_decision_names_its_rule() -> None:
    assert player_decision(3).rule == "player draws on 0-5"
    assert player_decision(7).rule == "player stands on 6-7"
    assert banker_decision(3, 8).rule == "banker 3 stands when the player third card is 8"
    assert banker_decision(6, 6).rule == "banker 6 draws when the player third card is 6"
    assert banker_decision(1, 8).draws
    assert banker_decision(7, 6).rule == "banker 7 stands"


@pytest.mark.parametrize("bad", [-1, 10])
def test_out_of_range_totals_are_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="0-9"):
        player_decision(bad)
    with pytest.raises(ValueError, match="0-9"):
        banker_decision(bad, None)
    with pytest.raises(ValueError, match="0-9"):
        banker_decision(4, bad)
