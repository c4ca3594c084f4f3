"""Amounts of money as people read them: minor units shown as major units with two decimals.

Money is an ``int`` of minor units everywhere (a hundredth of the currency unit); this
module only turns such an amount into text for a message.

>>> format_money(1250), format_money(100_000), format_money(5), format_money(-250)
('12.50', '1,000.00', '0.05', '-2.50')
"""

from __future__ import annotations

__all__ = ["format_money"]


def format_money(amount: int) -> str:
    """``amount`` minor units as major units with two decimals and thousands separators."""
    sign = "-" if amount < 0 else ""
    major, minor = divmod(abs(amount), 100)
    return f"{sign}{major:,}.{minor:02d}"
