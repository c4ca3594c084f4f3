"""The tables a server deals, from their specs: one table per rule set, named after it.

A spec is a built-in rule set's name or a TOML file, optionally followed by ``:face-up`` or
``:face-down`` (the house decides the dealing table by table) and ``:studio`` (a table dealt by
a person from a card-reading shoe, named ``<rule set>-studio`` so that it can sit beside the
same rules dealt by the server). A server's tables count in one currency: a player's one
balance is staked at every table.

>>> tables_from(["standard", "standard"])
Traceback (most recent call last):
...
ValueError: table 'standard' is named twice
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from baccarat.rulesets import load_ruleset
from baccarat.table import Dealing, TableSettings

__all__ = ["DEFAULT_TABLES", "LOCALE_TABLES", "tables_from"]

#: The tables of a server started without ``--tables``.
DEFAULT_TABLES = ("standard", "no-commission", "ez")
#: ... by the house's locale (``--locale``): an Indonesian house deals in rupiah.
LOCALE_TABLES: Mapping[str, tuple[str, ...]] = {
    "en": DEFAULT_TABLES,
    "id": ("standard-idr", "no-commission-idr", "ez-idr"),
}


def tables_from(
    rulesets: Sequence[str],
    *,
    betting_ms: int = 15_000,
    reveal_ms: int = 800,
    result_ms: int = 2_000,
    dealing: Dealing = "face-up",
    squeeze_ms: int = 10_000,
    streams: Mapping[str, str] | None = None,
) -> tuple[TableSettings, ...]:
    """One table per rule set (a built-in name or a TOML file), named after the rule set.

    A spec may end in ``:face-up`` or ``:face-down`` to choose that table's dealing (the house
    decides, table by table); ``dealing`` is the default for the others. ``:studio`` makes a
    studio table; ``streams`` gives studio tables their video (table id to HLS URL).
    Raises ``RuleSetError`` for a rule set that cannot be loaded.

    >>> [(t.table_id, t.dealing, t.mode) for t in tables_from(["standard", "ez:face-down"])]
    [('standard', 'face-up', 'rng'), ('ez', 'face-down', 'rng')]
    >>> [(t.table_id, t.mode) for t in tables_from(["standard", "standard:studio"])]
    [('standard', 'rng'), ('standard-studio', 'studio')]
    >>> tables_from(["ez"], streams={"ez": "/live/ez.m3u8"})
    Traceback (most recent call last):
    ...
    ValueError: a video stream is for a studio table, and 'ez' is not one
    """
    tables = []
    seen: set[str] = set()
    currencies: set[str] = set()
    streams = dict(streams or {})
    for entry in rulesets:
        spec, suffixes = _suffixes(entry)
        studio = "studio" in suffixes
        table_dealing: Dealing = dealing
        if "face-down" in suffixes or "face-up" in suffixes:
            table_dealing = "face-down" if "face-down" in suffixes else "face-up"
        ruleset = load_ruleset(spec)
        table_id = f"{ruleset.name}-studio" if studio else ruleset.name
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
                squeeze_ms=squeeze_ms,
                mode="studio" if studio else "rng",
                stream_url=streams.get(table_id) if studio else None,
            )
        )
    for table_id in streams:
        if table_id not in seen or not table_id.endswith("-studio"):
            raise ValueError(f"a video stream is for a studio table, and {table_id!r} is not one")
    return tuple(tables)


_SUFFIXES = frozenset({"face-up", "face-down", "studio"})


def _suffixes(entry: str) -> tuple[str, set[str]]:
    """The rule set of a spec and the suffixes after it, in any order (a path may hold ':')."""
    suffixes: set[str] = set()
    spec = entry
    while True:
        head, _, suffix = spec.rpartition(":")
        if not head or suffix not in _SUFFIXES:
            break
        if suffix in suffixes or (
            suffix.startswith("face") and suffixes & {"face-up", "face-down"}
        ):
            raise ValueError(f"{entry!r} says :{suffix} or its opposite twice")
        suffixes.add(suffix)
        spec = head
    return spec, suffixes
