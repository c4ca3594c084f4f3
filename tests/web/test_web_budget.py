"""The page's weight: a cold-cache visit stays under 200 KB on the wire and 40 requests.

Measured in Chromium through the DevTools protocol with the cache disabled: every response's
``encodedDataLength`` (headers and body as they crossed the wire, compressed when they were),
counted once per address (the lobby re-reads ``/api/tables`` every two seconds, which is the
page working, not the page loading). In English and in Indonesian (whose catalogue is fetched
only when it is the language shown), for the lobby and for a table.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser
from web_support import Served

pytest_plugins = ("web_support",)

BUDGET_BYTES = 200 * 1024
BUDGET_REQUESTS = 40


def cold_visit(browser: Browser, url: str, locale: str, ready: str) -> dict[str, dict[str, Any]]:
    """Every address a fresh visit to ``url`` fetched until ``ready`` shows and the network is
    quiet, with its bytes on the wire and its response headers (the first response of each)."""
    context = browser.new_context(locale=locale, viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        responses: dict[str, dict[str, Any]] = {}
        finished: dict[str, int] = {}
        cdp.on(
            "Network.responseReceived",
            lambda event: responses.__setitem__(event["requestId"], event["response"]),
        )
        cdp.on(
            "Network.loadingFinished",
            lambda event: finished.__setitem__(event["requestId"], int(event["encodedDataLength"])),
        )
        page.goto(url, wait_until="load")
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        assert errors == []
        fetched: dict[str, dict[str, Any]] = {}
        for request_id, size in finished.items():
            response = responses.get(request_id)
            if response is None or response["url"] in fetched:
                continue
            headers = {key.lower(): value for key, value in response["headers"].items()}
            fetched[response["url"]] = {"bytes": size, "headers": headers}
        return fetched
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en-US", "id-ID"])
@pytest.mark.parametrize(
    ("path", "ready"),
    [("/", ".lobby-card"), ("/#/tables/standard", ".bets .spot")],
    ids=["lobby", "table"],
)
def test_a_cold_visit_stays_within_budget(
    browser: Browser, virtual_server: Served, locale: str, path: str, ready: str
) -> None:
    fetched = cold_visit(browser, virtual_server.url + path, locale, ready)
    total = sum(entry["bytes"] for entry in fetched.values())
    listing = "\n".join(f"{entry['bytes']:>7} {url}" for url, entry in sorted(fetched.items()))
    assert len(fetched) < BUDGET_REQUESTS, f"{len(fetched)} requests:\n{listing}"
    assert total < BUDGET_BYTES, f"{total} bytes:\n{listing}"
    static = {url: entry for url, entry in fetched.items() if "/static/" in url}
    # The language shown is fetched, the other one is not; the verifier waits for a shoe's end,
    # My account and the rules page for their own visit.
    names = {url.rsplit("/static/", 1)[1] for url in static}
    assert "js/messages/en.js" in names
    assert ("js/messages/id.js" in names) is (locale == "id-ID")
    assert names.isdisjoint(
        {"js/fairverify.js", "js/rules.js", "js/accountview.js", "js/limits.js"}
    )
    # Every module and style sheet came compressed, with its revalidation and security headers.
    for url, entry in static.items():
        headers = entry["headers"]
        assert headers.get("content-encoding") == "gzip", url
        assert headers.get("cache-control") == "no-cache", url
        assert "default-src 'self'" in headers.get("content-security-policy", ""), url
        assert "etag" in headers, url


def test_views_fetched_later_still_open(browser: Browser, virtual_server: Served) -> None:
    """The rules page and My account, whose modules come when first shown, mount and work."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{virtual_server.url}/#/rules/standard")
        page.wait_for_selector(".rules-body:not([aria-busy='true']) table")
        page.click('[data-nav="account"]')
        page.wait_for_selector(".account-title")
        page.click('[data-nav="lobby"]')
        page.wait_for_selector(".lobby-card")
        assert errors == []
    finally:
        context.close()
