"""The rules page data: the tableau, every pay table, exact house edges against the published
figures, and the rounding, interruption and fairness texts."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from baccarat.fair import ALGORITHM
from baccarat.rulesets import BUILTIN_RULESETS, load_ruleset
from baccarat.rulespage import odds_text, rules_page
from baccarat.table.recovery import recovery_action
from baccarat.table.round import Phase

# The punto banco tableau as printed in the rules of the game (columns: Player's third card
# 0-9; D draws, S stands). Banker 0-2 always draws; 3 draws except on an 8; 4 on 2-7;
# 5 on 4-7; 6 on 6-7; 7 stands.
BANKER_TABLEAU = {
    0: "DDDDDDDDDD",
    1: "DDDDDDDDDD",
    2: "DDDDDDDDDD",
    3: "DDDDDDDDSD",
    4: "SSDDDDDDSS",
    5: "SSSSDDDDSS",
    6: "SSSSSSDDSS",
    7: "SSSSSSSSSS",
}

# House edges in percent, 8 decks, from /work/shared/reference/figures.md (Wizard of Odds).
PUBLISHED = {
    "standard": {
        "banker": "1.0579",
        "player": "1.2351",
        "tie": "14.3596",
        "player_pair": "10.3614",
        "banker_pair": "10.3614",
        "either_pair": "13.7099",
        "perfect_pair": "13.0294",
        "dragon_bonus_player": "2.6517",
        "dragon_bonus_banker": "9.3731",
        "small": "5.2829",
        "big": "4.3457",
    },
    "tie-9": {"tie": "4.8440", "banker": "1.0579", "player": "1.2351"},
    "no-commission": {"banker": "1.4581", "super_6": "29.9772", "player": "1.2351"},
    "ez": {"banker": "1.0183", "dragon_7": "7.6113", "panda_8": "10.1876"},
}


@pytest.fixture(scope="module")
def pages() -> dict[str, dict[str, Any]]:
    return {name: rules_page(load_ruleset(name)) for name in BUILTIN_RULESETS}


def test_the_drawing_table_is_the_tableau() -> None:
    drawing = rules_page(load_ruleset("standard"), edges={})["drawing"]
    for row in drawing["banker"]:
        marks = "".join(
            "D" if row["by_player_third"][str(v)] == "draws" else "S" for v in range(10)
        )
        assert marks == BANKER_TABLEAU[row["total"]], row["total"]
        assert row["player_stood"] == ("draws" if row["total"] <= 5 else "stands")
    assert [row["total"] for row in drawing["banker"]] == list(range(8))
    player = {row["total"]: row["action"] for row in drawing["player"]}
    assert player == {t: "draws" if t <= 5 else "stands" for t in range(10)}
    assert "8 or 9" in drawing["natural"]


@pytest.mark.parametrize("name", BUILTIN_RULESETS)
def test_house_edges_match_the_published_figures(
    name: str, pages: dict[str, dict[str, Any]]
) -> None:
    page = pages[name]
    assert page["house_edges"] == "exact"
    edges = {bet["name"]: bet["house_edge"] for bet in page["bets"]}
    # A rupiah table pays as its dollar one: the same published figures.
    for bet, figure in PUBLISHED[name.removesuffix("-idr")].items():
        assert edges[bet]["percent"] == figure, bet


def test_a_pair_edge_is_exact(pages: dict[str, dict[str, Any]]) -> None:
    # p = 31/415 at 11:1, so EV = 12 * 31/415 - 1 = -43/415.
    bets = {bet["name"]: bet for bet in pages["standard"]["bets"]}
    assert bets["player_pair"]["house_edge"]["exact"] == "43/415"


@pytest.mark.parametrize("name", BUILTIN_RULESETS)
def test_every_offered_bet_with_its_whole_pay_table(
    name: str, pages: dict[str, dict[str, Any]]
) -> None:
    ruleset = load_ruleset(name)
    page = pages[name]
    bets = page["bets"]
    assert [bet["name"] for bet in bets] == list(ruleset.bets)
    for bet in bets:
        rule = ruleset.bets[bet["name"]]
        assert (bet["min_stake"], bet["max_stake"]) == (rule.min_stake, rule.max_stake)
        assert bet["label"] == rule.type.label
        rows = bet["pays"]
        assert {row["event"]: row["pays"] for row in rows[:-1]} == {
            e: str(p) for e, p in rule.pays.items()
        }
        assert rows[-1] == {
            "event": "lose",
            "when": "anything else",
            "pays": "lose",
            "odds": "lose",
            "text": "loses",
        }
        for row in rows[:-1]:
            payout = rule.pays[row["event"]]
            if payout.result.value == "push":
                assert row["text"] == "pushes: the stake is returned"
            else:
                # The words say the odds as the table prints them: "0.95:1", "pays 0.95 to 1".
                assert row["odds"] == odds_text(payout)
                assert row["text"].endswith(row["odds"].replace(":", " to "))
            assert row["when"] and "_" not in row["when"]


def test_pay_tables_read_in_words() -> None:
    page = rules_page(load_ruleset("no-commission"), edges={})
    banker = next(bet for bet in page["bets"] if bet["name"] == "banker")
    assert [(r["when"], r["text"]) for r in banker["pays"]] == [
        ("Banker wins", "pays 1 to 1"),
        ("Banker wins with a total of 6", "pays half: 1 to 2"),
        ("the coup is a tie", "pushes: the stake is returned"),
        ("anything else", "loses"),
    ]
    big = next(
        bet
        for bet in rules_page(load_ruleset("standard"), edges={})["bets"]
        if bet["name"] == "big"
    )
    assert big["pays"][0] == {
        "event": "big",
        "when": "the coup uses 5 or 6 cards",
        "pays": "27:50",
        "odds": "0.54:1",
        "text": "pays 0.54 to 1",
    }


def test_the_page_is_json(pages: dict[str, dict[str, Any]]) -> None:
    for page in pages.values():
        assert json.loads(json.dumps(page)) == page


def test_the_rounding_rule_with_its_worked_example() -> None:
    text = rules_page(load_ruleset("standard"), edges={})["rounding"]
    # 1.05 at 19:20 returns 1.05 + 0.9975 = 2.0475, rounded down to 2.04.
    assert "rounded down" in text
    assert "returns 2.04, not 2.0475" in text


def test_the_interruption_policy_is_the_tables() -> None:
    text = rules_page(load_ruleset("standard"), edges={})["interruption"]
    assert recovery_action(Phase.DEALT, has_cards=True) == "resume"
    assert "resumes after the restart with exactly those cards" in text
    assert recovery_action(Phase.OPEN, has_cards=False) == "void"
    assert "voided and every stake is returned" in text


def test_the_fairness_scheme_and_its_known_limit() -> None:
    fairness = rules_page(load_ruleset("standard"), edges={})["fairness"]
    assert fairness["algorithm"] == ALGORITHM
    assert "commitment" in fairness["scheme"] and "revealed" in fairness["scheme"]
    assert "client seed" in fairness["limit"] and "beacon" in fairness["limit"]


def test_a_users_rule_set_is_shown_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(
        'name = "house"\nextends = "standard"\n[shoe]\ndecks = 6\n'
        '[bets.tie]\npays = { tie = "9:1" }\n[bets.big]\noffered = false\n',
        encoding="utf-8",
    )
    page = rules_page(load_ruleset(path))
    assert page["shoe"]["decks"] == 6
    bets = {bet["name"]: bet for bet in page["bets"]}
    assert "big" not in bets
    assert bets["tie"]["pays"][0]["pays"] == "9:1"
    # Six decks, from the published figures: Banker 1.0558%, Player 1.2374%.
    assert bets["banker"]["house_edge"]["percent"] == "1.0558"
    assert bets["player"]["house_edge"]["percent"] == "1.2374"


def test_missing_edges_leave_the_page_pending() -> None:
    page = rules_page(load_ruleset("standard"), edges={"banker": Fraction(1, 100)})
    assert page["house_edges"] == "pending"
    bets = {bet["name"]: bet for bet in page["bets"]}
    assert bets["banker"]["house_edge"] == {"exact": "1/100", "percent": "1.0000"}
    assert bets["player"]["house_edge"] is None
