"""Any byte of a signed launch request changed on the way (the body, or any of the three
headers) and the request is refused, 401 ``invalid_signature``, with nothing made."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from launch_support import LaunchApp, counts, db_url_fixture, launch_app, launch_body

__all__ = ["db_url_fixture"]

#: What a header may carry on the wire (visible ASCII): a changed header stays sendable.
VISIBLE = [chr(code) for code in range(0x21, 0x7F)]


@pytest.fixture(name="app")
def app_fixture(db_url: str) -> Iterator[LaunchApp]:
    with launch_app(db_url) as running:
        yield running


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.data(),
    name=st.text(
        st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), min_size=1, max_size=20
    ),
    where=st.sampled_from(["body", "X-Operator-Id", "X-Timestamp", "X-Signature"]),
)
def test_a_changed_byte_is_refused(
    app: LaunchApp, data: st.DataObject, name: str, where: str
) -> None:
    before = counts(app.database())
    raw, headers = app.request(launch_body(display_name=name, table_id="standard"))
    if where == "body":
        at = data.draw(st.integers(0, len(raw) - 1), label="byte")
        flip = data.draw(st.integers(1, 255), label="xor")
        raw = raw[:at] + bytes([raw[at] ^ flip]) + raw[at + 1 :]
    else:
        value = headers[where]
        at = data.draw(st.integers(0, len(value) - 1), label="char")
        other = data.draw(st.sampled_from([c for c in VISIBLE if c != value[at]]), label="to")
        headers = {**headers, where: value[:at] + other + value[at + 1 :]}
    response = app.send(raw, headers)
    assert response.status_code == 401, response.text
    assert response.json()["error"]["code"] == "invalid_signature"
    assert counts(app.database()) == before


def test_the_untouched_request_is_taken(app: LaunchApp) -> None:
    """The control: the same kind of request, sent as signed, launches."""
    raw, headers = app.request(launch_body(display_name="Ani", table_id="standard"))
    assert app.send(raw, headers).status_code == 201
