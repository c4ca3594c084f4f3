"""Verifying a shoe in the browser: ``fairverify.js`` against ``baccarat.fair`` and
``baccarat.verify``, and the fairness panel's **Verify in this browser** and seed form.

The JavaScript verifier runs in Chromium (imported in ``page.evaluate``) on every vector of
``tests/fair/vectors.json``, on the drawing rules and the shoe procedure, on real records of a
short-shoe server (untouched, one card changed, a wrong seed) and on records built and tampered
with in Python; each time it must say exactly what ``baccarat.verify.verify_record`` says, down
to the JSON paths of the failures. Then a player sets their own seed in the panel, a shoe
dealt with it ends, and the panel verifies it: a tick on the commitment and on every coup.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from web_support import (
    QUICK_RULES,
    SCREENSHOTS,
    VIRTUAL_WINDOW_S,
    Opener,
    Served,
    TablePage,
    serve_web,
)

from baccarat.cards import Card
from baccarat.coup import deal
from baccarat.fair import FairShoe, derive_order, index_limit, order_digest, table_client_seed
from baccarat.record import build_record
from baccarat.rulesets import load_ruleset
from baccarat.shoe import LastCoupRule, ShoeProcedure
from baccarat.tableau import banker_draws, player_draws
from baccarat.verify import verify_record

pytest_plugins = ("web_support",)

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "fair" / "vectors.json").read_text(encoding="utf-8")
)
MODULE = "/static/js/fairverify.js"
#: The verifier's report as JSON: the rebuilt order without its key bytes.
REPORT_JS = f"""async (record) => {{
  const v = await import("{MODULE}");
  const report = await v.verifyRecord(record);
  const derived = report.derived && {{
    order: report.derived.order, digest: await v.orderDigest(report.derived.order),
  }};
  return {{ ...report, derived }};
}}"""


@pytest.fixture(scope="module")
def short_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One face-up table of one deck with an early cut card: a shoe ends every few coups."""
    folder = tmp_path_factory.mktemp("web-verify")
    rules = folder / "quick.toml"
    rules.write_text(QUICK_RULES, encoding="utf-8")
    # On a virtual clock: shoes end when a test steps them there.
    served = serve_web(
        folder,
        tables=str(rules),
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=100,
        result_ms=300,
        virtual_clock=True,
    )
    yield served
    served.stop()


@pytest.fixture(scope="module")
def page(browser: Browser, short_server: Served) -> Iterator[Page]:
    """A page on the server's origin (WebCrypto needs a secure context: 127.0.0.1 is one)."""
    context = browser.new_context()
    opened = context.new_page()
    opened.goto(f"{short_server.url}/healthz")
    yield opened
    context.close()


def js_report(page: Page, record: dict[str, Any]) -> dict[str, Any]:
    report: dict[str, Any] = page.evaluate(REPORT_JS, record)
    return report


def paths(failures: list[dict[str, Any]]) -> list[str]:
    return sorted(str(failure["path"]) for failure in failures)


def python_paths(record: dict[str, Any]) -> list[str]:
    return sorted(failure.path for failure in verify_record(record).failures)


def ended_record(server: Served) -> dict[str, Any]:
    """The record of the table's last ended shoe (waits for one to end)."""
    shoe = server.advance_until(lambda: server.get("/api/tables/quick")["previous_shoe"], "a shoe")
    record: dict[str, Any] = server.get(f"/api/shoes/{shoe['id']}/record")
    return record


# ---- (a) the scheme, the drawing rules and the shoe against the Python core ----------------


def test_every_vector_agrees_with_python(page: Page) -> None:
    shoes = VECTORS["shoes"]
    found = page.evaluate(
        f"""async (shoes) => {{
          const v = await import("{MODULE}");
          const out = [];
          for (const s of shoes) {{
            const seed = v.hexToBytes(s.server_seed);
            const d = await v.deriveOrder(seed, s.client_seed, s.shoe_id, s.decks);
            out.push({{
              commitment: await v.commitment(seed),
              key: v.bytesToHex(d.key),
              block_0: d.block0,
              first_20_numbers: d.order.slice(0, 20),
              first_20: d.order.slice(0, 20).map(v.cardCode),
              digest: await v.orderDigest(d.order),
              words_read: d.wordsRead,
              rejections: d.rejections,
              order: d.order,
            }});
          }}
          return out;
        }}""",
        shoes,
    )
    assert len(found) == len(shoes) == 4
    assert any(vector["rejections"] for vector in shoes), "the rejection vector is there"
    for vector, got in zip(shoes, found, strict=True):
        name = vector["name"]
        for field in ("commitment", "key", "first_20_numbers", "first_20", "digest"):
            assert got[field] == vector[field], (name, field)
        if "block_0" in vector:
            assert got["block_0"] == vector["block_0"], name
        assert got["words_read"] == vector["words_read"], name
        assert got["rejections"] == vector["rejections"], name
        seed = bytes.fromhex(vector["server_seed"])
        order = derive_order(seed, vector["client_seed"], vector["shoe_id"], vector["decks"])
        assert got["order"] == list(order), name
        assert order_digest(order) == vector["digest"]


