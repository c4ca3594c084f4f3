"""``docs/wallet.md``'s worked signing example is what the code computes, and the page names
every definite code and every call of the contract."""

from __future__ import annotations

import json
import re
from pathlib import Path

from baccarat.wallet.contract import CALLS, DEFINITE_CODES, canonical, check_body, sign, verify

DOC = Path(__file__).resolve().parents[2] / "docs" / "wallet.md"


def _worked_example() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- worked-example", 1)[1].split("```", 2)[1]
    found = dict(re.findall(r"^(secret|timestamp|body|signature):\s+(.+)$", block, re.M))
    assert set(found) == {"secret", "timestamp", "body", "signature"}
    return found


def test_the_worked_signature_is_the_codes() -> None:
    example = _worked_example()
    secret, timestamp = bytes.fromhex(example["secret"]), int(example["timestamp"])
    body = example["body"].encode()
    assert sign(secret, timestamp, body) == example["signature"]
    assert verify([secret], timestamp, body, example["signature"], now_ms=timestamp)
    assert canonical(json.loads(body)) == body  # the example's body is canonical
    assert check_body("debit", json.loads(body)) is None
    text = DOC.read_text(encoding="utf-8")
    assert f"the {len(str(timestamp)) + 1} bytes `{timestamp}.`" in text
    assert f"the body's {len(body)} bytes" in text
    assert f"X-Signature: {example['signature']}" in text


def test_the_page_names_every_code_and_call() -> None:
    text = DOC.read_text(encoding="utf-8")
    for code in DEFINITE_CODES:
        assert f"| `{code}` |" in text, code
    for call in CALLS:
        assert f"| `{call}` |" in text, call
