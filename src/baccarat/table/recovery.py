"""What happens to a round left unfinished when the table restarts (the crash policy).

A round whose cards were stored is resumed with exactly those cards: they were fixed
before any was shown, so dealing them again changes nothing. A round closed with part of
its coup drawn goes on drawing from its source after the cards stored (a card-reading shoe's
cards are stored as they are read; none is read twice or lost). A round with no stored
cards is voided and every stake returned: no card had been drawn, so nobody can have
been favoured. Finished rounds are left alone.

A table that the restarted server no longer deals (dropped from its tables) has no dealer
to resume a round, and nobody watches it: the same policy applies without the reveal. A
round with stored cards is settled on them at once; one without is voided.

>>> recovery_action(Phase.OPEN, has_cards=False), recovery_action(Phase.DEALT, has_cards=True)
('void', 'resume')
>>> recovery_action(Phase.SETTLED, has_cards=True)
'none'
>>> recovery_action(Phase.CLOSED, has_cards=False, drawn=3)
'draw'
>>> undealt_action(Phase.DEALT, has_cards=True), undealt_action(Phase.CLOSED, has_cards=False)
('settle', 'void')
"""

from __future__ import annotations

from typing import Literal

from baccarat.table.round import Phase

__all__ = [
    "RESTART_VOID_REASON",
    "UNDEALT_VOID_REASON",
    "Recovery",
    "UndealtRecovery",
    "recovery_action",
    "undealt_action",
]

Recovery = Literal["resume", "draw", "void", "none"]
UndealtRecovery = Literal["settle", "void", "none"]

RESTART_VOID_REASON = "the table restarted before the cards were drawn; every stake is returned"
UNDEALT_VOID_REASON = (
    "the table is no longer dealt and its cards were not drawn; every stake is returned"
)


def recovery_action(phase: Phase, *, has_cards: bool, drawn: int = 0) -> Recovery:
    """``resume`` a round whose coup is stored, ``draw`` on after the ``drawn`` cards stored of
    a closed round's coup, ``void`` an unfinished one without cards, else ``none``."""
    if phase.final:
        return "none"
    if has_cards:
        return "resume"
    return "draw" if phase is Phase.CLOSED and drawn > 0 else "void"


def undealt_action(phase: Phase, *, has_cards: bool) -> UndealtRecovery:
    """For a table no longer dealt: ``settle`` on a stored coup, ``void`` without one (part of a
    coup included: no source is left to complete it), else ``none``."""
    action = recovery_action(phase, has_cards=has_cards)
    return "settle" if action == "resume" else "none" if action == "none" else "void"
