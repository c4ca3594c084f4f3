"""A server's tables count in one currency, and ``/api/config`` names it (the page writes every
amount in it): a player's one balance is staked at every table."""

from __future__ import annotations

from pathlib import Path

import pytest

from baccarat.server import tables_from


def test_the_tables_of_a_server_share_one_currency(tmp_path: Path) -> None:
    rupiah = tmp_path / "rupiah.toml"
    rupiah.write_text('name = "rupiah"\nextends = "standard"\ncurrency = "IDR"\n', "utf-8")
    assert [t.table_id for t in tables_from([str(rupiah)])] == ["rupiah"]
    assert [t.table_id for t in tables_from(["standard", "ez"])] == ["standard", "ez"]
    with pytest.raises(ValueError, match=r"different currencies \(IDR, USD\)"):
        tables_from(["standard", str(rupiah)])
