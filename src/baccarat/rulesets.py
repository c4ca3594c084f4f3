"""Rule sets as data: the shoe procedure, the bets offered, their pay tables and limits.

Built-in rule sets live in TOML files inside the package (``baccarat/data/rulesets``);
a user's own file is read and validated the same way. A rule set may ``extends`` another
and override only what differs.

>>> standard = load_ruleset("standard")
>>> str(standard.bet("banker").pays["win"]), str(standard.bet("tie").pays["tie"])
('19:20', '8:1')
>>> str(load_ruleset("no-commission").bet("banker").payout_for("win_6"))
'half'
>>> load_ruleset("ez").offers("dragon_7"), standard.offers("dragon_7")
(True, False)
>>> standard.currency, standard.minor_unit
('USD', 2)
>>> load_ruleset("bogus")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baccarat.rulesets.RuleSetError: unknown rule set 'bogus' (built-in: standard, ..., ez-idr)
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from baccarat.bets import BET_TYPES, LOSE, BetType
from baccarat.coup import Coup
from baccarat.payout import LOSS, Payout, PayoutError
from baccarat.shoe import LastCoupRule, ShoeError, ShoeProcedure

__all__ = [
    "BUILTIN_RULESETS",
    "CURRENCIES",
    "DEFAULT_CURRENCY",
    "BetRule",
    "RuleSet",
    "RuleSetError",
    "load_ruleset",
    "parse_ruleset",
]

BUILTIN_RULESETS: tuple[str, ...] = (
    "standard",
    "no-commission",
    "ez",
    "tie-9",
    "standard-idr",
    "no-commission-idr",
    "ez-idr",
)

#: The currencies a table may count in (ISO 4217 code -> the exponent of the unit a table
#: counts in). Every amount is an integer of that unit. The rupiah counts whole rupiah: ISO
#: 4217 lists a sen (an exponent of 2), but no sen has circulated for decades and Indonesian
#: tables, cashiers and players write "Rp 10.000", so a table in IDR counts rupiah (10000 is
#: Rp 10.000) and rounds a payout down to the rupiah, as a dollar table rounds to the cent.
CURRENCIES: Mapping[str, int] = MappingProxyType(
    {"USD": 2, "EUR": 2, "GBP": 2, "IDR": 0, "SGD": 2, "MYR": 2}
)
DEFAULT_CURRENCY = "USD"


class RuleSetError(ValueError):
    """A rule set that cannot be loaded: which file, which key, and why."""

    def __init__(self, message: str, *, source: str = "", key: str = "") -> None:
        where = ", ".join(part for part in (source, f"key {key!r}" if key else "") if part)
        super().__init__(f"{where}: {message}" if where else message)
        self.source = source
        self.key = key


@dataclass(frozen=True, slots=True)
class BetRule:
    """One bet as a table offers it: the bet type, its pay table and its stake limits."""

    type: BetType
    pays: Mapping[str, Payout]
    min_stake: int
    max_stake: int

    @property
    def name(self) -> str:
        return self.type.name

    def payout_for(self, event: str) -> Payout:
        """What this table pays for an event of the bet type (following its fallbacks)."""
        return self.pays.get(self.type.resolve(event, self.pays), LOSS)

    def payout(self, coup: Coup) -> Payout:
        """What this bet pays on a coup."""
        return self.payout_for(self.type.classify(coup))


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A complete set of table rules. Bets keep the order of the catalogue."""

    name: str
    title: str
    description: str
    shoe: ShoeProcedure
    bets: Mapping[str, BetRule]
    #: Chip denominations in minor units, smallest first.
    chips: tuple[int, ...]
    #: The money the table counts in (ISO 4217, a key of ``CURRENCIES``).
    currency: str = DEFAULT_CURRENCY

    @property
    def minor_unit(self) -> int:
        """The currency's minor-unit exponent: an amount of 1 is ``10 ** -minor_unit`` of it."""
        return CURRENCIES[self.currency]

    @property
    def decks(self) -> int:
        return self.shoe.decks

    def offers(self, bet: str) -> bool:
        return bet in self.bets

    def bet(self, name: str) -> BetRule:
        """The offered bet ``name``; ``KeyError`` with a message if it is not offered."""
        try:
            return self.bets[name]
        except KeyError:
            raise KeyError(f"rule set {self.name!r} does not offer {name!r}") from None

    def to_toml(self) -> str:
        """A TOML text that parses back to exactly this rule set (every bet's pays and limits
        explicit). Shoe records and stored shoes keep this text, so it never changes for the
        same rule set.

        >>> tie9 = load_ruleset("tie-9")
        >>> data = tomllib.loads(tie9.to_toml())
        >>> data["name"], data["bets"]["tie"]["pays"], data["shoe"]["last_coup"]
        ('tie-9', {'tie': '9:1'}, 'one-more')
        >>> parse_ruleset(tie9.to_toml()) == tie9
        True
        """
        shoe = self.shoe
        lines = [
            f"name = {_toml_string(self.name)}",
            f"title = {_toml_string(self.title)}",
            f"description = {_toml_string(self.description)}",
        ]
        # Written only when not the default: the kept texts of existing rule sets stay the same.
        if self.currency != DEFAULT_CURRENCY:
            lines.append(f"currency = {_toml_string(self.currency)}")
        lines += [
            "",
            "[shoe]",
            f"decks = {shoe.decks}",
            f"burn = {'true' if shoe.burn else 'false'}",
            f"cut_card_from_end = {shoe.cut_card_from_end}",
            f"last_coup = {_toml_string(shoe.last_coup.value)}",
            "",
            "[table]",
            f"chips = [{', '.join(str(chip) for chip in self.chips)}]",
        ]
        for name, rule in self.bets.items():
            pays = ", ".join(
                f"{event} = {_toml_string(str(pay))}" for event, pay in rule.pays.items()
            )
            lines += [
                "",
                f"[bets.{name}]",
                f"pays = {{ {pays} }}",
                f"min_stake = {rule.min_stake}",
                f"max_stake = {rule.max_stake}",
            ]
        return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    # JSON string escapes are TOML basic-string escapes, except that TOML also wants DEL escaped.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def load_ruleset(name_or_path: str | Path) -> RuleSet:
    """A built-in rule set by name, or a user's TOML file by path."""
    text = str(name_or_path)
    if text in BUILTIN_RULESETS:
        return _load_builtin(text)
    path = Path(text)
    if not path.suffix == ".toml" and not path.exists():
        raise RuleSetError(f"unknown rule set {text!r} (built-in: {', '.join(BUILTIN_RULESETS)})")
    return _from_data(_read_file(path), str(path))


