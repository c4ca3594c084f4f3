"""``baccarat studio device-token``: a token printed once, stored only as its hash, audited,
refused for a table that is not a studio's, and revoked for good."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.store import Database
from baccarat.store.audit_log import audit_rows
from baccarat.store.device_tokens import device_of
from baccarat.store.schema import device_tokens


def test_a_device_token_is_issued_once_stored_hashed_and_revoked(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tokens.db'}"
    runner = CliRunner()
    issued = runner.invoke(app, ["studio", "device-token", "--table", "ez-studio", "--db", db])
    assert issued.exit_code == 0, issued.output
    token = issued.output.strip().splitlines()[-1]
    assert token.startswith("bdv_") and len(token) > 40
    database = Database(db)
    try:
        with database.read() as c:
            device = device_of(c, token)
            stored = [tuple(row) for row in c.execute(device_tokens.select())]
            actions = [row["action"] for row in audit_rows(c)]
        assert device is not None and device.table_id == "ez-studio"
        assert token not in repr(stored)  # only its hash
        assert actions == ["device_token_issue"]
        revoked = runner.invoke(
            app,
            ["studio", "device-token", "--table", "ez-studio", "--revoke", device.id, "--db", db],
        )
        assert revoked.exit_code == 0, revoked.output
        with database.read() as c:
            assert device_of(c, token) is None
            assert [row["action"] for row in audit_rows(c)][-1] == "device_token_revoke"
    finally:
        database.dispose()
    again = runner.invoke(
        app, ["studio", "device-token", "--table", "ez-studio", "--revoke", device.id, "--db", db]
    )
    assert again.exit_code == 2 and "no live device token" in again.output
    rng = runner.invoke(app, ["studio", "device-token", "--table", "ez", "--db", db])
    assert rng.exit_code == 2 and "studio table" in rng.output
