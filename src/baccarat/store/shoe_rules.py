"""The rule set of each shoe, as stored with it: what a bet on one of its rounds is checked against.

A shoe's rule set is written once, with the shoe (``shoes.ruleset_toml``), and never changes;
settlement pays by the same text. So the bet path reads it from the database by the round's
shoe, never from what a process was told the table plays (a broadcast, a configuration), and a
``ShoeRules`` may keep each one it parsed, by shoe id, for as long as it reads one database.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, select

from baccarat.rulesets import RuleSet, parse_ruleset
from baccarat.store.schema import shoes

__all__ = ["ShoeRules"]


class ShoeRules:
    """The rule sets of the shoes read so far, by shoe id (one database's: shoe ids are its own).

    Not thread-safe: one per writer (the bet queue's writer thread).
    """

    #: Shoes kept before the oldest are forgotten (a table starts one shoe in about an hour).
    LIMIT = 1024

    def __init__(self) -> None:
        self._known: dict[str, RuleSet] = {}

    def of(self, connection: Connection, shoe_ids: Iterable[str]) -> dict[str, RuleSet]:
        """The rule set of each shoe named that exists; those not yet known in one query."""
        if len(self._known) > self.LIMIT:
            self._known.clear()  # a forgotten shoe is only read again
        wanted = set(shoe_ids)
        missing = sorted(wanted - self._known.keys())
        if missing:
            query = select(shoes.c.id, shoes.c.ruleset_toml).where(shoes.c.id.in_(missing))
            for row in connection.execute(query):
                self._known[row.id] = parse_ruleset(row.ruleset_toml, f"<shoe {row.id}>")
        return {shoe: self._known[shoe] for shoe in wanted if shoe in self._known}
