// @ts-check
// The squeeze at a face-down table, loaded only there. The player with the largest stake on a
// hand squeezes its cards: they peel the card's back from a corner or a side (pointer, touch or
// keyboard) and turn it; everyone else watches the same peel. The peel uncovers only the card's
// blank underside: the card itself arrives with its `card` event, never before. The page may
// also keep every card covered on this screen until the player peels it (a local choice).

import { msUntil } from "./clock.js";
import { h, reducedMotion } from "./dom.js";
import { secondsLeft } from "./format.js";
import { has, t } from "./i18n.js";

/** Released past this far, the peel turns the card; before it, the card springs back. */
export const TURN_AT = 0.6;
/** The least time between two peel messages (the server also limits them). */
export const PEEL_EVERY_MS = 100;
const STORE_KEY = "baccarat.squeezeAll";
const STEP = 0.1;
const SPRING_MS = 220;
const CORNERS = ["top-left", "top-right", "bottom-left", "bottom-right"];
/** @type {Record<string, string>} the edge an arrow key peels from */
const ARROW_EDGES = { ArrowUp: "bottom", ArrowDown: "top", ArrowLeft: "right", ArrowRight: "left" };

/**
 * @typedef {{hand: string, position: number, round_id: number}} Place
 * @typedef {{x: number, y: number}} Point
 */

/**
 * The clip of the card's back and the folded flap (its blank underside) for a peel from `edge`
 * as far as `progress` (0 to 1), as CSS polygons in the card's own percentages.
 * @param {string} edge  a corner ("bottom-right", ...) or a side ("bottom", ...)
 * @param {number} progress
 * @returns {{back: string, flap: string}}
 */
export function peelShapes(edge, progress) {
  const p = Math.min(1, Math.max(0, Number(progress) || 0));
  const corner = CORNERS.includes(edge);
  // Drawn for the bottom-right corner or the bottom side, then turned to the edge asked.
  const s = corner ? p * 70 : p * 45;
  /** @type {[number, number][]} */
  const back = corner
    ? [
        [0, 0],
        [100, 0],
        [100, 100 - s],
        [100 - s, 100],
        [0, 100],
      ]
    : [
        [0, 0],
        [100, 0],
        [100, 100 - s],
        [0, 100 - s],
      ];
  /** @type {[number, number][]} */
  const flap = corner
    ? [
        [100 - s, 100],
        [100, 100 - s],
        [100 - s, 100 - s],
      ]
    : [
        [0, 100 - 2 * s],
        [100, 100 - 2 * s],
        [100, 100 - s],
        [0, 100 - s],
      ];
  const swap = edge === "left" || edge === "right";
  const flipX = edge.endsWith("left") || edge === "left";
  const flipY = edge.startsWith("top");
  /** @param {[number, number][]} points */
  const polygon = (points) =>
    `polygon(${points
      .map(([x0, y0]) => {
        let [x, y] = swap ? [y0, x0] : [x0, y0];
        if (flipX) x = 100 - x;
        if (flipY) y = 100 - y;
        return `${+x.toFixed(2)}% ${+y.toFixed(2)}%`;
      })
      .join(", ")})`;
  return { back: polygon(back), flap: polygon(flap) };
}

/**
 * Where a grip at (u, v) in the card (0 to 1 across, 0 to 1 down) takes it: a corner near one,
 * else the nearest side.
 * @param {number} u
 * @param {number} v
 * @returns {string}
 */
export function edgeAt(u, v) {
  const nearX = u < 0.35 ? "left" : u > 0.65 ? "right" : "";
  const nearY = v < 0.3 ? "top" : v > 0.7 ? "bottom" : "";
  if (nearX && nearY) return `${nearY}-${nearX}`;
  const sides = { left: u, right: 1 - u, top: v, bottom: 1 - v };
  return /** @type {string} */ (Object.entries(sides).sort((a, b) => a[1] - b[1])[0][0]);
}

/**
 * How far a drag `delta` (pixels) from `edge` peels a card `size` big: along the way into the
 * card, as a share of the card's height.
 * @param {string} edge
 * @param {Point} delta
 * @param {{width: number, height: number}} size
 * @returns {number}
 */
