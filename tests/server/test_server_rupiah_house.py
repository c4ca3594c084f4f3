"""An Indonesian house out of the box: ``--locale id`` (or an Indonesian machine) deals the
built-in rupiah tables in whole rupiah, gives guests rupiah demo credit, tells the page to speak
Bahasa Indonesia, and every amount on the command line is written "Rp 10.000", never with sen."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from baccarat.cli.app import app as cli
from baccarat.cli.serve import machine_locale
from baccarat.server import Settings, create_app

runner = CliRunner()


@pytest.fixture
def indonesian(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'rupiah.db'}"
    settings = Settings.load(db=url, locale="id", betting_seconds=30.0)
    with TestClient(create_app(settings)) as client:
        yield client


def test_an_indonesian_house_deals_rupiah_tables_and_speaks_indonesian(
    indonesian: TestClient,
) -> None:
    config = indonesian.get("/api/config").json()
    assert config == {
        "guests": True,
        "demo_credit": 100_000_000,
        "currency": "IDR",
        "minor_unit": 0,
        "rules": "standard-idr",
        "language": "id",
    }
    tables = indonesian.get("/api/tables").json()
    assert [t["id"] for t in tables] == ["standard-idr", "no-commission-idr", "ez-idr"]
    guest = indonesian.post("/api/players").json()
    assert (guest["balance"], guest["demo"]) == (100_000_000, True)
    # The rules in whole rupiah: Rp 10.000 to Rp 50.000.000 a spot, the side bets in proportion.
    rules = indonesian.get("/api/rules/standard-idr").json()
    limits = {bet["name"]: (bet["min_stake"], bet["max_stake"]) for bet in rules["bets"]}
    assert limits["banker"] == (10_000, 50_000_000) and limits["tie"] == (10_000, 10_000_000)
    assert rules["ruleset"]["minor_unit"] == 0
    assert "whole rupiah" in rules["rounding"] and "10,005" in rules["rounding"]


def test_the_house_language_follows_the_machine_locale_unless_given() -> None:
    assert machine_locale({"LANG": "id_ID.UTF-8"}) == "id"
    assert machine_locale({"LC_MESSAGES": "id_ID", "LANG": "en_GB.UTF-8"}) == "id"
    assert machine_locale({"LC_ALL": "C", "LANG": "id_ID.UTF-8"}) == "en"
    assert machine_locale({}) == "en"
    # Given, the option wins; a rupiah house may still deal dollar tables when told to.
    assert [t.table_id for t in Settings.load(locale="id", tables="standard").tables] == [
        "standard"
    ]
    assert Settings.load(locale="id", tables="standard").guest_credit == 1_000_000
    assert Settings.load(locale="id", demo_credit=5).guest_credit == 5
    with pytest.raises(ValueError, match="--locale"):
        Settings.load(locale="fr")


def test_the_command_line_writes_rupiah_without_sen(tmp_path: Path) -> None:
    shown = runner.invoke(cli, ["rules", "standard-idr"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "Rp 10.000" in shown.output and "Rp 50.000.000" in shown.output
    assert "Chips: Rp 10.000, Rp 50.000, Rp 100.000, Rp 500.000, Rp 1.000.000, Rp 5.000.000." in (
        shown.output
    )
    assert not re.search(r"Rp [\d.]+,\d\d", shown.output)  # no sen anywhere
    # The ledger check writes the money the tables count in: a guest's Rp 100.000.000.
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    with TestClient(create_app(Settings.load(db=url, locale="id"))) as client:
        assert client.post("/api/players").status_code == 201
    checked = runner.invoke(cli, ["ledger", "check", "--db", url], env={"COLUMNS": "200"})
    assert checked.exit_code == 0, checked.output
    assert re.search(r"held by guests \(demo\)\s*│\s*Rp 100\.000\.000", checked.output), (
        checked.output
    )
    as_json = json.loads(runner.invoke(cli, ["ledger", "check", "--db", url, "--json"]).output)
    assert (as_json["currency"], as_json["demo"]["money"]) == ("IDR", 100_000_000)
