"""A studio table's video (``video.js``), in Chromium against a real ``baccarat serve`` and a
real HLS stream.

ffmpeg makes the stream: H.264 and AAC in MPEG-TS segments of one second (Debian's Chromium
plays H.264, with its own HLS and through hls.js's MediaSource alike). An HTTP server of the
test's own serves it from another port, so from another origin, as a live stream: a playlist
of the last four segments that moves on with the wall clock, which the test can freeze (a
stalled stream: the playlist no longer moves) and start again. The table server runs on a
virtual clock the test moves, as in the other browser tests; the studio table's rounds are
dealt as a studio deals them (``docs/studio.md``): its dealer (staff made with the command)
starts a shoe at the console and each card is read there, from a shoe the test shuffled.

- Under the page's own Content Security Policy (no bypass), with the browser's own HLS and with
  hls.js (the browser's HLS hidden from the page): the policy names the stream's origin for
  media and fetches and nothing else, the video plays (its time advances) muted and inline,
  hls.js is fetched only when it plays, the unmute button is reached by the keyboard and turns
  the sound on, the latency note is shown; the stream freezes, the notice shows over the video,
  and a round is dealt to its result on the page all the same (its cards and result as the
  server has them); the stream comes back and so does the picture, the notice gone. No policy
  violation and no console error.
- A stream that is not there (404): the notice, the game on.
- The table the server deals and a studio table without a stream: nothing of the video, and
  neither its module nor hls.js fetched.
- Bahasa Indonesia: every word of the video in the catalogue's Indonesian, none in English;
  axe-core finds no serious or critical violation with the video playing, with its notice
  shown and with the video hidden, in both languages, on a desktop (1440×900) and a phone
  (390×844).
- The layout at both sizes: the video beside the cards on a desktop and over them on a phone,
  overlapping nothing, nothing wider than the screen; the screenshots in ``docs/screenshots``.
- The vendored hls.js is byte for byte the pinned npm package's, its licence beside it; the
  policy of a server with streams, without a browser.

Without ffmpeg (or Chromium) the browser tests skip, unless ``BACCARAT_REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

import http.server
import json
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize
from pydantic import ValidationError
from serving import ServerProcess, create_staff, free_port, services_required, wait_until
from test_web_axe import AXE, ON_GRADIENT, SOLID
from web_support import (
    PHONE,
    ROOT,
    SCREENSHOTS,
    VIRTUAL_WINDOW_S,
    WAIT_MS,
    Console,
    Opener,
    Served,
    StudioDealer,
    TablePage,
    drive_to_result,
    no_sideways_scroll,
    wait_still,
)

from baccarat.server import Settings, create_app, tables_from
from baccarat.server.hygiene import CSP
from baccarat.web import STATIC_DIR

pytest_plugins = ("web_support",)

DESKTOP: ViewportSize = {"width": 1440, "height": 900}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
STUDIO = "standard-studio"
#: A studio table whose stream is not there, and one with no stream at all.
MISSING = "ez-studio"
SILENT = "no-commission-studio"
#: The member of staff at the studio table's console.
DEALER = "dana"
DEALER_PASSWORD = "Dealer-Pass-2026"
VENDORED = STATIC_DIR / "vendor" / "hls.min.mjs"
NODE_HLS = ROOT / "node_modules" / "hls.js"
#: Seconds of stream made: far more than a test plays between two starts of the live clock.
STREAM_S = 300
#: Segments in the live playlist at any moment.
WINDOW = 4
#: Generous for a stall to be seen: the buffer runs out, then the page waits a few seconds.
STALL_WAIT_MS = 40_000
#: The page starts again after 2, 4, 8 and then every 15 s, and wants 6 s of steady picture.
BACK_WAIT_MS = 60_000

#: Set by the browser before the page's scripts (not subject to the policy).
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
});
"""
#: The browser's own HLS hidden from the page: it plays the stream with hls.js.
NO_NATIVE_HLS = """
const canPlayType = HTMLMediaElement.prototype.canPlayType;
HTMLMediaElement.prototype.canPlayType = function (type) {
  return /mpegurl/i.test(type) ? "" : canPlayType.call(this, type);
};
"""
#: The video element's state, read in one look.
VIDEO_STATE = """() => {
  const section = document.querySelector('.table-video');
  const video = section?.querySelector('video');
  return section && video && {
    state: section.dataset.state ?? null, player: section.dataset.player ?? null,
    time: video.currentTime, muted: video.muted, mutedAttribute: video.hasAttribute('muted'),
    inline: video.playsInline, autoplay: video.autoplay, paused: video.paused,
    notice: !section.querySelector('.table-video__notice').hidden,
    visible: section.checkVisibility(),
  };
}"""
#: The cards on the felt, by hand in order, and the result banner's winner.
FELT = """() => {
  const hand = (name) => [...document.querySelectorAll(
      `.hand[data-hand="${name}"] .card.card--revealed`)]
    .sort((a, b) => Number(a.dataset.position) - Number(b.dataset.position))
    .map((el) => el.dataset.card);
  const result = document.querySelector('.result:not([hidden])');
  return {player: hand('player'), banker: hand('banker'), winner: result?.dataset.winner ?? null};
}"""