export function dragProgress(edge, delta, size) {
  const into = {
    x: edge.endsWith("left") ? 1 : edge.endsWith("right") ? -1 : 0,
    y: edge.startsWith("top") ? 1 : edge.startsWith("bottom") ? -1 : 0,
  };
  const length = Math.hypot(into.x, into.y) || 1;
  const along = (delta.x * into.x + delta.y * into.y) / length;
  const reach = Math.max(1, (CORNERS.includes(edge) ? 0.6 : 0.45) * Math.max(size.height, size.width));
  return Math.min(1, Math.max(0, along / reach));
}

/**
 * Draw a peel on a card slot (0: flat again).
 * @param {HTMLElement} slot
 * @param {string | null | undefined} edge
 * @param {number} progress
 */
export function drawPeel(slot, edge, progress) {
  const inner = slot.querySelector(".card__inner");
  if (!inner) return;
  let flap = /** @type {HTMLElement | null} */ (inner.querySelector(".squeeze-flap"));
  if (!edge || progress <= 0) {
    slot.classList.remove("card--peeling");
    slot.style.removeProperty("--peel-back");
    flap?.remove();
    delete slot.dataset.peel;
    return;
  }
  if (!flap) {
    flap = h("span", { class: "squeeze-flap", "aria-hidden": "true" });
    inner.append(flap);
  }
  const shapes = peelShapes(edge, progress);
  slot.classList.add("card--peeling");
  slot.style.setProperty("--peel-back", shapes.back);
  flap.style.setProperty("--peel-flap", shapes.flap);
  slot.dataset.peel = `${edge} ${progress.toFixed(2)}`;
}

/**
 * A card the player peels by hand: pointer (mouse, pen, touch) and keyboard. `moved` hears
 * each new peel; `turn` is called once the player turns it; `release` says whether to spring
 * back (true) before turning.
 * @param {HTMLElement} slot
 * @param {string} label
 * @param {{moved: (edge: string, progress: number) => void, turn: () => void}} on
 * @returns {{stop(): void}}
 */
