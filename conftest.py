"""What every test process shares.

- A seed key of its own (``BACCARAT_SEED_KEY``), so that no server a test starts reads or
  creates the key file in the user's configuration directory. Tests of the key file itself set
  or clear the variable explicitly.
- Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE``: ``dev`` (the default: Hypothesis' own
  settings) and ``ci`` (``.ci/run``: more examples, derandomized so a run is repeatable, no
  deadline on a loaded machine, the blob to reproduce a failure printed). A test's own
  ``@settings`` still wins for what it sets: an expensive test keeps its example budget.
- ``servers``: the one way a test starts ``baccarat serve`` (``tests/support/serving.py``).
"""

import os
import secrets
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from serving import ServerProcess

os.environ.setdefault("BACCARAT_SEED_KEY", secrets.token_hex(32))

settings.register_profile("dev", settings.get_profile("default"))
settings.register_profile(
    "ci",
    max_examples=300,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    # Timing on a shared two-core machine says nothing about the code under test.
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    """Servers a test starts (append them); every one stopped at the end of the test."""
    started: list[ServerProcess] = []
    yield started
    for server in started:
        server.stop()
