"""The SQLite database, its WAL and its shared memory are the owner's alone (0600), whatever the
umask of the process that creates them: they hold balances, sessions and sealed seeds."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from serving import create_staff

from baccarat.store import Database, upgrade


def _modes(db: Path) -> dict[str, int]:
    files = [db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")]
    return {path.name: stat.S_IMODE(path.stat().st_mode) for path in files if path.exists()}


@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_a_new_database_and_its_wal_are_0600_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    db = tmp_path / "money.db"
    before = os.umask(umask)
    try:
        database = Database(f"sqlite:///{db}")
        upgrade(database)
        with database.write() as connection:
            connection.exec_driver_sql("SELECT 1")
        modes = _modes(db)
        database.dispose()
    finally:
        os.umask(before)
    assert set(modes) == {"money.db", "money.db-wal", "money.db-shm"}
    assert modes == dict.fromkeys(modes, 0o600), {name: oct(mode) for name, mode in modes.items()}


def test_the_command_that_creates_the_database_makes_it_0600(tmp_path: Path) -> None:
    db = tmp_path / "served.db"
    create_staff(f"sqlite:///{db}", "pitboss", "operator", "Pit-Boss-Pass-9", umask=0)
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


def test_an_existing_database_keeps_the_mode_its_operator_gave_it(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    db.touch()
    db.chmod(0o640)  # e.g. a backup group allowed to read it
    database = Database(f"sqlite:///{db}")
    upgrade(database)
    database.dispose()
    assert stat.S_IMODE(db.stat().st_mode) == 0o640
