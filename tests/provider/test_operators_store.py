"""``store.operators``: adding operators, their sealed secrets, rotation with a grace period,
disabling, the wallet endpoint and whose player a player is."""

from __future__ import annotations

import pytest
from launch_support import T0, database_fixture, db_url_fixture, new_operator, vault_fixture
from sqlalchemy import select

from baccarat.store import Database, db_now
from baccarat.store.launches import seat_player
from baccarat.store.operators import (
    OperatorError,
    OperatorPlayer,
    add_operator,
    disable_operator,
    find_operator,
    list_operators,
    operator_endpoint,
    operator_secrets,
    payout_endpoint,
    player_operator,
    rotate_secret,
)
from baccarat.store.players import create_player, new_token
from baccarat.store.schema import accounts, operators
from baccarat.store.seal import SealError, SeedVault
from baccarat.store.sessions import live_session, open_session
from baccarat.store.wallet_calls import WALLET_KIND, wallet_account

__all__ = ["database_fixture", "db_url_fixture", "vault_fixture"]

HOUR = 3_600_000


def test_a_secret_is_shown_once_and_stored_only_sealed(
    database: Database, vault: SeedVault
) -> None:
    with database.write() as c:
        shown = add_operator(
            c,
            vault,
            operator_id="casino-1",
            name="Kasino",
            wallet_url="https://wallet.example/api/",
            currency="idr",
            timeout_ms=1500,
            at=T0,
        )
    assert len(shown) == 64 and bytes.fromhex(shown).hex() == shown
    with database.read() as c:
        row = c.execute(select(operators)).one()
        assert shown not in row.secret_sealed and row.secret_sealed.startswith("v1:")
        assert row.previous_secret_sealed is None
        assert operator_secrets(c, vault, "casino-1", T0) == [bytes.fromhex(shown)]
        endpoint = operator_endpoint(c, vault, "casino-1", T0)
        found = find_operator(c, "casino-1")
    assert endpoint is not None
    assert (endpoint.url, endpoint.secret, endpoint.timeout_s) == (
        "https://wallet.example/api",
        bytes.fromhex(shown),
        1.5,
    )
    assert endpoint.previous_secrets == ()
    assert found is not None and (found.name, found.currency, found.active) == (
        "Kasino",
        "IDR",
        True,
    )
    # Another vault's keys do not open it: the secret is nowhere in the clear.
    with database.read() as c, pytest.raises(SealError):
        operator_secrets(c, SeedVault.ephemeral(), "casino-1", T0)


def test_an_operator_has_its_ledger_account_from_the_start(
    database: Database, vault: SeedVault
) -> None:
    # Made by the first bet instead, two first bets at once both inserted it on PostgreSQL,
    # and one failed on the key.
    new_operator(database, vault, "casino-1")
    with database.read() as c:
        row = c.execute(
            select(accounts.c.kind, accounts.c.balance).where(
                accounts.c.id == wallet_account("casino-1")
            )
        ).one()
    assert (row.kind, row.balance) == (WALLET_KIND, 0)


def test_two_operators_get_different_secrets(database: Database, vault: SeedVault) -> None:
    first = new_operator(database, vault, "casino-1")
    second = new_operator(database, vault, "casino-2")
    assert first != second
    with database.read() as c:
        assert [o.id for o in list_operators(c)] == ["casino-1", "casino-2"]
        # A sealed secret moved to another operator's row does not open there.
        sealed = c.scalar(select(operators.c.secret_sealed).where(operators.c.id == "casino-1"))
    with database.write() as c:
        c.execute(
            operators.update().where(operators.c.id == "casino-2").values(secret_sealed=sealed)
        )
    with database.read() as c, pytest.raises(SealError):
        operator_secrets(c, vault, "casino-2", T0)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("operator_id", "Casino", "an operator id is"),
        ("operator_id", "", "an operator id is"),
        ("operator_id", "x" * 41, "an operator id is"),
        ("name", " ", "an operator's name"),
        ("name", "a\nb", "an operator's name"),
        ("wallet_url", "ftp://wallet", "the wallet URL"),
        ("wallet_url", "http://", "the wallet URL"),
        ("wallet_url", "https://user:pw@wallet", "the wallet URL"),
        ("wallet_url", "https://wallet/?a=1", "the wallet URL"),
        ("wallet_url", "https://wallet:port/", "the wallet URL"),
        ("currency", "XBT", "the currency must be"),
        ("timeout_ms", 99, "the timeout must be"),
        ("timeout_ms", 30_001, "the timeout must be"),
    ],
)
def test_bad_input_adds_nothing(
    database: Database, vault: SeedVault, field: str, value: object, message: str
) -> None:
    given: dict[str, object] = {
        "operator_id": "casino-1",
        "name": "Kasino",
        "wallet_url": "https://wallet.example",
        "currency": "USD",
        "timeout_ms": 2000,
    }
    given[field] = value
    with database.write() as c, pytest.raises(OperatorError, match=message) as raised:
        add_operator(c, vault, at=T0, **given)  # type: ignore[arg-type]
    assert "\n" not in str(raised.value)
    with database.read() as c:
        assert list_operators(c) == []


