"""``Settings``: what the options become for the server, and the defaults of the machine."""

from __future__ import annotations

import base64
import os
import pickle
from pathlib import Path
from typing import Any

import pytest

from baccarat.server.config import ClusterConfig, Settings, default_static_dir
from baccarat.server.table_specs import tables_from
from baccarat.server.workers import ENV_VAR, hand_down, worker_app


def test_the_table_list_is_paced_by_the_pacing_options() -> None:
    settings = Settings(
        db="sqlite:///x.db",
        tables=" ez:face-up , , no-commission",
        betting_seconds=1.2345,
        reveal_ms=7,
        result_ms=9,
        dealing="face-down",
    )
    assert settings.tables == tables_from(
        ["ez:face-up", "no-commission"],
        betting_ms=1234,
        reveal_ms=7,
        result_ms=9,
        dealing="face-down",
    )
    assert [t.dealing for t in settings.tables] == ["face-up", "face-down"]


def test_tables_given_as_settings_are_taken_as_they_are_but_not_none() -> None:
    tables = tables_from(["standard"], betting_ms=700, reveal_ms=1, result_ms=1)
    assert Settings(db="sqlite:///x.db", tables=tables, betting_seconds=99).tables == tables
    with pytest.raises(ValueError, match="names no rule set"):
        Settings(db="sqlite:///x.db", tables=())


def test_the_servers_units_come_from_the_options() -> None:
    settings = Settings(
        db="sqlite:///x.db",
        idle_minutes=2.5,
        session_hours=0.5,
        guest_hours=3,
        guests="off",
        rate_limit=("login-per-username=1/second", "off"),
        rate_limit_delay=0,
        metrics_bind="[::1]:9100",
    )
    assert (settings.session_idle_ms, settings.session_lifetime_ms) == (150_000, 1_800_000)
    assert settings.guest_lifetime_ms == 10_800_000
    assert settings.guests is False
    limits = settings.rate_limits
    assert (limits.login_per_username, limits.enabled, limits.storage) == (
        "1/second",
        False,
        "memory://",
    )
    assert limits.refusal_delay_s == 0
    assert settings.metrics_address == ("::1", 9100)
    assert settings.cluster is None
    assert (settings.money_bounds.max_deposit, settings.money_bounds.max_balance) == (
        10**9,
        10**12,
    )


def test_a_cluster_counts_its_rate_limits_in_its_redis_unless_told_otherwise() -> None:
    cluster: dict[str, Any] = {
        "db": "postgresql://h/db",
        "redis": "redis://h:6379/1",
        "node_id": "n1",
    }
    assert Settings(**cluster).rate_limits.storage == "redis://h:6379/1"
    own = Settings(**cluster, rate_limit_storage="memory://")
    assert own.rate_limits.storage == "memory://"
    assert own.cluster == ClusterConfig("redis://h:6379/1", "n1", "baccarat", 3000)
    # Two clusters sharing one Redis count apart, each under its own prefix.
    tenants = [Settings(**cluster, redis_prefix=name).rate_limits for name in ("east", "west")]
    assert [(limits.storage, limits.key_prefix) for limits in tenants] == [
        ("redis://h:6379/1", "east"),
        ("redis://h:6379/1", "west"),
    ]


def test_the_machine_fills_in_only_what_was_not_given(tmp_path: Path) -> None:
    bare = Settings().on_this_machine()
    assert bare.db is not None and bare.db.startswith("sqlite:///")
    assert bare.audit_anchor is not None and bare.audit_anchor.name == "audit-anchor.jsonl"
    assert bare.audit_anchor.parent == Path(bare.db.removeprefix("sqlite:///")).parent
    assert bare.static == default_static_dir() and bare.node_id is None
    given = Settings(db="sqlite:///x.db", static=tmp_path).on_this_machine()
    assert (given.db, given.static, given.audit_anchor) == ("sqlite:///x.db", tmp_path, None)
    node = Settings(db="postgresql://h/db", redis="redis://h").on_this_machine()
    assert node.node_id is not None and node.node_id.endswith(f"-{os.getpid()}")
    assert node.cluster is not None and node.cluster.node_id == node.node_id


def test_a_worker_gets_the_settings_handed_down_and_a_node_name_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = Settings(
        db="postgresql://h/db", redis="redis://h:6379", node_id="n1", workers=2, tables="ez"
    )
    monkeypatch.setenv(ENV_VAR, "")  # undone after the test, with what hand_down writes
    hand_down(settings)
    assert pickle.loads(base64.b64decode(os.environ[ENV_VAR])) == settings
    app = worker_app()
    app.state.protections.stop()  # its app never starts: nothing else to stop
    service = app.state.service
    assert service.config.cluster.node_id == f"n1-{os.getpid()}"
    assert service.config.model_copy(update={"node_id": "n1"}) == settings