def test_table_client_seeds_and_the_index_agree_with_python(page: Page) -> None:
    cases = VECTORS["table_client_seeds"]
    # Astral characters sort by code point in Python, not by UTF-16 unit as JS's < does.
    extra_seeds = {"p\U0001f0a1": "1", "p\uffff": "2", "p": "3"}
    extra = {"shoe_id": "s", "player_seeds": extra_seeds}
    ns = [1, 2, 3, 7, 52, 100, 196, 415, 416, 2**31 + 1, 2**32 - 1, 2**32]
    found = page.evaluate(
        f"""async ([cases, ns]) => {{
          const v = await import("{MODULE}");
          const seeds = [];
          for (const c of cases) seeds.push(await v.tableClientSeed(c.shoe_id, c.player_seeds));
          const words = [2 ** 32 - 1, 2 ** 32 - 5, 107];
          const next = () => words.shift();
          const atLimit = [v.indexLimit(52), 5];
          return {{
            seeds,
            limits: ns.map((n) => v.indexLimit(n)),
            index: [v.unbiasedIndex(52, next), words.length],
            limitRejected: v.unbiasedIndex(52, () => atLimit.shift()),
            fy1: (() => {{ const w = [5, 7]; return v.fisherYates(3, () => w.shift()); }})(),
            fy2: (() => {{ const w = [2 ** 32 - 1, 4, 9]; return v.fisherYates(3, () => w.shift()); }})(),
          }};
        }}""",
        [[*cases, extra], ns],
    )
    expected = [case["client_seed"] for case in cases]
    expected.append(table_client_seed("s", extra_seeds))
    assert found["seeds"] == expected
    assert found["limits"] == [index_limit(n) for n in ns]
    assert found["index"] == [3, 0]  # the two words above the limit for 52 are rejected
    assert found["limitRejected"] == 5  # and so is the limit itself
    # The doctests of baccarat.fair.fisher_yates: i=2 takes 5 % 3 = 2, i=1 takes 7 % 2 = 1.
    assert found["fy1"] == {"order": [0, 1, 2], "rejections": []}
    assert found["fy2"]["order"] == [0, 2, 1]
    assert found["fy2"]["rejections"] == [{"n": 3, "word": 2**32 - 1, "limit": index_limit(3)}]


def test_the_drawing_rules_and_coups_agree_with_python(page: Page) -> None:
    rng = random.Random(20240611)
    sequences = [[rng.randrange(52) for _ in range(6)] for _ in range(3000)]
    found = page.evaluate(
        f"""async (sequences) => {{
          const v = await import("{MODULE}");
          const totals = [...Array(10).keys()];
          return {{
            player: totals.map((t) => v.playerDraws(t)),
            banker: totals.map((t) => [null, ...totals].map((third) => v.bankerDraws(t, third))),
            coups: sequences.map((cards) => {{
              const left = [...cards];
              const coup = v.dealCoup(() => left.shift());
              return [coup.codes, coup.playerTotal, coup.bankerTotal, coup.winner];
            }}),
          }};
        }}""",
        sequences,
    )
    assert found["player"] == [player_draws(total) for total in range(8)] + [False, False]
    for total in range(10):
        row = [banker_draws(total, third) for third in (None, *range(10))]
        assert found["banker"][total] == row, f"Banker {total}"
    for cards, (codes, player, banker, winner) in zip(sequences, found["coups"], strict=True):
        coup = deal([Card.from_index(c) for c in cards][: len(codes)])
        assert codes == [card.code for card in coup.cards]
        assert (player, banker, winner) == (coup.player_total, coup.banker_total, coup.winner)


# ---- (d) the panel: a seed of one's own, then Verify in this browser -------------------------


