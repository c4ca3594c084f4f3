"""The monitor's state: alerts raised once while open, a shoe's closing with the next shoe,
a change of rule set, and a summary that is plain JSON."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from integrity_play import biased_shoe, deal_shoe, fair_shoe

from baccarat.integrity.advantage import CHECKPOINTS
from baccarat.integrity.monitor import (
    RoundSeen,
    TableMonitor,
    observe_bet,
    observe_round,
    summary,
)
from baccarat.rulesets import load_ruleset

STANDARD, EZ = load_ruleset("standard"), load_ruleset("ez")


def test_shoe_alerts_close_with_the_shoe_and_each_key_alerts_once() -> None:
    state = TableMonitor.start("t", STANDARD)
    raised: list[str] = []
    for number, dealt in enumerate(deal_shoe(biased_shoe(random.Random(1), STANDARD, 8), "b")):
        seen = RoundSeen(number, "b", dealt.coup, dealt.before, {}, evs={})
        state, alerts = observe_round(state, seen, now_ms=1000 + number)
        raised += [alert.key for alert in alerts]
        assert all(alert.at_ms == 1000 + number for alert in alerts)
    assert raised and len(raised) == len(set(raised))
    assert set(raised) == set(state.open)
    assert state.open_by_kind()["frequency"] == len(raised)
    shoe_keys = {key for key in raised if key.startswith("frequency:shoe:b:")}
    assert shoe_keys
    dealt = next(deal_shoe(fair_shoe("next", STANDARD), "n"))
    state, _ = observe_round(
        state, RoundSeen(999, "n", dealt.coup, dealt.before, {}, evs={}), now_ms=0
    )
    assert not shoe_keys & state.open
    assert set(raised) - shoe_keys <= state.open
    json.dumps(summary(state))  # what the admin API returns is plain JSON


def _seasoned() -> TableMonitor:
    """An EZ table whose baseline saw 100 coups deep in the shoe, Dragon 7 never positive."""
    state = TableMonitor.start("t", EZ)
    baseline = state.baseline
    for _ in range(100):
        baseline = baseline.observe({"dragon_7": -0.1}, 7)
    return replace(state, baseline=baseline)


def test_a_record_is_judged_only_at_its_checkpoints() -> None:
    state = _seasoned()
    alerts_at = []
    for i in range(1, 30):
        # Every bet at a positive EV where the baseline saw none: flagged at the first checkpoint.
        state, alerts = observe_bet(
            state, "ann", "dragon_7", 100, 0.5, 7, round_id=i, shoe_id="s", now_ms=i
        )
        alerts_at += [i for _ in alerts]
    assert alerts_at == [CHECKPOINTS[0]]
    [score] = state.scores()
    assert score.bets == 29 and score.positive == 29 and score.flagged
    assert score.expected_gain == 29 * 100 * 0.5


def test_a_new_rule_set_starts_the_counts_again_and_keeps_advantage_alerts() -> None:
    state = _seasoned()
    for i in range(1, 11):
        state, _ = observe_bet(
            state, "ann", "dragon_7", 100, 0.5, 7, round_id=i, shoe_id="s", now_ms=i
        )
    assert "advantage:ann:dragon_7" in state.open
    changed = state.with_ruleset(STANDARD)
    assert changed.ruleset is STANDARD and changed.records == {}
    assert changed.open == frozenset({"advantage:ann:dragon_7"})
    assert state.with_ruleset(EZ) is state