# ---- the stream -----------------------------------------------------------------------------


def ffmpeg() -> str:
    found = shutil.which("ffmpeg")
    if found is None:
        if services_required():
            pytest.fail("ffmpeg is required (BACCARAT_REQUIRE_SERVICES=1) but absent")
        pytest.skip("no ffmpeg")
    return found


def make_segments(folder: Path) -> int:
    """``STREAM_S`` seconds of a test picture and a tone as one-second H.264/AAC MPEG-TS segments
    (``seg000.ts``, …), each starting on a key frame; how many."""
    made = subprocess.run(
        [
            ffmpeg(),
            "-hide_banner",
            "-loglevel",
            "error",
            "-f",
            "lavfi",
            "-i",
            "testsrc=size=320x180:rate=15",
            "-f",
            "lavfi",
            "-i",
            "sine=frequency=440:sample_rate=44100",
            "-t",
            str(STREAM_S),
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-profile:v",
            "baseline",
            "-pix_fmt",
            "yuv420p",
            "-g",
            "15",
            "-keyint_min",
            "15",
            "-sc_threshold",
            "0",
            "-c:a",
            "aac",
            "-b:a",
            "64k",
            "-hls_time",
            "1",
            "-hls_list_size",
            "0",
            "-hls_segment_filename",
            str(folder / "seg%03d.ts"),
            "-f",
            "hls",
            str(folder / "all.m3u8"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    return len(list(folder.glob("seg*.ts")))


class LiveStream:
    """The segments served as a live HLS stream from a port of its own, CORS open (hls.js
    fetches cross-origin): ``/live.m3u8`` lists the last ``WINDOW`` segments, one more each
    second; frozen, it stops moving; ``/gone.m3u8`` is never there."""

    def __init__(self, folder: Path, count: int) -> None:
        self.folder = folder
        self.count = count
        self.started = time.monotonic()
        self.frozen_at: float | None = None
        self.lock = threading.Lock()
        #: Every path asked for, in order.
        self.asked: list[str] = []
        stream = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                path = self.path.split("?")[0]
                with stream.lock:
                    stream.asked.append(path)
                body, kind = stream.answer(path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def go_live(self) -> None:
        """From the first segments again, moving."""
        with self.lock:
            self.started, self.frozen_at = time.monotonic(), None

    def freeze(self) -> None:
        with self.lock:
            self.frozen_at = time.monotonic()

    def resume(self) -> None:
        """Moving again from where it froze (a studio's encoder back after an outage)."""
        with self.lock:
            if self.frozen_at is not None:
                self.started += time.monotonic() - self.frozen_at
                self.frozen_at = None

    def playlist(self) -> bytes:
        with self.lock:
            now = self.frozen_at if self.frozen_at is not None else time.monotonic()
            last = min(self.count - 1, WINDOW - 1 + int(now - self.started))
        first = max(0, last - WINDOW + 1)
        lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:3",
            "#EXT-X-TARGETDURATION:1",
            f"#EXT-X-MEDIA-SEQUENCE:{first}",
        ]
        for index in range(first, last + 1):
            lines += ["#EXTINF:1.000000,", f"seg{index:03d}.ts"]
        return ("\n".join(lines) + "\n").encode()

    def answer(self, path: str) -> tuple[bytes | None, str]:
        if path == "/live.m3u8":
            return self.playlist(), "application/vnd.apple.mpegurl"
        segment = self.folder / path.lstrip("/")
        if path.startswith("/seg") and path.endswith(".ts") and segment.is_file():
            return segment.read_bytes(), "video/mp2t"
        return None, "text/plain"

    def segments_asked(self) -> int:
        with self.lock:
            return len([path for path in self.asked if path.endswith(".ts")])

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def stream(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveStream]:
    folder = tmp_path_factory.mktemp("web-video-stream")
    served = LiveStream(folder, make_segments(folder))
    yield served
    served.stop()


@pytest.fixture
def live(stream: LiveStream) -> LiveStream:
    """The stream, moving from its start for this test."""
    stream.go_live()
    return stream


@pytest.fixture(scope="module")
def studio_server(tmp_path_factory: pytest.TempPathFactory, stream: LiveStream) -> Iterator[Served]:
    """A table the server deals and three studio tables: one with the live stream, one whose
    stream is not there, one without a stream; on a virtual clock, with a studio dealer."""
    folder = tmp_path_factory.mktemp("web-video")
    db_url = f"sqlite:///{folder / 'web.db'}"
    create_staff(db_url, DEALER, "dealer", DEALER_PASSWORD)
    streams = f"{STUDIO}={stream.origin}/live.m3u8,{MISSING}={stream.origin}/gone.m3u8"
    served = ServerProcess(
        db_url,
        folder,
        tables="standard,standard:studio,ez:studio,no-commission:studio",
        options=["--studio-streams", streams],
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=250,
        result_ms=1500,
        virtual_clock=True,
    ).start()
    yield served
    served.stop()


@pytest.fixture(scope="module")
def dealer(studio_server: Served) -> Iterator[StudioDealer]:
    """The studio table's dealer, a shoe started and burned."""
    seated = StudioDealer(studio_server, STUDIO, DEALER, DEALER_PASSWORD)
    yield seated
    seated.http.close()


# ---- the page -------------------------------------------------------------------------------


def until(page: Page, script: str, arg: Any = None, timeout_ms: int = WAIT_MS) -> Any:
    """Poll ``script`` (a function, evaluated in the page) until it returns something other than
    ``null``/``false``: that value. Playwright's ``wait_for_function`` evaluates a string,
    which the page's policy forbids (no 'unsafe-eval')."""
    return wait_until(
        lambda: page.evaluate(script, arg), timeout_ms / 1000, f"{script} ({arg})", step=0.1
    )


def video_state(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(VIDEO_STATE)
    return found


def wait_playing(page: Page, timeout_ms: int = WAIT_MS) -> dict[str, Any]:
    """Wait until the picture moves: its time advances by more than a second, notice gone."""
    page.wait_for_selector('.table-video[data-state="playing"]', timeout=timeout_ms)
    start = video_state(page)["time"]
    found: dict[str, Any] = until(
        page,
        f"() => {{ const s = ({VIDEO_STATE})(); return s.time > {start} + 1 && !s.notice && s; }}",
        timeout_ms=timeout_ms,
    )
    return found


def policy_context(browser: Browser, *, hls_js: bool, **options: Any) -> BrowserContext:
    """A context under the page's own policy (not bypassed), recording its violations."""
    context = browser.new_context(**{"viewport": DESKTOP, **options})
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(RECORD_VIOLATIONS)
    if hls_js:
        context.add_init_script(NO_NATIVE_HLS)
    return context


def watch(page: Page) -> tuple[Console, list[str]]:
    """The page's console errors, and every address it asks for."""
    console = Console()
    page.on("console", console.on_message)
    page.on("pageerror", console.on_error)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    return console, asked


def deal_studio_round(
    page: Page, served: Served, dealer: StudioDealer, bet: Callable[[], None] | None = None
) -> dict[str, Any]:
    """A round at the studio table, shown on the page: opened (``bet`` called while it takes
    bets), closed, its cards read at the console one by one, to its result; wait for the page
    to show the same cards and winner as the server. The table's view."""
    opened = dealer.open_round()
    page.wait_for_selector(f'.stage__round[data-round="{opened}"]')
    page.wait_for_selector('.stage__phase[data-phase="open"]')
    if bet is not None:
        bet()
    served.close_bets(STUDIO)
    dealer.deal()
    view = drive_to_result(served, opened, STUDIO)
    cards: dict[str, list[str]] = {"player": [], "banker": []}
    for card in sorted(view["cards"], key=lambda card: (card["hand"], card["position"])):
        cards[card["hand"]].append(card["card"])
    expected = {**cards, "winner": view["result"]["winner"]}
    same = json.dumps(json.dumps(expected, separators=(",", ":")))
    until(page, f"() => JSON.stringify(({FELT})()) === {same}")
    return view


def not_the_streams(console: Console) -> list[str]:
    """Console errors other than Chromium's own log of the missing stream's 404s."""
    return [text for text in console.unexpected() if "status of 404" not in text]


# ---- the video under the page's policy --------------------------------------------------------


@pytest.mark.parametrize("player", ["native", "hls.js"])
def test_the_video_plays_muted_stalls_to_a_notice_and_comes_back_while_the_game_goes_on(
    browser: Browser, studio_server: Served, dealer: StudioDealer, live: LiveStream, player: str
) -> None:
    context = policy_context(browser, hls_js=player == "hls.js")
    try:
        page = context.new_page()
        console, asked = watch(page)
        document = page.goto(f"{studio_server.url}/#/tables/{STUDIO}")
        assert document is not None
        # The policy: the stream's origin for media and for fetches, blob: for MediaSource.
        policy = dict(
            directive.split(" ", 1)
            for directive in document.headers["content-security-policy"].split("; ")
        )
        assert policy["media-src"] == f"'self' blob: {live.origin}"
        assert policy["connect-src"] == f"'self' ws: wss: {live.origin}"
        assert policy["script-src"] == "'self'" and policy["default-src"] == "'self'"

        # Plays, muted, inline, with the browser's HLS where it has one.
        native = page.evaluate(
            "document.createElement('video').canPlayType('application/vnd.apple.mpegurl') !== ''"
        )
        state = wait_playing(page)
        expected = "native" if native else "hls.js"
        assert state["player"] == expected
        assert state["muted"] and state["mutedAttribute"] and state["inline"] and state["autoplay"]
        assert live.segments_asked() >= 2
        vendored = [url for url in asked if url.endswith("/static/vendor/hls.min.mjs")]
        assert len(vendored) == (1 if expected == "hls.js" else 0), vendored
        latency = page.inner_text(".table-video__latency")
        assert latency == (
            "Video may run a few seconds behind the cards; the cards and results come from the table."
        )
        assert page.get_attribute(".table-video", "aria-label") == "Table video"

        # The sound: the button after the felt's last action, by the keyboard.
        page.focus('[data-action="double"]')
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "document.activeElement.matches('.table-video__sound') && document.activeElement.textContent"
        )
        assert focused == "Unmute"
        page.keyboard.press("Enter")
        until(page, f"() => !({VIDEO_STATE})().muted")
        assert page.inner_text(".table-video__sound") == "Mute"
        assert page.get_by_role("button", name="Mute", exact=True).is_visible()
        assert not video_state(page)["paused"]

        # The stream freezes: the notice over the video, and a round dealt to its result.
        live.freeze()
        page.wait_for_selector(".table-video__notice:not([hidden])", timeout=STALL_WAIT_MS)
        assert page.inner_text(".table-video__notice") == "Video unavailable — the game goes on"
        assert page.get_attribute(".table-video", "data-state") == "unavailable"
        notice = page.eval_on_selector(
            ".table-video__notice",
            """(el) => { const n = el.getBoundingClientRect();
                 const f = el.closest('.table-video__frame').getBoundingClientRect();
                 return n.top >= f.top && n.bottom <= f.bottom && n.left >= f.left
                   && n.right <= f.right; }""",
        )
        assert notice, "the notice lies over the video"
        deal_studio_round(page, studio_server, dealer)
        assert video_state(page)["notice"], "the notice stays while the stream is frozen"
        assert page.is_visible(".table-video__notice")

        # Back: the picture moves again and the notice goes, with no reload.
        live.resume()
        wait_playing(page, BACK_WAIT_MS)
        deal_studio_round(page, studio_server, dealer)
        violations = page.evaluate("window.__violations")
    finally:
        context.close()
    assert violations == []
    assert console.unexpected() == []


def test_a_stream_that_is_not_there_shows_the_notice_and_the_game_goes_on(
    browser: Browser, studio_server: Served, live: LiveStream
) -> None:
    context = policy_context(browser, hls_js=False)
    try:
        page = context.new_page()
        console, _ = watch(page)
        page.goto(f"{studio_server.url}/#/tables/{MISSING}")
        page.wait_for_selector(".table-video__notice:not([hidden])", timeout=STALL_WAIT_MS)
        assert page.get_attribute(".table-video", "data-state") == "unavailable"
        # The rest of the table is there: its card area and its spots, from the feed.
        assert page.is_visible(".stage") and page.locator(".bets .spot").count() > 0
        violations = page.evaluate("window.__violations")
    finally:
        context.close()
    assert violations == []
    assert not_the_streams(console) == []


@pytest.mark.parametrize("table", ["standard", SILENT])
def test_nothing_of_the_video_without_a_studio_stream(
    browser: Browser, studio_server: Served, table: str
) -> None:
    # hls.js would be the page's way here (as in a browser without its own HLS).
    context = policy_context(browser, hls_js=True)
    try:
        page = context.new_page()
        console, asked = watch(page)
        page.goto(f"{studio_server.url}/#/tables/{table}")
        page.wait_for_selector(".bets .spot")
        page.wait_for_selector(".stage__phase[data-phase]")
        page.wait_for_load_state("networkidle")
        shown = page.evaluate(
            """() => ({
                 section: document.querySelector('.table-video')?.checkVisibility() ?? false,
                 hasVideo: document.querySelector('.table-view').classList.contains('has-video'),
                 source: document.querySelector('video')?.getAttribute('src') ?? null,
               })"""
        )
        assert shown == {"section": False, "hasVideo": False, "source": None}
        # Neither the video's module nor hls.js is fetched.
        assert not [url for url in asked if "/vendor/" in url or url.endswith("/js/video.js")]
        violations = page.evaluate("window.__violations")
    finally:
        context.close()
    assert violations == []
    assert console.unexpected() == []


# ---- languages and axe ------------------------------------------------------------------------


def catalogue(page: Page, language: str) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        "async (lang) => (await import(`/static/js/messages/${lang}.js`)).default", language
    )
    return {key: value for key, value in found.items() if key.startswith("video.")}


def video_words(page: Page) -> dict[str, str | None]:
    found: dict[str, str | None] = page.evaluate(
        """() => ({
             label: document.querySelector('.table-video').getAttribute('aria-label'),
             sound: document.querySelector('.table-video__sound').textContent,
             toggle: document.querySelector('.table-video__toggle').textContent,
             latency: document.querySelector('.table-video__latency').textContent,
             notice: document.querySelector('.table-video__notice').textContent,
           })"""
    )
    return found


def start_axe(page: Page, viewport: ViewportSize) -> None:
    """axe at this size, each gradient painted as its worst stop first (as test_web_axe runs it;
    text on a gradient's worst stop is reported there, not failed, and so here)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    page.set_viewport_size(viewport)
    page.evaluate(
        f"""() => new Promise(requestAnimationFrame).then(() => {{
             const undo = ({SOLID})();
             const onGradient = {ON_GRADIENT};
             window.__axe = axe.run(document, {{ resultTypes: ["violations"] }})
               .then((result) => result.violations.flatMap((v) => {{
                 const nodes = v.id === "color-contrast"
                   ? v.nodes.filter((n) => !onGradient(document.querySelector(n.target[0])))
                   : v.nodes;
                 return nodes.length ? [{{ id: v.id, impact: v.impact,
                   nodes: nodes.map((n) => n.target.join(" ")) }}] : [];
               }}))
               .finally(undo);
           }})"""
    )


def serious(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("async () => await window.__axe")
    return [v for v in found if v["impact"] in {"serious", "critical"}]


def test_both_languages_and_no_serious_axe_violation(
    open_page: Opener, studio_server: Served, live: LiveStream
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make install)")
    url = f"{studio_server.url}/#/tables/{STUDIO}"
    pages = {
        language: open_page(url, viewport=DESKTOP, locale=locale)
        for language, locale in (("en", "en-US"), ("id", "id-ID"))
    }
    for page, _ in pages.values():
        wait_playing(page)
    english = catalogue(pages["en"][0], "en")
    for language, (page, _) in pages.items():
        words = catalogue(page, language)
        assert video_words(page) == {
            "label": words["video.label"],
            "sound": words["video.unmute"],
            "toggle": words["video.hide"],
            "latency": words["video.latency"],
            "notice": words["video.unavailable"],
        }
        if language == "id":
            assert words["video.latency"] == (
                "Video bisa tertinggal beberapa detik dari kartu; kartu dan hasil tetap berasal"
                " dari meja."
            )
            assert words["video.unavailable"] == "Video tidak tersedia — permainan tetap berjalan"
            shown = page.inner_text("main")
            assert not [text for key, text in english.items() if text in shown], shown

    found: dict[str, list[dict[str, Any]]] = {}

    def axe_everywhere(state: str) -> None:
        for size, viewport in SIZES.items():
            for page, _ in pages.values():
                start_axe(page, viewport)
            for language, (page, _) in pages.items():
                found[f"{state} / {language} / {size}"] = serious(page)
        for page, _ in pages.values():
            page.set_viewport_size(DESKTOP)

    axe_everywhere("playing")
    live.freeze()
    for language, (page, _) in pages.items():
        page.wait_for_selector(".table-video__notice:not([hidden])", timeout=STALL_WAIT_MS)
        assert page.is_visible(".table-video__notice")
        if language == "id":
            assert page.inner_text(".table-video__notice") == (
                "Video tidak tersedia — permainan tetap berjalan"
            )
    axe_everywhere("notice")
    # The sound on, and the video hidden (the player's own way to stop a moving picture).
    for language, (page, _) in pages.items():
        page.click(".table-video__sound")
        page.wait_for_function("!document.querySelector('.table-video video').muted")
        assert page.inner_text(".table-video__sound") == catalogue(page, language)["video.mute"]
        page.click(".table-video__toggle")
        page.wait_for_selector('.table-video[data-state="hidden"]')
        assert not page.is_visible(".table-video__frame")
        assert page.get_attribute(".table-video video", "src") is None
    axe_everywhere("hidden")
    for page, _ in pages.values():
        page.click(".table-video__toggle")  # shown again: the next tests start with it shown
        page.wait_for_selector('.table-video:not([data-state="hidden"])')
    assert {where: v for where, v in found.items() if v} == {}
    for _, console in pages.values():
        assert console.unexpected() == []


# ---- layout and screenshots -------------------------------------------------------------------

BOXES = """() => {
  const box = (selector) => {
    const r = document.querySelector(selector).getBoundingClientRect();
    return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right};
  };
  return {video: box('.table-video'), frame: box('.table-video__frame'), felt: box('.table-view__felt'),
          stage: box('.stage'), bets: box('.bets-area'), roads: box('.table-view__roads'),
          details: box('.table-view__details'), topbar: box('.topbar'), bar: box('.table-video__bar'),
          main: box('.bets__row--main')};
}"""


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or a["bottom"] <= b["top"]
        or b["bottom"] <= a["top"]
    )


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_layout_beside_the_cards_and_the_screenshots(
    open_page: Opener, studio_server: Served, dealer: StudioDealer, live: LiveStream, size: str
) -> None:
    viewport = SIZES[size]
    phone = size == "phone"
    page, console = open_page(
        f"{studio_server.url}/",
        viewport=viewport,
        reduced_motion="reduce",
        **({"device_scale_factor": 2, "is_mobile": True, "has_touch": True} if phone else {}),
    )
    table = TablePage(page)
    page.wait_for_selector(".lobby-card")
    table.join()
    table.open_table(STUDIO)
    wait_playing(page)

    def bet() -> None:
        table.chip(1000)
        table.bet("player")
        table.chip(500)
        table.bet("tie")
        table.wait_stakes({"player": 1000, "tie": 500})

    deal_studio_round(page, studio_server, dealer, bet)
    wait_still(page)
    page.evaluate("window.scrollTo(0, 0)")
    boxes = page.evaluate(BOXES)
    no_sideways_scroll(page)
    video, felt = boxes["video"], boxes["felt"]
    assert video["left"] >= 0 and video["right"] <= viewport["width"], boxes
    for other in ("felt", "stage", "bets", "roads", "details", "topbar"):
        assert apart(video, boxes[other]), (other, boxes)
    # A 16:9 picture, and a sensible size.
    frame = boxes["frame"]
    width, height = frame["right"] - frame["left"], frame["bottom"] - frame["top"]
    assert abs(width / height - 16 / 9) < 0.02, frame
    if phone:
        # Over the cards, its buttons and note beside it: the main bets still on the first
        # screen.
        assert video["bottom"] <= felt["top"], boxes
        assert width >= viewport["width"] * 0.5, frame
        assert apart(frame, boxes["bar"]) and boxes["bar"]["left"] >= frame["right"], boxes
        assert boxes["main"]["bottom"] <= viewport["height"], boxes
    else:
        # Beside the cards: level with the felt's top, the roads right under it.
        assert video["left"] >= felt["right"], boxes
        assert abs(video["top"] - felt["top"]) <= 1, boxes
        assert 0 < boxes["roads"]["top"] - video["bottom"] <= 20, boxes
        assert width >= 300, frame
        # The cards keep their size beside it.
        card = page.evaluate(
            "document.querySelector('.hand__cards .card .card__inner').offsetWidth"
        )
        assert card >= 100, f"a card is {card}px wide at 1440×900"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"studio-{size}.png")
    assert console.unexpected() == []


# ---- without a browser --------------------------------------------------------------------------


def test_the_vendored_hls_js_is_the_pinned_package() -> None:
    if not NODE_HLS.exists():
        if services_required():
            pytest.fail(f"{NODE_HLS} is required: run `npm ci` (make install)")
        pytest.skip("no node_modules: run `npm ci` (make install)")
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
    installed = json.loads((NODE_HLS / "package.json").read_text(encoding="utf-8"))
    locked = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    # An exact version: the copy is of one release.
    assert pinned["hls.js"] == installed["version"], "run `npm ci`, then `make vendor`"
    assert locked["packages"]["node_modules/hls.js"]["version"] == pinned["hls.js"]
    assert installed["license"] == "Apache-2.0"
    assert VENDORED.read_bytes() == (NODE_HLS / "dist" / "hls.min.mjs").read_bytes(), (
        "the vendored hls.js is not the pinned one: run `make vendor`"
    )
    licence = STATIC_DIR / "vendor" / "hls.js.LICENSE"
    assert licence.read_bytes() == (NODE_HLS / "LICENSE").read_bytes()
    assert "Apache License, Version 2.0" in licence.read_text(encoding="utf-8")


def test_the_page_names_the_vendored_module_which_fetches_only_what_it_is_given() -> None:
    module = (STATIC_DIR / "js" / "video.js").read_text(encoding="utf-8")
    assert 'new URL("../vendor/hls.min.mjs", import.meta.url)' in module
    # Its only absolute URLs are identifiers (a TTML namespace, an emsg scheme), never fetched.
    named = set(re.findall(r"(?:https?|wss?)://[^\s\"'`]+", VENDORED.read_text(encoding="utf-8")))
    assert named <= {"http://www.w3.org/ns/ttml#styling", "https://aomedia.org/emsg/ID3"}, named


def test_the_policy_allows_the_streams_origins_and_no_more(tmp_path: Path) -> None:
    def policy(streams: dict[str, str]) -> dict[str, str]:
        config = Settings(
            db=f"sqlite:///{tmp_path / 'csp.db'}",
            tables=tables_from(["standard", "standard:studio", "ez:studio"], streams=streams),
        )
        # Without entering the client the app's lifespan does not start: the headers are all.
        header = TestClient(create_app(config)).get("/").headers["content-security-policy"]
        return dict(directive.split(" ", 1) for directive in header.split("; "))

    two = policy(
        {STUDIO: "https://cdn.example/a/t1.m3u8", MISSING: "http://media.example:8080/t2.m3u8"}
    )
    assert two["media-src"] == "'self' blob: http://media.example:8080 https://cdn.example"
    assert two["connect-src"] == "'self' ws: wss: http://media.example:8080 https://cdn.example"
    same = dict(directive.split(" ", 1) for directive in CSP.split("; "))
    widened = ("media-src", "connect-src")
    assert {k: v for k, v in two.items() if k not in widened} == {
        k: v for k, v in same.items() if k not in widened
    }
    # A stream on this server: media from 'self' and blob:, fetches as before.
    path = policy({STUDIO: "/video/t1.m3u8"})
    assert path["media-src"] == "'self' blob:"
    assert path["connect-src"] == same["connect-src"]
    # No stream: the policy as ever.
    assert policy({}) == same
    # An address the policy could not name is refused with the options, before anything runs.
    with pytest.raises(ValidationError, match="a video stream's address is an http"):
        Settings(tables="standard:studio", studio_streams=f"{STUDIO}=https://a;b/t1.m3u8")
