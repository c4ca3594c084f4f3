"""Every studio route against every kind of caller, read from the app's own OpenAPI document
so that a new route cannot escape: nobody and a player are 401; a device token opens only its
own table's card route (403 elsewhere); an auditor opens none; a dealer the console; only an
operator or an admin what waits for a supervisor. An allowed caller is never refused for who
they are (the table's state may still say not now: 409)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from studiotable_support import TABLE, Studio, running_studio

DEALING = {"dealer", "operator", "admin"}
SUPERVISING = {"operator", "admin"}

#: For every studio route: a request body, and who may call it (``device``: this table's).
SAMPLES: dict[tuple[str, str], tuple[set[str], dict[str, Any] | None]] = {
    ("POST", "/api/studio/tables/{table_id}/cards"): (
        DEALING | {"device"},
        {"card": "Ah", "scan_id": "matrix"},
    ),
    ("GET", "/api/studio/tables/{table_id}"): (DEALING, None),
    ("POST", "/api/studio/tables/{table_id}/shoe"): (DEALING, {"shuffled_by": "m"}),
    ("POST", "/api/studio/tables/{table_id}/close"): (DEALING, None),
    ("POST", "/api/studio/tables/{table_id}/misscan"): (DEALING, {"card": "Ah", "reason": "m"}),
    ("POST", "/api/studio/tables/{table_id}/misdeal"): (DEALING, {"reason": "m"}),
    ("POST", "/api/studio/tables/{table_id}/dealer"): (DEALING, None),
    ("POST", "/api/studio/tables/{table_id}/pause"): (DEALING, {"reason": "m"}),
    ("POST", "/api/studio/tables/{table_id}/resume"): (DEALING, {"reason": "m"}),
    ("POST", "/api/studio/tables/{table_id}/misscan/confirm"): (SUPERVISING, {"reason": "m"}),
    ("POST", "/api/studio/tables/{table_id}/misscan/reject"): (SUPERVISING, {"reason": "m"}),
    ("POST", "/api/studio/tables/{table_id}/halt/discard"): (SUPERVISING, {"reason": "m"}),
    ("POST", "/api/studio/tables/{table_id}/halt/void"): (SUPERVISING, {"reason": "m"}),
}


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Studio]:
    with running_studio(tmp_path_factory.mktemp("matrix")) as running:
        yield running


def test_every_studio_route_admits_exactly_its_callers(studio: Studio) -> None:
    paths = studio.client.app.openapi()["paths"]  # type: ignore[attr-defined]
    routes = {
        (method.upper(), path)
        for path, operations in paths.items()
        if path.startswith("/api/studio")
        for method in operations
    }
    assert routes == set(SAMPLES), "a new studio route needs a sample here"
    _, player = studio.guest()
    callers = {
        "nobody": None,
        "player": player,
        "device": studio.device,
        "other device": studio.other_device,
        **studio.tokens,
    }
    for (method, template), (allowed, body) in SAMPLES.items():
        path = template.replace("{table_id}", TABLE)
        for name, token in callers.items():
            response = studio.call(method, path, token, json=body)
            where = f"{method} {template} as {name}: {response.status_code} {response.text}"
            if name in allowed:
                assert response.status_code not in (401, 403), where
                assert response.status_code < 500, where
            elif token is None or name == "player":
                assert response.status_code == 401, where
            else:
                assert response.status_code == 403, where
