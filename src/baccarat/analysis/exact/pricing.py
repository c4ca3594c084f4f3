"""A rule set made ready for the odds engine: each offered bet's events and what they pay.

Both the exact path and the compiled path start here, so they price the same events with
the same payouts: each event of the bet type, resolved through the rule set's pay table
with ``BetRule.payout_for`` (its fallbacks included), nets ``Payout.net`` per unit staked.

>>> from baccarat.rulesets import load_ruleset
>>> plan = rule_plan(load_ruleset("no-commission"))
>>> banker = plan.bet("banker")
>>> [(event, str(net)) for event, net in zip(banker.rule.type.events, banker.nets)]
[('win', '1'), ('win_6', '1/2'), ('win_three_card_7', '1'), ('tie', '0'), ('lose', '-1')]
>>> computed, omitted = plan.split("ranks")
>>> omitted
{'perfect_pair': 'counts by rank have no suits: a suited pair needs counts by card'}
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from baccarat.analysis.exact.counts import Detail
from baccarat.analysis.exact.signature import BetEvents, bet_events
from baccarat.payout import Payout
from baccarat.rulesets import BetRule, RuleSet

__all__ = ["NEEDS_CARDS", "NEEDS_RANKS", "BetPlan", "RulePlan", "rule_plan"]

NEEDS_RANKS = (
    "counts by value cannot tell a ten from a jack, queen or king: pairs need counts by rank"
)
NEEDS_CARDS = "counts by rank have no suits: a suited pair needs counts by card"


@dataclass(frozen=True, eq=False)
class BetPlan:
    """One offered bet: its rule, its event table and the payout of each of its events."""

    rule: BetRule
    events: BetEvents
    #: The payout of each event of ``rule.type.events``, in that order.
    payouts: tuple[Payout, ...]

    @property
    def name(self) -> str:
        return self.rule.name

    @property
    def nets(self) -> tuple[Fraction, ...]:
        """Net result per unit staked of each event."""
        return tuple(payout.net for payout in self.payouts)

    def omitted_because(self, detail: Detail) -> str | None:
        """Why counts of this ``detail`` cannot price the bet exactly, or None if they can."""
        if detail == "values" and self.events.needs_ranks:
            return NEEDS_RANKS
        if detail == "ranks" and self.events.needs_suits:
            return NEEDS_CARDS
        return None


@dataclass(frozen=True, eq=False)
class RulePlan:
    """Every bet a rule set offers, ready to price."""

    ruleset: RuleSet
    bets: tuple[BetPlan, ...]

    def bet(self, name: str) -> BetPlan:
        for plan in self.bets:
            if plan.name == name:
                return plan
        raise KeyError(f"rule set {self.ruleset.name!r} does not offer {name!r}")

    def split(self, detail: Detail) -> tuple[tuple[BetPlan, ...], dict[str, str]]:
        """The bets counts of this ``detail`` can price, and the reason for each one left out."""
        omitted = {
            plan.name: reason
            for plan in self.bets
            if (reason := plan.omitted_because(detail)) is not None
        }
        return tuple(plan for plan in self.bets if plan.name not in omitted), omitted


_plans: dict[int, RulePlan] = {}


def rule_plan(ruleset: RuleSet) -> RulePlan:
    """The plan of ``ruleset`` (kept for the life of the process, like the rule set itself)."""
    cached = _plans.get(id(ruleset))
    if cached is not None and cached.ruleset is ruleset:
        return cached
    plans = []
    for rule in ruleset.bets.values():
        payouts = tuple(rule.payout_for(event) for event in rule.type.events)
        plans.append(BetPlan(rule, bet_events(rule.type), payouts))
    plan = RulePlan(ruleset, tuple(plans))
    _plans[id(ruleset)] = plan
    return plan
