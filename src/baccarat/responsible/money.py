"""Amounts of money as people read them, from integers of a currency's counting unit.

Money is an ``int`` everywhere: cents at a dollar table, whole rupiah at a rupiah table
(``baccarat.rulesets.CURRENCIES`` gives each currency's exponent). This module only turns such
an amount into text for a message, a report or the command line.

>>> format_money(1250), format_money(100_000), format_money(5), format_money(-250)
('12.50', '1,000.00', '0.05', '-2.50')
>>> format_money(10_000_000, "IDR"), format_money(1250, "USD"), format_money(-99, "EUR")
('Rp 10.000.000', '$12.50', '-€0.99')
"""

from __future__ import annotations

from baccarat.rulesets import CURRENCIES

__all__ = ["format_money"]

#: How each currency is written before its amount.
_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "IDR": "Rp ", "SGD": "S$", "MYR": "RM"}


def format_money(amount: int, currency: str | None = None) -> str:
    """``amount`` in ``currency`` as people write it: ``"Rp 10.000"`` (the rupiah counts whole
    rupiah, grouped with dots, as Indonesians write it), ``"$1,234.56"``; with no currency,
    two decimals and no symbol (a message whose currency the caller does not know)."""
    sign = "-" if amount < 0 else ""
    if currency is None:
        major, minor = divmod(abs(amount), 100)
        return f"{sign}{major:,}.{minor:02d}"
    digits = CURRENCIES[currency]
    major, minor = divmod(abs(amount), 10**digits)
    if currency == "IDR":
        whole = f"{major:,}".replace(",", ".")
        return f"{sign}{_SYMBOLS[currency]}{whole}" + (f",{minor:0{digits}d}" if digits else "")
    fraction = f".{minor:0{digits}d}" if digits else ""
    return f"{sign}{_SYMBOLS.get(currency, currency + ' ')}{major:,}{fraction}"
