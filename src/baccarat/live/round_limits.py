"""The limits each round of a table opens under, and the rule set the table shows at them.

An operator's change of a table's limits waits in the database (``store.table_limits``) for
the next round: the dealer takes it in the round's opening transaction, where no bet can be
open yet, and stores every bet's limits with the round. The live table then shows its shoe's
rule set at those limits from the round's opening (``round_open`` and every snapshot after),
and again after a restart.
"""

from __future__ import annotations

from sqlalchemy import Connection

from baccarat.live.ports import Store
from baccarat.live.table import LiveTable
from baccarat.rulesets import RuleSet, parse_ruleset
from baccarat.store.clock import db_now
from baccarat.store.rounds import RoundRow
from baccarat.store.shoes import ShoeRow
from baccarat.store.table_limits import get_limits, limits_for, opening_limits
from baccarat.table.limits import round_ruleset

__all__ = ["RoundLimits"]


class RoundLimits:
    """One table's round limits, kept by its dealer."""

    def __init__(self, table: LiveTable, store: Store) -> None:
        self.table = table
        self.store = store
        #: The shoe's rule set at the limits shown, by shoe id and the round's limits: made
        #: once per change (the feed words a rule set once per object).
        self._shown: tuple[tuple[str, str | None], RuleSet] | None = None

    def opening(self, connection: Connection, shoe: ShoeRow) -> str | None:
        """In the opening transaction of a round of ``shoe``: the limits it opens under."""
        ruleset = parse_ruleset(shoe.ruleset_toml)
        return opening_limits(connection, self.table.id, ruleset, db_now(connection))

    def show(self, shoe: ShoeRow, limits: str | None) -> None:
        """Show the shoe's rule set at a round's limits (``None``: the rule set's own)."""
        key = (shoe.id, limits)
        if self._shown is None or self._shown[0] != key:
            self._shown = (key, round_ruleset(parse_ruleset(shoe.ruleset_toml), limits))
        self.table.use_ruleset(self._shown[1])

    async def recover(self, resumed: RoundRow | None) -> None:
        """After a restart: show the limits of the round resumed, or else those the table's
        newest round opened under."""
        shoe = self.table.shoe
        if shoe is None or shoe.ended:
            return
        if resumed is not None:
            self.show(shoe, resumed.limits)
            return
        row = await self.store.read(lambda c: get_limits(c, self.table.id))
        self.show(shoe, limits_for(parse_ruleset(shoe.ruleset_toml), row.current))