def parse_ruleset(text: str, source: str = "<text>") -> RuleSet:
    """A rule set from TOML text (a record's embedded rule set, a stored shoe's rules);
    ``source`` names it in errors.

    The same text parses once: a store settles every round of a shoe by the text kept with
    the shoe, and a rule set is an immutable value, so the parsed one is shared.

    >>> parse_ruleset("name = 'mine'\\n[bets.tie]\\npays = { tie = '8:1' }").offers("tie")
    True
    >>> rupiah = parse_ruleset("name = 'rp'\\ncurrency = 'IDR'\\nextends = 'standard'")
    >>> rupiah.currency, rupiah.minor_unit, parse_ruleset(rupiah.to_toml()) == rupiah
    ('IDR', 0, True)
    >>> parse_ruleset("name = 'x'\\ncurrency = 'JPY'\\nextends = 'standard'")
    Traceback (most recent call last):
    ...
    baccarat.rulesets.RuleSetError: <text>, key 'currency': must be one of USD, EUR, GBP, IDR, SGD, MYR, not 'JPY'
    """
    return _parsed(text, source)


@lru_cache(maxsize=64)
def _parsed(text: str, source: str) -> RuleSet:
    return _from_data(_parse(text, source), source)


_cache: dict[str, RuleSet] = {}


def _load_builtin(name: str) -> RuleSet:
    if name not in _cache:
        resource = resources.files("baccarat") / "data" / "rulesets" / f"{name}.toml"
        source = f"<built-in {name}.toml>"
        _cache[name] = _from_data(_parse(resource.read_text(encoding="utf-8"), source), source)
    return _cache[name]


def _read_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RuleSetError(f"cannot read: {error.strerror or error}", source=str(path)) from None
    return _parse(text, str(path))