def test_the_panel_verifies_a_shoe_dealt_with_the_players_seed(
    open_page: Opener, short_server: Served
) -> None:
    page, console = open_page(f"{short_server.url}/")
    table = TablePage(page)
    table.join()
    table.open_table("quick")
    player_id = page.evaluate("JSON.parse(localStorage.getItem('baccarat.session')).id")

    # A seed that is not one is refused in the page, before any request.
    page.fill("#fair-seed", "no spaces please")
    page.click("text=Use my seed")
    page.wait_for_function(
        "document.querySelector('.fair__seed-status').textContent.startsWith('A seed is')"
    )

    # The seed goes to the shoe in play if its client seed is still open, else to the next.
    seed = "verify-in-browser.7"
    page.fill("#fair-seed", seed)
    page.click("text=Use my seed")
    sent_to = page.wait_for_function(
        "document.querySelector('.fair__seed-status').dataset.sent || false", timeout=60_000
    ).json_value()

    # A shoe dealt with it ends: the panel says the client seed is this player's alone.
    yours = '.fair__revealed .fair__whose[data-whose="yours"]'
    short_server.advance_until(lambda: page.query_selector(yours), "the player's shoe to end")
    page.click(".fair__verify-here")
    page.wait_for_selector(".fair__check[data-verdict]")
    shown = page.evaluate(
        """() => {
          const check = document.querySelector('.fair__check');
          const marks = (selector) => [...check.querySelectorAll(selector)]
            .map((el) => [el.dataset.check ?? el.dataset.coup, el.dataset.ok, el.textContent]);
          const rows = [...document.querySelectorAll('.fair__revealed .fair__row')]
            .map((row) => [row.querySelector('dt').textContent, row.querySelector('.fair__hex').textContent]);
          return {
            shoe: check.dataset.shoe,
            heading: document.querySelector('.fair__revealed').dataset.shoe,
            verdict: check.dataset.verdict,
            summary: check.querySelector('.fair__summary').textContent,
            checks: marks('.fair__marks .fair__mark'),
            coups: marks('.fair__coups .fair__mark'),
            problems: check.querySelectorAll('.fair__problem').length,
            rows: Object.fromEntries(rows),
            cli: document.querySelector('.fair__verify code').textContent,
            // The page speaks through its one live region (the announcer), not the panel's own.
            voices: document.querySelectorAll('.fair [aria-live], .fair [role=status]').length,
          };
        }"""
    )
    shoe_id = shown["shoe"]
    assert shown["heading"] == shoe_id
    record: dict[str, Any] = short_server.get(f"/api/shoes/{shoe_id}/record")
    assert verify_record(record).ok
    assert record["client_seed"] == table_client_seed(shoe_id, {player_id: seed})
    # The seed was accepted for a shoe no later than the one verified.
    numbers = {key: short_server.get(f"/api/shoes/{key}")["number"] for key in (sent_to, shoe_id)}
    assert numbers[sent_to] <= numbers[shoe_id]

    assert shown["verdict"] == "ok", shown["summary"]
    assert shown["summary"].startswith("✓ Verified")
    assert shown["checks"] == [
        ["commitment", "true", "Commitment ✓"],
        ["digest", "true", "Digest ✓"],
        ["burn", "true", "Burn ✓"],
    ]
    assert shown["coups"] == [
        [str(n), "true", f"{n} ✓"] for n in range(1, len(record["coups"]) + 1)
    ]
    assert shown["problems"] == 0
    assert shown["rows"] == {
        "Server seed": record["server_seed"],
        "Client seed": record["client_seed"],
        "Digest": record["digest"],
    }
    assert shown["cli"] == "baccarat verify record.json"
    assert shown["voices"] == 0
    page.locator(".fair__check").scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOTS / "fairness-desktop.png")
    # A seed sent just as a shoe's first window closed is refused once (409): allowed.
    assert console.unexpected(s409=1) == []


# ---- (b) and (c) real records of the server, as they are and tampered with --------------------


def test_a_real_shoe_verifies_in_the_browser_as_in_python(page: Page, short_server: Served) -> None:
    record = ended_record(short_server)
    report = js_report(page, record)
    assert verify_record(record).ok
    assert report["ok"], report["summary"]
    assert report["failures"] == []
    assert [coup["ok"] for coup in report["coups"]] == [True] * len(record["coups"])
    assert len(record["coups"]) >= 1
    assert (report["commitment"]["ok"], report["digest"]["ok"], report["burn"]["ok"]) == (
        True,
        True,
        True,
    )
    fair = FairShoe(
        bytes.fromhex(record["server_seed"]),
        record["client_seed"],
        record["shoe_id"],
        record["decks"],
    )
    assert report["derived"] == {"order": list(fair.order), "digest": fair.digest}


def test_a_tampered_record_fails_where_python_says(page: Page, short_server: Served) -> None:
    record = ended_record(short_server)
    assert verify_record(record).ok

    # One card of one coup changed: that coup alone gets a cross.
    coup = len(record["coups"]) - 1
    changed = json.loads(json.dumps(record))
    code = changed["coups"][coup]["cards"][1]
    changed["coups"][coup]["cards"][1] = ("K" if code[0] != "K" else "Q") + code[1]
    report = js_report(page, changed)
    assert not report["ok"]
    assert [c["ok"] for c in report["coups"]] == [n != coup for n in range(len(record["coups"]))]
    assert report["coups"][coup]["reason"].startswith(f"coup {coup + 1}, card 2 (coups[{coup}]")
    assert report["commitment"]["ok"] and report["digest"]["ok"]
    assert paths(report["failures"]) == python_paths(changed) == [f"coups[{coup}].cards[1]"]

    # A wrong server seed: the commitment gets a cross, and the rest fails as in Python.
    wrong = {**record, "server_seed": bytes(range(32)).hex()}
    report = js_report(page, wrong)
    assert report["commitment"]["ok"] is False
    assert report["digest"]["ok"] is False
    assert report["summary"].startswith("Not verified: the seed does not match its commitment")
    assert "commitment" in python_paths(wrong)
    assert paths(report["failures"]) == python_paths(wrong)