def test_an_id_is_taken_once(database: Database, vault: SeedVault) -> None:
    new_operator(database, vault)
    with database.write() as c, pytest.raises(OperatorError, match="already"):
        add_operator(
            c,
            vault,
            operator_id="casino-1",
            name="Other",
            wallet_url="https://x.example",
            currency="USD",
            timeout_ms=2000,
            at=T0,
        )


def test_rotation_keeps_the_previous_secret_for_the_grace_only(
    database: Database, vault: SeedVault
) -> None:
    old = new_operator(database, vault)
    with database.write() as c:
        new = bytes.fromhex(rotate_secret(c, vault, "casino-1", T0, 24 * HOUR))
    assert new != old
    with database.read() as c:
        assert operator_secrets(c, vault, "casino-1", T0) == [new, old]
        assert operator_secrets(c, vault, "casino-1", T0 + 24 * HOUR - 1) == [new, old]
        assert operator_secrets(c, vault, "casino-1", T0 + 24 * HOUR) == [new]
        within = operator_endpoint(c, vault, "casino-1", T0 + HOUR)
        after = operator_endpoint(c, vault, "casino-1", T0 + 24 * HOUR)
    assert within is not None and within.secret == new and within.previous_secrets == (old,)
    assert after is not None and after.previous_secrets == ()
    # A second rotation within the grace drops the oldest; no grace keeps none.
    with database.write() as c:
        newest = bytes.fromhex(rotate_secret(c, vault, "casino-1", T0 + HOUR, 0))
    with database.read() as c:
        assert operator_secrets(c, vault, "casino-1", T0 + HOUR) == [newest]


def test_rotation_of_an_unknown_or_disabled_operator_is_refused(
    database: Database, vault: SeedVault
) -> None:
    with database.write() as c, pytest.raises(OperatorError, match="no operator 'nobody'"):
        rotate_secret(c, vault, "nobody", T0, 0)
    new_operator(database, vault)
    with database.write() as c, pytest.raises(OperatorError, match="cannot be negative"):
        rotate_secret(c, vault, "casino-1", T0, -1)
    with database.write() as c:
        disable_operator(c, "casino-1", T0)
    with database.write() as c, pytest.raises(OperatorError, match="disabled"):
        rotate_secret(c, vault, "casino-1", T0, 0)


def test_a_disabled_operator_has_no_endpoint_no_secret_and_no_sessions(
    database: Database, vault: SeedVault
) -> None:
    secret = new_operator(database, vault)
    with database.write() as c:
        now = db_now(c)
        theirs = seat_player(
            c,
            operator_id="casino-1",
            external_id="ext-1",
            display_name="Budi",
            currency="USD",
            language="id",
            at=now,
        )
        ours = create_player(c, new_token(), 0, now)
        their_token, _ = open_session(c, theirs, now, HOUR)
        our_token, _ = open_session(c, ours, now, HOUR)
    with database.write() as c:
        assert disable_operator(c, "casino-1", now) == 1
    with database.read() as c:
        assert operator_endpoint(c, vault, "casino-1") is None
        assert operator_secrets(c, vault, "casino-1", now) == []
        # What it owes its players is still paid: the outbox's endpoint ignores disabled_at.
        owed = payout_endpoint(c, vault, "casino-1")
        assert owed is not None and owed.secret == secret
        assert live_session(c, their_token, now, HOUR) is None
        assert live_session(c, our_token, now, HOUR) is not None
        found = find_operator(c, "casino-1")
        assert found is not None and found.disabled_at == now and not found.active
    with database.write() as c, pytest.raises(OperatorError, match="disabled already"):
        disable_operator(c, "casino-1", now)
    with database.write() as c, pytest.raises(OperatorError, match="no operator"):
        disable_operator(c, "nobody", now)


def test_unknown_operators_have_nothing(database: Database, vault: SeedVault) -> None:
    with database.read() as c:
        assert operator_endpoint(c, vault, "nobody") is None
        assert payout_endpoint(c, vault, "nobody") is None
        assert operator_secrets(c, vault, "nobody", T0) == []
        assert find_operator(c, "nobody") is None


def test_whose_player(database: Database, vault: SeedVault) -> None:
    new_operator(database, vault)
    with database.write() as c:
        now = db_now(c)
        theirs = seat_player(
            c,
            operator_id="casino-1",
            external_id="ext-1",
            display_name="Budi",
            currency="USD",
            language="id",
            at=now,
        )
        ours = create_player(c, new_token(), 0, now)
        again = seat_player(
            c,
            operator_id="casino-1",
            external_id="ext-1",
            display_name="Budi S.",
            currency="USD",
            language="en",
            at=now,
        )
    assert again == theirs
    with database.read() as c:
        assert player_operator(c, theirs) == OperatorPlayer(
            "casino-1", "ext-1", "Budi S.", "USD", "en"
        )
        assert player_operator(c, ours) is None
        assert player_operator(c, "nobody") is None