def _parse(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RuleSetError(f"not valid TOML: {error}", source=source) from None


def _merged(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merged(merged[key], value)
        else:
            merged[key] = value
    return merged


_TOP_KEYS = {"name", "title", "description", "currency", "extends", "shoe", "table", "bets"}
_SHOE_KEYS = {"decks", "burn", "cut_card_from_end", "last_coup"}
_TABLE_KEYS = {"min_stake", "max_stake", "chips"}
_BET_KEYS = {"pays", "min_stake", "max_stake", "offered"}


def _resolve_extends(data: dict[str, Any], source: str, depth: int = 0) -> dict[str, Any]:
    parent = data.get("extends")
    if parent is None:
        return data
    if depth > 8:
        raise RuleSetError("'extends' chain is too long (a cycle?)", source=source, key="extends")
    if not isinstance(parent, str) or parent not in BUILTIN_RULESETS:
        raise RuleSetError(
            f"must name a built-in rule set ({', '.join(BUILTIN_RULESETS)})",
            source=source,
            key="extends",
        )
    resource = resources.files("baccarat") / "data" / "rulesets" / f"{parent}.toml"
    base = _parse(resource.read_text(encoding="utf-8"), f"<built-in {parent}.toml>")
    base = _resolve_extends(base, source, depth + 1)
    base.pop("extends", None)
    own = {k: v for k, v in data.items() if k != "extends"}
    return _merged(_rescaled(base, own), own)


def _rescaled(base: dict[str, Any], own: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with the per-bet limits it sets moved with the table's limits ``own`` sets:
    a rule set that extends another at other stakes (a rupiah table over a dollar one) keeps
    each bet's limits in the same proportion to the table's, instead of refusing them.

    >>> base = {"table": {"min_stake": 100, "max_stake": 1_000}, "bets": {"tie": {"max_stake": 200}}}
    >>> _rescaled(base, {"table": {"min_stake": 10_000, "max_stake": 500_000}})["bets"]
    {'tie': {'max_stake': 100000}}
    """
    base_table = base.get("table")
    own_table = own.get("table")
    if not isinstance(base_table, Mapping) or not isinstance(own_table, Mapping):
        return base
    factors = {}
    for key, default in (("min_stake", 100), ("max_stake", 1_000_000)):
        old, new = base_table.get(key, default), own_table.get(key, base_table.get(key, default))
        if isinstance(old, int) and isinstance(new, int) and old > 0 and new != old:
            factors[key] = Fraction(new, old)
    bets = base.get("bets")
    if not factors or not isinstance(bets, Mapping):
        return base
    scaled: dict[str, Any] = {}
    for name, spec in bets.items():
        if isinstance(spec, Mapping):
            spec = dict(spec)
            for key, factor in factors.items():
                if isinstance(spec.get(key), int) and not isinstance(spec[key], bool):
                    spec[key] = max(1, round(spec[key] * factor))
        scaled[name] = spec
    return {**base, "bets": scaled}


class _Reader:
    """Typed access to parsed TOML that names the file and the key in every error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, message: str, key: str) -> RuleSetError:
        return RuleSetError(message, source=self.source, key=key)

    def check(self, value: Any, kind: type, key: str) -> Any:
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.error(f"must be an integer, not {value!r}", key)
        if not isinstance(value, kind):
            raise self.error(
                f"must be a {_KIND_NAMES.get(kind, kind.__name__)}, not {value!r}", key
            )
        return value

    def get(self, mapping: Mapping[str, Any], key: str, kind: type, default: Any, path: str) -> Any:
        return self.check(mapping.get(key, default), kind, path)

    def need(self, mapping: Mapping[str, Any], key: str, kind: type, path: str) -> Any:
        if key not in mapping:
            raise self.error("is missing", path)
        return self.check(mapping[key], kind, path)

    def only(self, mapping: Mapping[str, Any], allowed: set[str], prefix: str) -> None:
        for key in mapping:
            if key not in allowed:
                expected = ", ".join(sorted(allowed))
                raise self.error(f"unknown key (expected one of {expected})", f"{prefix}{key}")


_KIND_NAMES = {str: "string", dict: "table", list: "list", bool: "boolean", int: "integer"}


def _from_data(raw: dict[str, Any], source: str) -> RuleSet:
    data = _resolve_extends(raw, source)
    read = _Reader(source)
    read.only(data, _TOP_KEYS, "")
    name = read.need(data, "name", str, "name")
    title = read.get(data, "title", str, name, "title")
    description = read.get(data, "description", str, "", "description")
    currency = read.get(data, "currency", str, DEFAULT_CURRENCY, "currency")
    if currency not in CURRENCIES:
        raise read.error(f"must be one of {', '.join(CURRENCIES)}, not {currency!r}", "currency")
    shoe = _shoe(read, read.get(data, "shoe", dict, {}, "shoe"))

    table = read.get(data, "table", dict, {}, "table")
    read.only(table, _TABLE_KEYS, "table.")
    table_min = read.get(table, "min_stake", int, 100, "table.min_stake")
    table_max = read.get(table, "max_stake", int, 1_000_000, "table.max_stake")
    chips_raw = read.get(table, "chips", list, [100, 500, 1_000, 5_000, 25_000], "table.chips")
    chips = tuple(read.check(chip, int, "table.chips") for chip in chips_raw)
    if not chips or any(chip <= 0 for chip in chips):
        raise read.error("must be a non-empty list of positive amounts", "table.chips")

    bets_data = read.need(data, "bets", dict, "bets")
    for bet_name in bets_data:
        if bet_name not in BET_TYPES:
            raise read.error(f"unknown bet (known: {', '.join(BET_TYPES)})", f"bets.{bet_name}")
    bets: dict[str, BetRule] = {}
    for bet_name, bet in BET_TYPES.items():
        if bet_name not in bets_data:
            continue
        path = f"bets.{bet_name}"
        spec = read.check(bets_data[bet_name], dict, path)
        read.only(spec, _BET_KEYS, f"{path}.")
        if read.get(spec, "offered", bool, True, f"{path}.offered"):
            bets[bet_name] = _bet_rule(read, bet, spec, (table_min, table_max), path)
    if not bets:
        raise read.error("offers no bet", "bets")
    chips_sorted = tuple(sorted(chips))
    return RuleSet(name, title, description, shoe, MappingProxyType(bets), chips_sorted, currency)


def _shoe(read: _Reader, spec: Mapping[str, Any]) -> ShoeProcedure:
    read.only(spec, _SHOE_KEYS, "shoe.")
    last_coup = read.get(spec, "last_coup", str, "one-more", "shoe.last_coup")
    if last_coup not in set(LastCoupRule):
        raise read.error("must be 'one-more' or 'finish'", "shoe.last_coup")
    try:
        return ShoeProcedure(
            decks=read.get(spec, "decks", int, 8, "shoe.decks"),
            burn=read.get(spec, "burn", bool, True, "shoe.burn"),
            cut_card_from_end=read.get(
                spec, "cut_card_from_end", int, 14, "shoe.cut_card_from_end"
            ),
            last_coup=LastCoupRule(last_coup),
        )
    except ShoeError as error:
        raise read.error(str(error), "shoe") from None


def _bet_rule(
    read: _Reader, bet: BetType, spec: Mapping[str, Any], limits: tuple[int, int], path: str
) -> BetRule:
    pays_raw = read.get(spec, "pays", dict, {}, f"{path}.pays")
    if not pays_raw:
        raise read.error("must give at least one payout", f"{path}.pays")
    allowed = (set(bet.events) | set(bet.fallback.values())) - {LOSE}
    pays: dict[str, Payout] = {}
    for event, text in pays_raw.items():
        key = f"{path}.pays.{event}"
        if event not in allowed:
            raise read.error(f"unknown event (this bet has: {', '.join(sorted(allowed))})", key)
        try:
            pays[event] = Payout.parse(read.check(text, str, key))
        except PayoutError as error:
            raise read.error(str(error), key) from None
    low = read.get(spec, "min_stake", int, limits[0], f"{path}.min_stake")
    high = read.get(spec, "max_stake", int, limits[1], f"{path}.max_stake")
    if not 0 < low <= high:
        raise read.error(f"limits must satisfy 0 < min_stake ({low}) <= max_stake ({high})", path)
    return BetRule(bet, MappingProxyType(pays), low, high)
