"""The page's files as files: complete, self-contained, and served by ``mount_web`` and the server.

No browser here: every module an ES import names exists, every module is used, index.html
links only files that exist, nothing is fetched from another origin, and the two ways of serving
the page (``mount_web`` and ``baccarat serve``'s app) both answer with it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from baccarat.server import Settings, create_app, default_static_dir, tables_from
from baccarat.web import STATIC_DIR
from baccarat.web.mount import mount_web

JS = STATIC_DIR / "js"
IMPORT = re.compile(r"""^import\s[^;]*?from\s+"(\./[\w-]+\.js)";""", re.MULTILINE | re.DOTALL)
#: A module fetched when first needed (``await import("./rules.js")``); JSDoc types name modules
#: the same way, which is no harm: they exist too.
DYNAMIC = re.compile(r"""\bimport\("(\./[\w-]+\.js)"\)""")
LINKED = re.compile(r"""(?:href|src)="(/static/[^"]+)\"""")
#: The only absolute URL allowed in the page's files: the SVG namespace (an identifier, not fetched).
SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def imports(module: Path) -> list[str]:
    text = module.read_text(encoding="utf-8")
    return IMPORT.findall(text) + DYNAMIC.findall(text)


def test_every_import_names_an_existing_module() -> None:
    for module in JS.glob("*.js"):
        for name in imports(module):
            assert (JS / name).is_file(), f"{module.name} imports missing {name}"


def test_every_module_is_reached_from_main() -> None:
    reached, todo = set(), ["./main.js"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo.extend(imports(JS / name))
    assert reached == {f"./{module.name}" for module in JS.glob("*.js")}


def test_index_links_only_files_that_exist() -> None:
    index = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    links = LINKED.findall(index)
    assert "/static/js/main.js" in links
    # The back office (/admin) is a page of its own: its sheet and modules are not the table's;
    # so is the dealer's console (/studio).
    admin = LINKED.findall((STATIC_DIR / "admin.html").read_text(encoding="utf-8"))
    assert "/static/js/admin/main.js" in admin and "/static/js/admin/main.js" not in links
    admin += LINKED.findall((STATIC_DIR / "studio.html").read_text(encoding="utf-8"))
    assert "/static/js/studio/main.js" in admin and "/static/js/studio/main.js" not in links
    for link in links + admin:
        assert (STATIC_DIR / link.removeprefix("/static/")).is_file(), link
    # A sheet of a module fetched only where it is needed (the squeeze's) is linked by it.
    modules = "".join(p.read_text(encoding="utf-8") for p in (STATIC_DIR / "js").glob("*.js"))
    for sheet in (STATIC_DIR / "css").glob("*.css"):
        linked = f"/static/css/{sheet.name}" in links + admin
        assert linked or f'href: "/static/css/{sheet.name}"' in modules, (
            f"{sheet.name} is not linked"
        )


@pytest.mark.parametrize(
    "path",
    sorted(
        p.relative_to(STATIC_DIR).as_posix()
        for p in STATIC_DIR.rglob("*")
        # hls.js and its licence, copied as published (test_web_video checks the copy).
        if p.is_file() and p.parent.name != "vendor"
    ),
)
def test_nothing_is_fetched_from_another_origin(path: str) -> None:
    text = (STATIC_DIR / path).read_text(encoding="utf-8").replace(SVG_NAMESPACE, "")
    assert not re.search(r"(?:https?|wss?)://", text, re.IGNORECASE), path
    if path.endswith(".css"):  # no fonts or images pulled in by a style sheet
        assert not re.search(r"@import|url\(", text), path


def test_mount_web_serves_the_page_and_its_modules() -> None:
    app = FastAPI()
    mount_web(app)
    client = TestClient(app)
    page = client.get("/")
    assert page.status_code == 200
    assert page.text == (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    module = client.get("/static/js/main.js")
    assert module.status_code == 200
    assert module.headers["content-type"].split(";")[0] in {
        "text/javascript",
        "application/javascript",
    }
    assert module.headers["cache-control"] == "no-cache"
    assert client.get("/static/css/table.css").headers["content-type"].startswith("text/css")
    assert client.get("/static/js/nope.js").status_code == 404
    assert client.get("/static/../mount.py").status_code == 404
    assert app.openapi()["paths"] == {}, "the page stays out of the API's contract"


def test_baccarat_serve_serves_this_page(tmp_path: Path) -> None:
    assert default_static_dir() == STATIC_DIR
    config = Settings(
        db=f"sqlite:///{tmp_path / 'page.db'}",
        tables=tables_from(["standard"]),
        static=default_static_dir(),
    )
    # Without entering the client the app's lifespan (database, dealers) does not start:
    # only the static routes answer, which is all this test asks.
    client = TestClient(create_app(config))
    home = client.get("/", follow_redirects=True)
    assert home.status_code == 200
    assert '<script type="module" src="/static/js/main.js">' in home.text


def test_the_files_travel_compressed_with_their_headers(tmp_path: Path) -> None:
    """gzip when the browser accepts it, plain otherwise; the policy, the revalidation and the
    ETag (a 304 on a match) stay."""
    config = Settings(
        db=f"sqlite:///{tmp_path / 'page.db'}",
        tables=tables_from(["standard"]),
        static=default_static_dir(),
    )
    client = TestClient(create_app(config))
    source = (STATIC_DIR / "js" / "table.js").read_bytes()
    packed = client.get("/static/js/table.js", headers={"Accept-Encoding": "gzip"})
    assert packed.status_code == 200
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(source) // 2
    assert packed.content == source  # httpx undoes the gzip
    assert packed.headers["cache-control"] == "no-cache"
    assert "script-src 'self'" in packed.headers["content-security-policy"]
    assert packed.headers["x-content-type-options"] == "nosniff"
    plain = client.get("/static/js/table.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.content == source
    again = client.get(
        "/static/js/table.js",
        headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["etag"]},
    )
    assert again.status_code == 304
