// @ts-check
// The video of a studio table, beside the cards: its HLS stream, muted until the player turns
// the sound on. It is a picture of the dealer and nothing more: the cards, the results and the
// bets come from the table's feed, never from the video, which may run a few seconds behind
// them (the page says so). The browser's own HLS where it has one, hls.js otherwise: fetched
// from this server (static/vendor) only when a studio table with a stream is shown. When the
// picture stops moving (no progress for a few seconds while it should play: the element
// `waiting` or `stalled`, or the stream silent) or the stream fails (the element's `error`,
// an hls.js fatal error, the stream ended), a notice lies over the video and the stream is
// started again quietly, less often each time, until the picture moves steadily again.

import { announce, h } from "./dom.js";
import { t } from "./i18n.js";

const HLS_TYPE = "application/vnd.apple.mpegurl";
/** The vendored hls.js (an ES module), beside this page's modules. */
const HLS_MODULE = new URL("../vendor/hls.min.mjs", import.meta.url).href;
/** No picture this long after a start: the stream is unavailable. */
const START_MS = 10_000;
/** No progress this long while it should play: stalled. */
const STALL_MS = 4_000;
/** Moving this long without a stall after the notice showed: the video is back. */
const STEADY_MS = 6_000;
/** The waits before each new start; the last one repeats. */
const RETRY_MS = [2_000, 4_000, 8_000, 15_000];
const TICK_MS = 500;

/**
 * The little of hls.js this module uses.
 * @typedef {object} HlsPlayer
 * @property {(url: string) => void} loadSource
 * @property {(media: HTMLMediaElement) => void} attachMedia
 * @property {(name: string, listener: (name: string, data: {fatal?: boolean}) => void) => void} on
 * @property {() => void} destroy
 */
/** @typedef {{new (config: Record<string, unknown>): HlsPlayer, isSupported(): boolean, Events: {ERROR: string}}} Hls */

// Chosen once for the page: a player who turned the sound on (or hid the video) keeps that at
// the next studio table and after a language switch, which mounts the table again.
let soundOn = false;
let videoHidden = false;

/** @type {Promise<Hls> | null} */
let hlsLoading = null;

/**
 * hls.js, fetched the first time it is needed (again after a failed fetch).
 * @returns {Promise<Hls>}
 */
function loadHls() {
  hlsLoading ??= import(HLS_MODULE).then(
    (module) => module.default,
    (error) => {
      hlsLoading = null;
      throw error;
    },
  );
  return hlsLoading;
}

/** The browser plays HLS itself. */
function nativeHls() {
  return document.createElement("video").canPlayType(HLS_TYPE) !== "";
}

/**
 * A studio table's video; returns {el, show(url), destroy()}. `show(url)` plays that stream
 * (again only when it changes), `show(null)` hides everything.
 */
