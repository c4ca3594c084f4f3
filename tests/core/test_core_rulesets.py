"""Rule sets: the built-ins as the issue fixes them, and user files refused with file, key and reason."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from baccarat.bets import BET_NAMES
from baccarat.payout import Payout, PayoutError, Result
from baccarat.rulesets import BUILTIN_RULESETS, RuleSetError, load_ruleset, parse_ruleset

MAIN = {"player", "banker", "tie"}


def test_builtin_names_and_what_they_pay() -> None:
    assert BUILTIN_RULESETS[:4] == ("standard", "no-commission", "ez", "tie-9")
    std, nc, ez, t9 = (load_ruleset(n) for n in BUILTIN_RULESETS[:4])
    assert std.bet("banker").pays["win"].odds == Fraction(19, 20)
    assert std.bet("tie").pays["tie"].odds == 8
    assert t9.bet("tie").pays["tie"].odds == 9
    assert t9.bet("banker").pays["win"].odds == Fraction(19, 20)
    assert nc.bet("banker").payout_for("win").odds == 1
    assert nc.bet("banker").payout_for("win_6") == Payout(Result.HALF, Fraction(1, 2))
    assert ez.bet("banker").payout_for("win_three_card_7").result is Result.PUSH
    assert ez.bet("banker").payout_for("win_6").odds == 1
    assert ez.offers("dragon_7") and ez.offers("panda_8")
    assert ez.bet("dragon_7").pays["win"].odds == 40
    assert ez.bet("panda_8").pays["win"].odds == 25
    assert std.bet("big").pays["big"].odds == Fraction(54, 100)
    assert std.bet("small").pays["small"].odds == Fraction(3, 2)
    assert std.bet("either_pair").pays["pair"].odds == 5
    assert std.bet("perfect_pair").pays["perfect_pair"].odds == 25
    assert nc.bet("super_6").payout_for("win_three_cards").odds == 12
    for rules in (std, nc, ez, t9):
        assert set(rules.bets) >= MAIN
        assert rules.offers("player_pair") and rules.offers("banker_pair")
        assert rules.bet("player_pair").pays["pair"].odds == 11
        assert rules.decks == 8
        assert set(rules.bets) <= set(BET_NAMES)


def test_dragon_bonus_pay_table() -> None:
    pays = load_ruleset("standard").bet("dragon_bonus_player").pays
    assert {k: str(v) for k, v in pays.items()} == {
        "natural_win": "1:1",
        "natural_tie": "push",
        "win_by_9": "30:1",
        "win_by_8": "10:1",
        "win_by_7": "6:1",
        "win_by_6": "4:1",
        "win_by_5": "2:1",
        "win_by_4": "1:1",
    }
    assert (
        load_ruleset("standard").bet("dragon_bonus_banker").payout_for("win_by_3").result
        is Result.LOSE
    )


def test_a_user_file_loads_and_can_extend_a_builtin(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(
        'name = "house"\nextends = "standard"\n[shoe]\ndecks = 6\n'
        '[bets.tie]\npays = { tie = "9:1", tie_0 = "150:1" }\n[bets.big]\noffered = false\n'
    )
    rules = load_ruleset(path)
    assert rules.name == "house" and rules.decks == 6
    assert rules.bet("tie").payout_for("tie_0").odds == 150
    assert rules.bet("tie").payout_for("tie_5").odds == 9
    assert not rules.offers("big") and rules.offers("small")
    assert load_ruleset(str(path)).bets.keys() == rules.bets.keys()


@pytest.mark.parametrize(
    ("text", "key", "reason"),
    [
        (
            'name = "x"\n[bets.player]\npays = { win = "one to one" }',
            "bets.player.pays.win",
            "not a payout",
        ),
        (
            'name = "x"\n[bets.player]\npays = { jackpot = "1:1" }',
            "bets.player.pays.jackpot",
            "unknown event",
        ),
        ('name = "x"\n[bets.lucky_7]\npays = { win = "1:1" }', "bets.lucky_7", "unknown bet"),
        (
            'name = "x"\n[shoe]\ndecks = 9\n[bets.player]\npays = { win = "1:1" }',
            "shoe",
            "1 to 8 decks",
        ),
        (
            'name = "x"\n[shoe]\ndecks = "8"\n[bets.player]\npays = { win = "1:1" }',
            "shoe.decks",
            "integer",
        ),
        (
            'name = "x"\n[shoe]\nlast_coup = "two-more"\n[bets.player]\npays = {win="1:1"}',
            "shoe.last_coup",
            "one-more",
        ),
        (
            'name = "x"\ncolour = "red"\n[bets.player]\npays = { win = "1:1" }',
            "colour",
            "unknown key",
        ),
        ('title = "x"\n[bets.player]\npays = { win = "1:1" }', "name", "missing"),
        (
            'name = "x"\n[bets.player]\npays = { win = "1:1" }\nmin_stake = 500\nmax_stake = 100',
            "bets.player",
            "limits",
        ),
        (
            'name = "x"\nextends = "mine"\n[bets.player]\npays = { win = "1:1" }',
            "extends",
            "built-in",
        ),
        ('name = "x"\n[bets.player]\noffered = false', "bets", "offers no bet"),
        (
            'name = "x"\n[table]\nchips = []\n[bets.player]\npays = { win = "1:1" }',
            "table.chips",
            "non-empty",
        ),
    ],
)
def test_bad_files_are_refused_with_file_key_and_reason(
    tmp_path: Path, text: str, key: str, reason: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RuleSetError) as caught:
        load_ruleset(path)
    message = str(caught.value)
    assert str(path) in message
    assert f"key {key!r}" in message
    assert reason in message


def test_unreadable_and_invalid_toml(tmp_path: Path) -> None:
    with pytest.raises(RuleSetError, match="cannot read"):
        load_ruleset(tmp_path / "missing.toml")
    (tmp_path / "broken.toml").write_text("name = ")
    with pytest.raises(RuleSetError, match="not valid TOML"):
        load_ruleset(tmp_path / "broken.toml")
    with pytest.raises(RuleSetError, match="unknown rule set 'bogus'"):
        load_ruleset("bogus")


@pytest.mark.parametrize("text", ["1:0", "0:1", "x", "1:", "-1:1", ""])
def test_bad_payouts(text: str) -> None:
    with pytest.raises(PayoutError):
        Payout.parse(text)


def test_a_rule_set_counts_in_one_currency(tmp_path: Path) -> None:
    """US dollars unless the file names another; the built-ins count dollars but the rupiah
    ones; the rupiah counts whole rupiah; a currency not offered is refused."""
    assert {
        name: load_ruleset(name).currency for name in BUILTIN_RULESETS if not name.endswith("-idr")
    } == dict.fromkeys(("standard", "no-commission", "ez", "tie-9"), "USD")
    rupiah = tmp_path / "rupiah.toml"
    rupiah.write_text('name = "rupiah"\nextends = "standard"\ncurrency = "IDR"\n', "utf-8")
    rules = load_ruleset(rupiah)
    assert (rules.currency, rules.minor_unit) == ("IDR", 0)
    # The kept text of a dollar rule set is as it was; a rupiah one says so.
    assert "currency" not in load_ruleset("standard").to_toml()
    assert 'currency = "IDR"' in rules.to_toml()
    yen = tmp_path / "yen.toml"
    yen.write_text('name = "yen"\nextends = "standard"\ncurrency = "JPY"\n', "utf-8")
    with pytest.raises(RuleSetError, match="key 'currency': must be one of"):
        load_ruleset(yen)


def test_extending_at_other_stakes_moves_each_bets_limits_with_the_tables() -> None:
    """A rupiah table over the dollar one: every bet keeps its limits in proportion, instead of
    a per-bet maximum below the new table minimum refusing the whole rule set."""
    base = load_ruleset("standard")
    rupiah = parse_ruleset(
        "name = 'rp'\ncurrency = 'IDR'\nextends = 'standard'\n[table]\n"
        "min_stake = 1_000_000\nmax_stake = 5_000_000_000\nchips = [1_000_000, 5_000_000]\n"
    )
    for name, rule in base.bets.items():
        scaled = rupiah.bets[name]
        assert scaled.max_stake == rule.max_stake * 5_000
        assert scaled.min_stake == rule.min_stake * 10_000
    # A bet's own limits in the extending file are taken as written.
    own = parse_ruleset(
        "name = 'rp'\nextends = 'standard'\n[table]\nmin_stake = 1_000\nmax_stake = 10_000_000\n"
        "[bets.tie]\nmax_stake = 123_000\n"
    )
    assert own.bets["tie"].max_stake == 123_000 and own.bets["banker"].max_stake == 10_000_000


@pytest.mark.parametrize("base", ["standard", "no-commission", "ez"])
def test_the_rupiah_tables_pay_as_their_dollar_tables_at_rupiah_stakes(base: str) -> None:
    """Each built-in rupiah rule set offers and pays exactly what its dollar one does, counts
    whole rupiah from Rp 10.000 to Rp 50.000.000 a spot, and keeps each side bet's limits in
    the dollar table's proportion, every one a whole number of thousands of rupiah."""
    dollars, rupiah = load_ruleset(base), load_ruleset(f"{base}-idr")
    assert (rupiah.currency, rupiah.minor_unit) == ("IDR", 0)
    assert rupiah.chips == (10_000, 50_000, 100_000, 500_000, 1_000_000, 5_000_000)
    assert set(rupiah.bets) == set(dollars.bets)
    assert rupiah.decks == dollars.decks and rupiah.shoe == dollars.shoe
    for name, rule in rupiah.bets.items():
        assert rule.pays == dollars.bet(name).pays, name
        assert rule.min_stake == 10_000, name
        assert rule.max_stake % 1_000 == 0, name
        # The dollar table's maximum is 1,000,000 cents, the rupiah one's Rp 50.000.000.
        assert Fraction(rule.max_stake, 50_000_000) == Fraction(
            dollars.bet(name).max_stake, 1_000_000
        ), name
    assert rupiah.bet("player").max_stake == rupiah.bet("banker").max_stake == 50_000_000
