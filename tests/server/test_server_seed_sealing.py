"""Shoe seeds sealed at rest: a copy of the database alone does not reveal a shoe in play.

A real server deals from a shoe left by an older version with its seed in the clear (it
seals it at start) and from shoes it starts itself. Every text value of every table, and on
SQLite the raw bytes of the database and WAL files, is then searched for anything that
opens a shoe's commitment; the key given to the server does open the sealed copies.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import ServerProcess, free_port, wait_until
from sqlalchemy import MetaData, select, update
from store_support import migrated
from typer.testing import CliRunner, Result

from baccarat.cli import app
from baccarat.fair import commitment
from baccarat.rulesets import load_ruleset
from baccarat.store import Database, db_now
from baccarat.store.keyfile import KEY_ENV, KeySource, read_key_file
from baccarat.store.schema import rounds, shoes
from baccarat.store.seal import SealError, SeedVault, key_id, sealed_key_id
from baccarat.store.shoes import register_table, seal_open_shoes, start_shoe

STANDARD = load_ruleset("standard")
HEX64 = re.compile(rb"(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])")


def _shoe_in_clear(url: str, seed: bytes, key: bytes, shoe_id: str = "legacy-shoe") -> None:
    """A migrated database holding a shoe in play whose seed is stored in the clear, as a
    database written before seeds were sealed holds it."""
    database = migrated(url)
    try:
        with database.write() as c:
            now = db_now(c)
            register_table(c, STANDARD.name, STANDARD.name, {"betting_ms": 300}, now)
            start_shoe(
                c,
                shoe_id=shoe_id,
                table_id=STANDARD.name,
                decks=STANDARD.decks,
                ruleset_toml=STANDARD.to_toml(),
                server_seed=seed,
                commitment=commitment(seed),
                at=now,
                vault=SeedVault.of([key]),
            )
            c.execute(
                update(shoes)
                .where(shoes.c.id == shoe_id)
                .values(server_seed=seed.hex(), sealed_seed=None)
            )
    finally:
        database.dispose()


def _all_values(url: str) -> Iterator[tuple[str, str, bytes]]:
    """(table, column, value) for every text or binary value of every table."""
    database = Database(url)
    try:
        metadata = MetaData()
        with database.read() as c:
            metadata.reflect(c)
            for table in metadata.sorted_tables:
                for row in c.execute(select(table)):
                    for column, value in row._mapping.items():
                        if isinstance(value, str):
                            yield table.name, str(column), value.encode("utf-8")
                        elif isinstance(value, bytes | bytearray | memoryview):
                            yield table.name, str(column), bytes(value)
    finally:
        database.dispose()


def _openers(blob: bytes, commitments: set[str]) -> list[str]:
    """Every 64-hex-digit run in ``blob`` that is the seed of one of ``commitments``."""
    return [
        match.decode()
        for match in HEX64.findall(blob)
        if hashlib.sha256(bytes.fromhex(match.decode())).hexdigest() in commitments
    ]


@pytest.fixture(scope="module")
def dealing(
    module_db_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """A server dealing on from a shoe it found with its seed in the clear."""
    key, seed = os.urandom(32), os.urandom(32)
    _shoe_in_clear(module_db_url, seed, key)
    server = ServerProcess(
        module_db_url,
        tmp_path_factory.mktemp("sealing"),
        betting_seconds=0.2,
        env={KEY_ENV: key.hex()},
    )
    server.start()
    database = Database(module_db_url)

    def dealt() -> bool:
        with database.read() as c:
            query = select(rounds.c.id).where(
                rounds.c.shoe_id == "legacy-shoe", rounds.c.cards.is_not(None)
            )
            return len(c.execute(query).all()) >= 2

    try:
        wait_until(dealt, 30, "two rounds dealt from the shoe found in the clear")
        yield {"server": server, "key": key, "seed": seed, "url": module_db_url}
    finally:
        database.dispose()
        server.stop()


def test_a_database_copy_holds_no_seed_of_a_shoe_in_play(dealing: dict[str, Any]) -> None:
    seed: bytes = dealing["seed"]
    database = Database(dealing["url"])
    try:
        with database.read() as c:
            in_play = c.execute(select(shoes).where(shoes.c.status == "open")).all()
    finally:
        database.dispose()
    commitments = {row.commitment for row in in_play}
    assert commitment(seed) in commitments  # the legacy shoe is still being dealt

    found = []
    for table, column, value in _all_values(dealing["url"]):
        found += [f"{table}.{column}" for _ in _openers(value, commitments)]
        if seed in value or seed.hex().encode() in value.lower():
            found.append(f"{table}.{column} (the known seed)")
    assert found == [], f"a shoe in play is readable from {found}"
    if dealing["url"].startswith("sqlite:///"):
        path = Path(dealing["url"].removeprefix("sqlite:///"))
        for file in (path, path.with_name(path.name + "-wal")):
            if file.exists():
                blob = file.read_bytes()
                assert _openers(blob, commitments) == [], file
                assert seed not in blob and seed.hex().encode() not in blob.lower(), file

    # Not a search that cannot find: the key the server was given opens every sealed seed,
    # and each opened seed is the one its commitment was made from.
    vault = SeedVault.of([dealing["key"]])
    for row in in_play:
        assert row.server_seed == "" and row.sealed_seed is not None
        opened = vault.open(row.id, row.sealed_seed)
        assert commitment(opened) == row.commitment
        assert _openers(opened.hex().encode(), commitments) == [opened.hex()]


def _serve(url: str, env: dict[str, str], *args: str) -> Result:
    """``baccarat serve`` (in this process) expected to stop before it listens."""
    command = ["serve", "--db", url, "--port", str(free_port()), "--tables", "standard", *args]
    return CliRunner().invoke(app, command, env={KEY_ENV: None, **env})


def _one_line_error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("baccarat: error: "), result.stderr
    return lines[0]


def test_a_wrong_key_stops_the_start_with_one_line(db_url: str, tmp_path: Path) -> None:
    right, wrong = os.urandom(32), os.urandom(32)
    seed = os.urandom(32)
    _shoe_in_clear(db_url, seed, right)
    database = Database(db_url)
    try:
        with database.write() as c:
            seal_open_shoes(c, SeedVault.of([right]))
    finally:
        database.dispose()

    line = _one_line_error(_serve(db_url, {KEY_ENV: wrong.hex()}))
    assert f"sealed with key {key_id(right)}" in line and key_id(wrong) in line
    assert seed.hex() not in line
    line = _one_line_error(_serve(db_url, {KEY_ENV: "not-a-key"}))
    assert KEY_ENV in line and "32 bytes" in line


def test_a_key_file_others_may_read_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'table.db'}"
    key_file = tmp_path / "config" / "seed-keys"
    source = KeySource(key_file, environ={})
    source.vault()  # first start: the file is created, owner-only
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(read_key_file(key_file)) == 1
    key_file.chmod(0o644)
    with pytest.raises(SealError, match="chmod 600"):
        source.load()
    line = _one_line_error(_serve(url, {}, "--seed-key-file", str(key_file)))
    assert str(key_file) in line and "mode 644" in line


def test_two_first_starts_make_one_key_file(tmp_path: Path) -> None:
    key_file = tmp_path / "seed-keys"
    assert [KeySource(key_file, environ={}).create() for _ in range(3)] == [True, False, False]
    assert len(read_key_file(key_file)) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seed-keys"]  # no temporary left


def test_a_sealed_seed_does_not_open_for_another_shoe() -> None:
    vault = SeedVault.ephemeral()
    sealed = vault.seal("shoe-a", bytes(range(32)))
    assert vault.open("shoe-a", sealed) == bytes(range(32))
    with pytest.raises(SealError, match="moved from another shoe"):
        vault.open("shoe-b", sealed)
    flipped = sealed[:-2] + ("A" if sealed[-2] != "A" else "B") + sealed[-1]
    with pytest.raises(SealError, match="was changed"):
        vault.open("shoe-a", flipped)


def test_rotation_seals_the_shoes_in_play_with_the_new_key(db_url: str, tmp_path: Path) -> None:
    key_file = tmp_path / "seed-keys"
    source = KeySource(key_file, environ={})
    source.create()
    (old,) = read_key_file(key_file)
    seed = os.urandom(32)
    _shoe_in_clear(db_url, seed, old)
    database = Database(db_url)
    try:
        with database.write() as c:
            seal_open_shoes(c, source.vault())

        def sealed_now() -> str:
            with database.read() as c:
                text = c.scalar(select(shoes.c.sealed_seed).where(shoes.c.id == "legacy-shoe"))
            assert isinstance(text, str)
            return text

        assert sealed_key_id(sealed_now()) == key_id(old)
        rotate = ["keys", "rotate", "--db", db_url, "--seed-key-file", str(key_file)]
        result = CliRunner().invoke(app, rotate, env={KEY_ENV: None})
        assert result.exit_code == 0, result.output
        old_again, new = read_key_file(key_file)
        assert old_again == old and new != old
        assert f"key {key_id(new)}" in result.stdout and "1 shoe(s) in play" in result.stdout
        assert sealed_key_id(sealed_now()) == key_id(new)
        assert SeedVault.of([new]).open("legacy-shoe", sealed_now()) == seed
        with pytest.raises(SealError, match="not loaded"):
            SeedVault.of([old]).open("legacy-shoe", sealed_now())

        result = CliRunner().invoke(app, [*rotate, "--retire"], env={KEY_ENV: None})
        assert result.exit_code == 0, result.output
        (newest,) = read_key_file(key_file)  # both older keys are gone
        assert newest not in (old, new) and stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert f"retired keys: {key_id(old)}, {key_id(new)}" in result.stdout
        assert SeedVault.of([newest]).open("legacy-shoe", sealed_now()) == seed
    finally:
        database.dispose()
