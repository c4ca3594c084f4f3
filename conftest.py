"""What every test process shares: a seed key of its own (``BACCARAT_SEED_KEY``), so that no
server a test starts reads or creates the key file in the user's configuration directory.
Tests of the key file itself set or clear the variable explicitly."""

import os
import secrets

os.environ.setdefault("BACCARAT_SEED_KEY", secrets.token_hex(32))