export function tableVideo() {
  const video = h("video", {
    class: "table-video__player",
    muted: true,
    autoplay: true,
    playsinline: true,
    disablepictureinpicture: true,
    disableremoteplayback: true,
  });
  video.muted = true;
  video.playsInline = true;
  const notice = h("p", { class: "table-video__notice", hidden: true }, t("video.unavailable"));
  const soundText = h("span", { class: "btn__text" });
  const sound = h(
    "button",
    { type: "button", class: "btn btn--small table-video__sound", onclick: () => setSound(!soundOn) },
    // The icon is drawn by CSS: the button's name is its words alone.
    h("span", { class: "btn__icon", "aria-hidden": "true", dataset: { icon: "♪" } }),
    soundText,
  );
  const toggle = h("button", {
    type: "button",
    class: "btn btn--small btn--ghost table-video__toggle",
    onclick: () => setHidden(!videoHidden),
  });
  const frame = h("div", { class: "table-video__frame" }, video, notice);
  const latency = h("p", { class: "table-video__latency" }, t("video.latency"));
  const el = h(
    "section",
    { class: "table-video table-view__video", "aria-label": t("video.label"), hidden: true },
    frame,
    h("div", { class: "table-video__bar" }, sound, toggle),
    latency,
  );

  /** @type {string | null} */
  let url = null;
  /** @type {HlsPlayer | null} */
  let hls = null;
  // Each start has a number: what an older start left behind (hls.js arriving late, an
  // element's event from a stream torn down) is ignored.
  let generation = 0;
  let active = false;
  let failing = false;
  let retries = 0;
  let lastTime = -1;
  let moved = false;
  // When "no progress" began to count (the start, the last progress, a pause or hidden tab).
  let quietSince = 0;
  /** @type {number | null} */
  let steadySince = null;
  /** @type {number | undefined} */
  let tick;
  /** @type {number | undefined} */
  let retryTimer;

  function label() {
    soundText.textContent = t(soundOn ? "video.mute" : "video.unmute");
    toggle.textContent = t(videoHidden ? "video.show" : "video.hide");
    frame.hidden = videoHidden;
    sound.hidden = videoHidden;
    latency.hidden = videoHidden;
  }

  /** @param {string} state  loading, playing, unavailable, hidden or off */
  function setState(state) {
    el.dataset.state = state;
  }

  function play() {
    video.muted = !soundOn;
    video.play().catch((/** @type {DOMException} */ error) => {
      // Refused with sound (the page has had no gesture yet): muted, as it starts for all.
      if (error?.name !== "NotAllowedError" || video.muted) return;
      soundOn = false;
      video.muted = true;
      label();
      video.play().catch(() => {});
    });
  }

  function start() {
    stop();
    if (url === null || videoHidden) return;
    const mine = generation;
    const source = url;
    active = true;
    moved = false;
    lastTime = -1;
    quietSince = performance.now();
    setState(failing ? "unavailable" : "loading");
    tick = window.setInterval(watch, TICK_MS);
    if (nativeHls()) {
      el.dataset.player = "native";
      video.src = source;
      play();
      return;
    }
    el.dataset.player = "hls.js";
    loadHls().then(
      (Hls) => {
        if (mine !== generation) return;
        if (!Hls.isSupported()) {
          fail();
          return;
        }
        // No worker: hls.js would start one from a blob: URL, which the page's policy refuses.
        const player = new Hls({ enableWorker: false, backBufferLength: 30 });
        hls = player;
        player.on(Hls.Events.ERROR, (_name, data) => {
          if (data?.fatal && mine === generation) fail();
        });
        player.loadSource(source);
        player.attachMedia(video);
        play();
      },
      () => {
        if (mine === generation) fail();
      },
    );
  }

  /** Tear the stream down (the picture goes); nothing is retried from here. */
  function stop() {
    generation += 1;
    active = false;
    window.clearInterval(tick);
    window.clearTimeout(retryTimer);
    hls?.destroy();
    hls = null;
    if (video.hasAttribute("src")) {
      video.removeAttribute("src");
      video.load();
    }
  }

  /** The stream stalled or failed: the notice, and a new start a little later. */
  function fail() {
    if (!active) return;
    stop();
    if (!failing) {
      failing = true;
      notice.hidden = false;
      announce(t("video.unavailable"));
    }
    setState("unavailable");
    steadySince = null;
    const wait = RETRY_MS[Math.min(retries, RETRY_MS.length - 1)];
    retries += 1;
    retryTimer = window.setTimeout(start, wait);
  }

  /** Watches the picture: progress, or how long it has been still while it should play. */
  function watch() {
    if (!active) return;
    const now = performance.now();
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.currentTime !== lastTime) {
      // The first reading of a start is where it begins, not progress.
      if (lastTime >= 0) progress(now);
      lastTime = video.currentTime;
      return;
    }
    // Paused (autoplay refused, the system's media controls) or in a hidden tab: not stalled.
    if (video.paused || document.hidden) {
      quietSince = now;
      steadySince = null;
      return;
    }
    if (now - quietSince > (moved ? STALL_MS : START_MS)) fail();
    else if (now - quietSince > TICK_MS * 2) steadySince = null;
  }

  /** @param {number} now */
  function progress(now) {
    moved = true;
    quietSince = now;
    if (!failing) {
      setState("playing");
      return;
    }
    steadySince ??= now;
    if (now - steadySince >= STEADY_MS) {
      failing = false;
      retries = 0;
      steadySince = null;
      notice.hidden = true;
      setState("playing");
    }
  }

  /** @param {boolean} on */
  function setSound(on) {
    soundOn = on;
    video.muted = !on;
    // A click is a gesture: the browser lets it play with sound (and starts a refused autoplay).
    if (active) video.play().catch(() => {});
    label();
  }

  /** @param {boolean} hide */
  function setHidden(hide) {
    videoHidden = hide;
    label();
    if (hide) {
      stop();
      failing = false;
      retries = 0;
      notice.hidden = true;
      setState("hidden");
    } else start();
  }

  // The element's own events: each is looked at now rather than at the next tick.
  video.addEventListener("timeupdate", watch);
  video.addEventListener("waiting", watch);
  video.addEventListener("stalled", watch);
  video.addEventListener("error", () => {
    if (active && video.error) fail();
  });
  video.addEventListener("ended", () => {
    // A studio's stream has no end: one that ends has stopped.
    if (active) fail();
  });
  video.addEventListener("volumechange", () => {
    if (soundOn === video.muted) {
      soundOn = !video.muted;
      label();
    }
  });
  function visible() {
    if (!document.hidden && active) {
      quietSince = performance.now();
      if (video.paused) play();
    }
  }
  document.addEventListener("visibilitychange", visible);
  label();

  return {
    el,
    /** @param {string | null} next  the table's stream, or null */
    show(next) {
      if (next === url) return;
      url = next;
      failing = false;
      retries = 0;
      notice.hidden = true;
      el.hidden = url === null;
      if (url === null) {
        stop();
        setState("off");
      } else if (videoHidden) setState("hidden");
      else start();
    },
    destroy() {
      url = null;
      stop();
      document.removeEventListener("visibilitychange", visible);
    },
  };
}
