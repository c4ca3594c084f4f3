"""The tables a server deals, from their specs: one table per rule set, named after it.

A spec is a built-in rule set's name or a TOML file, optionally ending in ``:face-up`` or
``:face-down`` (the house decides the dealing table by table). A server's tables count in
one currency: a player's one balance is staked at every table.

>>> tables_from(["standard", "standard"])
Traceback (most recent call last):
...
ValueError: table 'standard' is named twice
"""

from __future__ import annotations

from collections.abc import Sequence

from baccarat.rulesets import load_ruleset
from baccarat.table import Dealing, TableSettings

__all__ = ["DEFAULT_TABLES", "tables_from"]

#: The tables of a server started without ``--tables``.
DEFAULT_TABLES = ("standard", "no-commission", "ez")


def tables_from(
    rulesets: Sequence[str],
    *,
    betting_ms: int = 15_000,
    reveal_ms: int = 800,
    result_ms: int = 2_000,
    dealing: Dealing = "face-up",
) -> tuple[TableSettings, ...]:
    """One table per rule set (a built-in name or a TOML file), named after the rule set.

    A spec may end in ``:face-up`` or ``:face-down`` to choose that table's dealing (the house
    decides, table by table); ``dealing`` is the default for the others.
    Raises ``RuleSetError`` for a rule set that cannot be loaded.

    >>> [(t.table_id, t.dealing) for t in tables_from(["standard", "ez:face-down"])]
    [('standard', 'face-up'), ('ez', 'face-down')]
    """
    tables = []
    seen: set[str] = set()
    currencies: set[str] = set()
    for entry in rulesets:
        spec, table_dealing = _dealing_suffix(entry, dealing)
        ruleset = load_ruleset(spec)
        table_id = ruleset.name
        if table_id in seen:
            raise ValueError(f"table {table_id!r} is named twice")
        seen.add(table_id)
        # A player's one balance is staked at every table: the tables count in one money.
        currencies.add(ruleset.currency)
        if len(currencies) > 1:
            raise ValueError(
                f"the tables count in different currencies ({', '.join(sorted(currencies))}); "
                "a server's tables share one"
            )
        tables.append(
            TableSettings(
                table_id,
                spec,
                betting_ms=betting_ms,
                reveal_ms=reveal_ms,
                result_ms=result_ms,
                dealing=table_dealing,
            )
        )
    return tuple(tables)


def _dealing_suffix(entry: str, default: Dealing) -> tuple[str, Dealing]:
    spec, _, suffix = entry.rpartition(":")
    if suffix == "face-up":
        return spec, "face-up"
    if suffix == "face-down":
        return spec, "face-down"
    return entry, default
