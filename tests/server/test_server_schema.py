"""Schemathesis over the live server's OpenAPI schema: no 5xx, every response as documented."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance
from server_support import new_player
from serving import ServerProcess

from baccarat.server import Settings, create_app, tables_from


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("schema")
    server = ServerProcess(
        f"sqlite:///{folder / 'table.db'}", folder, tables="standard,ez", betting_seconds=2.0
    )
    server.start()
    yield server
    server.stop()


TOKEN: dict[str, str] = {}


@pytest.fixture(scope="module")
def token(live: ServerProcess) -> str:
    with httpx.Client(base_url=live.url) as client:
        TOKEN["value"] = new_player(client)[1]
    return TOKEN["value"]


# The schema comes from the app object (no server needed to build it); the cases are sent to
# a real server process. (schemathesis' lazy ``from_fixture`` does not run under pytest 9.)
_APP = create_app(Settings(db="sqlite:///:memory:", tables=tables_from(["standard", "ez"])))
# The admin routes answer a player's token with 403 before reading anything else, so fuzzing
# them here only repeats that; tests/admin sends each a valid and a bad request per role. Their
# one open route, the staff login, is fuzzed here.
schema = schemathesis.openapi.from_dict(_APP.openapi()).exclude(
    path_regex=r"^/api/admin/(?!login$)"
)


# Not cached: the token exists only once the module's server has started.
@schema.auth(refresh_interval=None)
class Bearer:
    """A real player's token, applied the way the schema says (so cases without it stay so)."""

    def get(self, case: Any, context: Any) -> str:
        return TOKEN.get("value", "")

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


# A schema-valid bet can still be refused by the table (a limit, the balance, an unknown bet
# name): that is the documented 422 with its own code, not a broken contract.
EXCLUDED = [positive_data_acceptance]


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_contract(case: Any, live: ServerProcess, token: str) -> None:
    assert token
    case.call_and_validate(base_url=live.url, excluded_checks=EXCLUDED)
