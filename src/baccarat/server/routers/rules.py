"""``/api/rules/{ruleset}``: the rules page's data (drawing table, pay tables, house edges).

A rule set is named by a built-in name or by the name of a rule set a table of this
server deals by; a file path is never read from a request. Each page is computed once
(the house edges are exact sums over the shoe) and cached for the life of the process.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path

from baccarat.refusals import Refusal, RefusalCode
from baccarat.rulesets import BUILTIN_RULESETS, RuleSet, load_ruleset
from baccarat.rulespage import rules_page
from baccarat.server.deps import ServiceDep
from baccarat.server.errors import refused
from baccarat.server.models import PRINTABLE, RulesPage
from baccarat.server.routers.responses import errors

__all__ = ["router"]

router = APIRouter(tags=["rules"])

_PAGES: dict[tuple[int, str], RulesPage] = {}

RuleSetName = Annotated[str, Path(min_length=1, max_length=64, pattern=PRINTABLE)]


def _find(name: str, tables: dict[str, RuleSet]) -> RuleSet | None:
    for ruleset in tables.values():
        if ruleset.name == name:
            return ruleset
    return load_ruleset(name) if name in BUILTIN_RULESETS else None


@router.get("/api/rules/{ruleset}", responses=errors(404, 422))
async def rules(ruleset: RuleSetName, service: ServiceDep) -> RulesPage:
    """The rules page of a rule set: drawing rules, every pay table, the house edge of every
    bet, the rounding rule, the interruption policy and the fairness scheme."""
    key = (id(service), ruleset)
    page = _PAGES.get(key)
    if page is None:
        found = _find(ruleset, service.rulesets())
        if found is None:
            known = sorted({*BUILTIN_RULESETS, *(r.name for r in service.rulesets().values())})
            message = f"no rule set {ruleset!r} (known: {', '.join(known)})"
            raise refused(Refusal(RefusalCode.RULESET_NOT_FOUND, message))
        page = RulesPage.model_validate(await asyncio.to_thread(rules_page, found))
        _PAGES[key] = page
    return page
