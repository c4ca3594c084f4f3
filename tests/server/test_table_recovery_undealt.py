"""The crash policy for a table no longer dealt, over every phase (exhaustive: it is small)."""

from __future__ import annotations

import pytest

from baccarat.table import (
    RESTART_VOID_REASON,
    UNDEALT_VOID_REASON,
    Phase,
    Round,
    recovery_action,
    undealt_action,
)


@pytest.mark.parametrize("phase", list(Phase))
@pytest.mark.parametrize("has_cards", [False, True])
def test_an_undealt_table_settles_what_a_dealer_would_resume(phase: Phase, has_cards: bool) -> None:
    action = undealt_action(phase, has_cards=has_cards)
    if phase in (Phase.SETTLED, Phase.VOIDED):
        assert action == "none"
    elif has_cards:
        assert action == "settle"
    else:
        assert action == "void"
    # The same decision as a restarting dealer's, without the reveal.
    resumed = recovery_action(phase, has_cards=has_cards)
    assert {"resume": "settle", "void": "void", "none": "none"}[resumed] == action


def test_the_void_reasons_fit_the_column_and_the_state_machine() -> None:
    for reason in (RESTART_VOID_REASON, UNDEALT_VOID_REASON):
        assert 0 < len(reason) <= 200  # rounds.void_reason is String(200)
        voided = Round.open(1, opened_at=0, closes_at=10).round.void(reason, 5).round
        assert voided.phase is Phase.VOIDED and voided.void_reason == reason
    assert "no longer dealt" in UNDEALT_VOID_REASON