function peelable(slot, label, on) {
  let edge = "bottom-right";
  let progress = 0;
  /** @type {{id: number, start: Point} | null} */
  let grip = null;
  let done = false;
  /** @type {number | undefined} */
  let spring;
  const oldRole = slot.getAttribute("role");
  const oldLabel = slot.getAttribute("aria-label");
  slot.classList.add("card--mine");
  slot.setAttribute("tabindex", "0");
  slot.setAttribute("role", "button");
  slot.setAttribute("aria-label", label);

  /** @param {number} next */
  function set(next) {
    progress = Math.min(1, Math.max(0, next));
    drawPeel(slot, edge, progress);
    on.moved(edge, progress);
  }
  function turn() {
    if (done) return;
    done = true;
    set(1);
    on.turn();
  }
  function springBack() {
    window.cancelAnimationFrame(spring ?? 0);
    if (reducedMotion() || progress <= 0) {
      set(0);
      return;
    }
    const from = progress;
    const start = performance.now();
    const step = (/** @type {number} */ now) => {
      const k = Math.min(1, (now - start) / SPRING_MS);
      set(from * (1 - k) * (1 - k));
      if (k < 1 && !done) spring = window.requestAnimationFrame(step);
    };
    spring = window.requestAnimationFrame(step);
  }
  /** @param {PointerEvent} event */
  function down(event) {
    if (done || grip) return;
    window.cancelAnimationFrame(spring ?? 0);
    const box = slot.getBoundingClientRect();
    edge = edgeAt((event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height);
    grip = { id: event.pointerId, start: { x: event.clientX, y: event.clientY } };
    slot.setPointerCapture?.(event.pointerId);
    slot.classList.add("is-gripped");
    event.preventDefault();
  }
  /** @param {PointerEvent} event */
  function move(event) {
    if (!grip || event.pointerId !== grip.id) return;
    const box = slot.getBoundingClientRect();
    const delta = { x: event.clientX - grip.start.x, y: event.clientY - grip.start.y };
    set(dragProgress(edge, delta, box));
  }
  /** @param {PointerEvent} event */
  function up(event) {
    if (!grip || event.pointerId !== grip.id) return;
    grip = null;
    slot.classList.remove("is-gripped");
    if (event.type === "pointerup" && progress >= TURN_AT) turn();
    else springBack();
  }
  /** @param {KeyboardEvent} event */
  function key(event) {
    if (done) return;
    const arrow = ARROW_EDGES[event.key];
    if (arrow) {
      if (arrow !== edge) {
        edge = arrow;
        progress = 0;
      }
      set(progress + STEP);
    } else if (event.key === "Enter" || event.key === " ") turn();
    else if (event.key === "Escape") springBack();
    else return;
    event.preventDefault();
  }
  slot.addEventListener("pointerdown", down);
  slot.addEventListener("pointermove", move);
  slot.addEventListener("pointerup", up);
  slot.addEventListener("pointercancel", up);
  slot.addEventListener("keydown", key);
  return {
    stop() {
      window.cancelAnimationFrame(spring ?? 0);
      slot.removeEventListener("pointerdown", down);
      slot.removeEventListener("pointermove", move);
      slot.removeEventListener("pointerup", up);
      slot.removeEventListener("pointercancel", up);
      slot.removeEventListener("keydown", key);
      slot.classList.remove("card--mine", "is-gripped");
      slot.removeAttribute("tabindex");
      if (oldRole) slot.setAttribute("role", oldRole);
      if (oldLabel) slot.setAttribute("aria-label", oldLabel);
    },
  };
}

/** Whether this page keeps every card covered until the player peels it. */
function squeezeAll() {
  try {
    return window.localStorage.getItem(STORE_KEY) === "1";
  } catch {
    return false;
  }
}

/**
 * The squeeze of one table's page.
 * @param {{slot: (side: string, position: number) => HTMLElement, send: (message: object) => boolean, say: (text: string) => void}} deps
 */
export function squeezeView({ slot, send, say }) {
  if (!document.querySelector('link[href="/static/css/squeeze.css"]'))
    document.head.append(h("link", { rel: "stylesheet", href: "/static/css/squeeze.css" }));
  const who = h("span", { class: "squeeze-bar__who" }, "");
  const fill = h("span", { class: "squeeze-bar__fill" });
  const seconds = h("span", { class: "squeeze-bar__seconds" }, "");
  const bar = h(
    "div",
    { class: "squeeze-bar", role: "timer", hidden: true },
    who,
    h("span", { class: "squeeze-bar__track", "aria-hidden": "true" }, fill),
    seconds,
  );
  const toggle = h("input", { type: "checkbox", class: "squeeze-own__box" });
  toggle.checked = squeezeAll();
  toggle.addEventListener("change", () => {
    try {
      window.localStorage.setItem(STORE_KEY, toggle.checked ? "1" : "0");
    } catch {
      // Remembered for this visit only.
    }
    if (!toggle.checked) uncover();
  });
  const el = h(
    "div",
    { class: "squeeze" },
    bar,
    h("label", { class: "squeeze-own", title: t("squeeze.own_title") }, toggle, h("span", {}, t("squeeze.own"))),
  );

  /** @type {(Place & {deadline: number, total: number, mine: boolean}) | null} */
  let current = null;
  /** @type {{stop(): void} | null} */
  let grip = null;
  /** @type {number | undefined} */
  let throttle;
  let lastSent = 0;
  /** @type {{edge: string, progress: number} | null} */
  let pending = null;
  /** @type {Map<string, {show: () => void, grip: {stop(): void}}>} cards kept covered on this screen */
  const held = new Map();

  function tick() {
    if (!current) return;
    const left = Math.max(0, msUntil(current.deadline));
    fill.style.setProperty("--left", String(current.total > 0 ? Math.min(1, left / current.total) : 0));
    seconds.textContent = t("squeeze.seconds", { count: secondsLeft(left) });
  }
  const ticker = window.setInterval(tick, 200);

  function flush() {
    throttle = undefined;
    if (!current?.mine || !pending) return;
    lastSent = performance.now();
    const { edge, progress } = pending;
    pending = null;
    send({ type: "peel", round_id: current.round_id, hand: current.hand, position: current.position, edge, progress });
  }
  /**
   * @param {string} edge
   * @param {number} progress
   */
  function peeled(edge, progress) {
    pending = { edge, progress: Math.round(progress * 1000) / 1000 };
    if (throttle !== undefined) return;
    const wait = Math.max(0, PEEL_EVERY_MS - (performance.now() - lastSent));
    throttle = window.setTimeout(flush, wait);
  }

  function endSqueeze() {
    grip?.stop();
    grip = null;
    window.clearTimeout(throttle);
    throttle = undefined;
    pending = null;
    current = null;
    bar.hidden = true;
  }

  /**
   * Show every card kept covered on this screen (the hand's result is out, or the choice off).
   */
  function uncover() {
    const waiting = [...held.values()];
    held.clear();
    for (const card of waiting) {
      card.grip.stop();
      card.show();
    }
  }

  /**
   * A squeeze begins (the `squeeze` event, or a snapshot's squeeze).
   * @param {{round_id: number, hand: string, position: number, squeezer?: string | null, deadline_ms?: number | null, yours?: boolean, edge?: string | null, progress?: number}} event
   */
  function begin(event) {
    endSqueeze();
    const mine = event.yours === true;
    const deadline = Number(event.deadline_ms);
    current = {
      round_id: event.round_id,
      hand: event.hand,
      position: event.position,
      deadline,
      total: Math.max(0, msUntil(deadline)),
      mine,
    };
    const card = slot(event.hand, event.position);
    const side = t(`side.${event.hand}`);
    if (event.squeezer) card.classList.add("card--player-squeeze");
    who.textContent = mine
      ? t("squeeze.yours", { side })
      : event.squeezer
        ? t("squeeze.theirs", { name: event.squeezer, side })
        : t("squeeze.dealer", { side });
    bar.hidden = !Number.isFinite(deadline);
    tick();
    if (event.edge) drawPeel(card, event.edge, Number(event.progress) || 0);
    if (mine) {
      card.classList.remove("card--peel");
      grip = peelable(card, t("squeeze.card_label", { side, position: event.position + 1 }), {
        moved: peeled,
        turn: () => {
          window.clearTimeout(throttle);
          throttle = undefined;
          pending = null;
          if (current)
            send({ type: "turn", round_id: current.round_id, hand: current.hand, position: current.position });
        },
      });
      card.focus({ preventScroll: true });
    }
  }

  return {
    el,
    /** @param {any} event  a `squeeze` event */
    onSqueeze(event) {
      begin(event);
    },
    /** @param {any} event  a `peel` event: the squeezer's peel, shown to all (their own already is) */
    onPeel(event) {
      if (!current || current.mine || current.round_id !== event.round_id) return;
      if (current.hand !== event.hand || current.position !== event.position) return;
      drawPeel(slot(event.hand, event.position), event.edge, Number(event.progress) || 0);
    },
    /**
     * A card is turned: shown now, or (the player keeps every card covered and did not squeeze
     * this one) kept covered until they peel it or its hand's result is out. Returns whether
     * it is kept.
     * @param {any} event  a `card` event
     * @param {() => void} show
     * @returns {boolean}
     */
    holds(event, show) {
      const wasMine = current?.mine === true && current.hand === event.hand && current.position === event.position;
      endSqueeze();
      const card = slot(event.hand, event.position);
      card.classList.remove("card--player-squeeze");
      drawPeel(card, null, 0);
      if (wasMine || !toggle.checked) return false;
      const key = `${event.hand}:${event.position}`;
      const reveal = () => {
        card.classList.remove("card--held");
        show();
      };
      const label = t("squeeze.own_card_label", { side: t(`side.${event.hand}`), position: event.position + 1 });
      const local = peelable(card, label, {
        moved: () => {},
        turn: () => {
          const kept = held.get(key);
          held.delete(key);
          kept?.grip.stop();
          drawPeel(card, null, 0);
          reveal();
        },
      });
      held.set(key, { show: reveal, grip: local });
      card.classList.add("card--held");
      return true;
    },
    /** The round's result is out: every card kept covered is shown (before the result). */
    uncover,
    /** @param {any} event  a private `refused` message */
    refused(event) {
      say(has(`error.${event.code}`) ? t(`error.${event.code}`) : String(event.message ?? ""));
    },
    /** @param {any} table  a snapshot's table */
    fromSnapshot(table) {
      held.clear();
      endSqueeze();
      if (table?.squeeze) begin(table.squeeze);
    },
    clear() {
      held.clear();
      endSqueeze();
    },
    destroy() {
      endSqueeze();
      window.clearInterval(ticker);
      el.remove();
    },
  };
}