def _records() -> Iterator[tuple[str, dict[str, Any]]]:
    """Records of every procedure, as dealt and tampered with in each way the verifier knows."""
    rng = random.Random(7)
    rules = load_ruleset("standard")
    for number in range(36):
        decks = (1, 1, 2, 8)[number % 4]
        procedure = ShoeProcedure(
            decks=decks,
            burn=number % 3 != 0,
            cut_card_from_end=(14, 40, 52 * decks - 2, 52 * decks, 0)[number % 5],
            last_coup=(LastCoupRule.ONE_MORE, LastCoupRule.FINISH)[number % 2],
        )
        fair = FairShoe(rng.randbytes(32), f"client-{number}", f"shoe-{number}", decks)
        record = build_record(fair, rules, list(fair.shoe(procedure).coups()), procedure=procedure)
        way = (
            "none",
            "card",
            "seed",
            "drop",
            "extra",
            "winner",
            "unrevealed",
            "cut",
            "early",
            "early-whole",
            "voided",
            "voided-wagers",
        )[number % 12]
        coups = record["coups"]
        if way == "card":
            coup = rng.randrange(len(coups))
            index = rng.randrange(len(coups[coup]["cards"]))
            code = coups[coup]["cards"][index]
            coups[coup]["cards"][index] = ("2" if code[0] != "2" else "3") + code[1]
        elif way == "seed":
            record["server_seed"] = rng.randbytes(32).hex()
        elif way == "drop":
            coups.pop()
        elif way == "extra":
            coups.append(dict(coups[-1]))
        elif way == "winner":
            coups[0]["winner"] = "tie" if coups[0]["winner"] != "tie" else "banker"
        elif way == "unrevealed":
            for field in ("server_seed", "digest", "burn"):
                del record[field]
        elif way == "cut":
            record["cut_position"] += 1
        elif way == "early":  # an operator's new shoe: fine, and said
            del coups[len(coups) // 2 :]
            record["ended_early"] = True
        elif way == "early-whole":
            record["ended_early"] = True
        elif way == "voided" and coups:
            coups[-1]["voided"] = True
        elif way == "voided-wagers" and coups:
            coups[0]["voided"] = True
            coups[0]["wagers"] = [{"player": "p", "bet": "banker", "stake": 100, "returned": 195}]
        yield f"{number}-{way}", record


def test_built_records_fail_exactly_where_python_says(page: Page) -> None:
    cases = list(_records())
    reports = page.evaluate(
        f"""async (records) => {{
          const v = await import("{MODULE}");
          const out = [];
          for (const record of records) {{
            const r = await v.verifyRecord(record);
            out.push({{ok: r.ok, paths: r.failures.map((f) => f.path).sort(),
                       coups: r.coups.map((c) => c.ok)}});
          }}
          return out;
        }}""",
        [record for _, record in cases],
    )
    for (name, record), report in zip(cases, reports, strict=True):
        expected = python_paths(record)
        assert report["paths"] == expected, name
        assert report["ok"] == (not expected), name
        failing = {
            failure.coup
            for failure in verify_record(record).failures
            if failure.coup is not None and failure.coup < len(record["coups"])
        }
        assert [not ok for ok in report["coups"]] == [
            n in failing for n in range(len(record["coups"]))
        ], name
    assert sum(1 for name, _ in cases if name.endswith("-none")) == 3


def test_what_is_not_a_record_is_refused(page: Page) -> None:
    found = page.evaluate(
        f"""async (records) => {{
          const v = await import("{MODULE}");
          const out = [];
          for (const record of records) {{
            try {{ await v.verifyRecord(record); out.push(null); }}
            catch (error) {{ out.push([error instanceof v.RecordError, error.message]); }}
          }}
          return out;
        }}""",
        [[], {"format": "something else"}, {"format": "baccarat-shoe-record/1"}],
    )
    assert found == [
        [True, "not a shoe record: a JSON object is needed"],
        [True, "not a shoe record: format is 'something else', not 'baccarat-shoe-record/1'"],
        [True, "not a complete shoe record: 'algorithm' is missing"],
    ]
