"""``GET /api/rules/{ruleset}``: house edges as published in the reference figures."""

from __future__ import annotations

import re
from pathlib import Path

from accounts_support import Service, db_url_fixture, service_fixture  # noqa: F401

FIGURES = Path("/work/shared/reference/figures.md")


def _published() -> dict[str, str]:
    """Banker, Player and Tie 8:1 house edges (8 decks) from the published table."""
    found: dict[str, str] = {}
    section = FIGURES.read_text().split("## House edges, 8 decks", 1)[1]
    for line in section.splitlines():
        match = re.match(r"\| (Banker|Player|Tie) \| ([^|]+) \| ([0-9.]+)% \|", line)
        if match and match.group(1).lower() not in found:
            name, pays, edge = match.groups()
            if name != "Tie" or pays.strip() == "8:1":
                found[name.lower()] = edge
    return found


def test_standard_house_edges_equal_the_published_figures(service: Service) -> None:
    published = _published()
    assert set(published) == {"banker", "player", "tie"}
    page = service.call("GET", "/api/rules/standard")
    assert page.status_code == 200
    edges = {bet["name"]: bet["house_edge"]["percent"] for bet in page.json()["bets"]}
    for name, edge in published.items():
        assert edges[name] == edge
    assert service.call("GET", "/api/rules/standard").json() == page.json()


def test_unknown_rule_sets_and_paths_are_404(service: Service) -> None:
    for name in ("nope", "..%2F..%2Fetc%2Fpasswd", "standard.toml"):
        response = service.call("GET", f"/api/rules/{name}")
        assert response.status_code == 404, name
        assert response.json()["error"]["code"] in ("ruleset_not_found", "not_found")
