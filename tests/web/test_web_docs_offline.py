"""The API documentation pages with no internet: ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc)
render in Chromium from the server's own files (the fastapi-offline package's), under their
Content Security Policy, while every request to another host is cut."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Route
from web_support import DESKTOP, WAIT_MS, Console, Served

pytest_plugins = ("web_support",)

#: ReDoc's "API docs by Redocly" link shows its maker's logo from its CDN: the policy refuses it
#: (the request never leaves the browser) and the link shows its words alone. Nothing else may
#: be refused.
REDOCLY_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"

#: Runs before the page's own scripts (set by the browser, not subject to the policy).
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
});
"""


@dataclass
class Offline:
    """A page whose requests reach 127.0.0.1 only; every other one is aborted and kept."""

    page: Page
    console: Console
    blocked: list[str] = field(default_factory=list)
    local: list[str] = field(default_factory=list)

    def route(self, route: Route) -> None:
        url = route.request.url
        if urlsplit(url).hostname == "127.0.0.1":
            self.local.append(url)
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort("internetdisconnected")

    def violations(self) -> list[str]:
        found: list[str] = self.page.evaluate("window.__violations")
        return found


@pytest.fixture
def offline(browser: Browser) -> Iterator[Offline]:
    context = browser.new_context(viewport=DESKTOP)  # the policy enforced (no bypass_csp)
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    console = Console()
    page.on("console", console.on_message)
    page.on("pageerror", console.on_error)
    watched = Offline(page, console)
    page.route("**/*", watched.route)
    yield watched
    context.close()


def _open(offline: Offline, url: str) -> str:
    """Load ``url``; its Content Security Policy, which must allow no other origin."""
    document = offline.page.goto(url)
    assert document is not None and document.status == 200
    policy = document.headers["content-security-policy"]
    assert "http" not in policy, policy  # no CDN, no font host: this server only
    return policy


def _clean(offline: Offline, refused: str | None = None) -> None:
    """No request left for another host, and the policy refused nothing (but ``refused``)."""
    assert offline.blocked == [], f"requests to other hosts: {offline.blocked}"
    violations = offline.violations()
    errors = offline.console.unexpected()
    if refused is not None:
        violations = [v for v in violations if not v.startswith(f"img-src {refused}")]
        errors = [e for e in errors if not e.startswith(f"Loading the image '{refused}'")]
    assert violations == []
    assert errors == []


def test_swagger_ui_lists_the_operations_with_no_internet(
    offline: Offline, virtual_server: Served
) -> None:
    _open(offline, f"{virtual_server.url}/docs")
    page = offline.page
    page.wait_for_selector(".swagger-ui .opblock")
    paths = page.eval_on_selector_all(
        ".opblock-summary-path", "els => els.map(el => el.dataset.path)"
    )
    assert {"/api/tables", "/api/tables/{table_id}", "/api/players"} <= set(paths), paths
    assert page.inner_text(".swagger-ui .info .title").startswith("baccarat table service")
    # An operation opens, as a person would check one.
    page.click('.opblock-summary-path[data-path="/api/tables"]')
    page.wait_for_selector(".opblock.is-open .responses-wrapper")
    assert any("/static-offline-docs/swagger-ui-bundle.js" in url for url in offline.local)
    _clean(offline)


def test_redoc_lists_the_operations_with_no_internet(
    offline: Offline, virtual_server: Served
) -> None:
    _open(offline, f"{virtual_server.url}/redoc")
    page = offline.page
    page.wait_for_selector("[data-section-id^='operation/']")
    sections = page.eval_on_selector_all(
        "[data-section-id^='operation/']", "els => els.map(el => el.dataset.sectionId)"
    )
    assert len(sections) >= 10, sections
    assert "/api/tables/{table_id}" in page.inner_text(".api-content")
    assert page.inner_text("h1").startswith("baccarat table service")
    assert any("/static-offline-docs/redoc.standalone.js" in url for url in offline.local)
    _clean(offline, refused=REDOCLY_LOGO)
