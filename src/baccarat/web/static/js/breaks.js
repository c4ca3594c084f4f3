// @ts-check
// The breaks panel: a time-out (24 hours to 6 weeks) or a self-exclusion (6 months to 5 years).
// A break starts at once, ends the session and cannot be shortened, so it takes two steps: choose,
// then confirm a sentence that says exactly until when.

import { api } from "./api.js";
import { utcText } from "./auth.js";
import { breakMemo } from "./breakmemo.js";
import { announce, fill, h } from "./dom.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// Lengths offered; the shortest and longest are kept a minute inside the server's range, which
// it measures from the instant the request arrives.
/** @type {Record<"time_out" | "self_exclusion", [string, {ms?: number, months?: number}][]>} */
const CHOICES = {
  time_out: [
    ["24 hours", { ms: 24 * HOUR }],
    ["3 days", { ms: 72 * HOUR }],
    ["1 week", { ms: 168 * HOUR }],
    ["2 weeks", { ms: 336 * HOUR }],
    ["6 weeks", { ms: 1008 * HOUR }],
  ],
  self_exclusion: [
    ["6 months", { months: 6 }],
    ["1 year", { months: 12 }],
    ["2 years", { months: 24 }],
    ["5 years", { months: 60 }],
  ],
};
const NAMES = { time_out: "time-out", self_exclusion: "self-exclusion" };

/**
 * The end of a break of `length` from `now` (the server's, in ms), kept inside the server's
 * allowed [earliest, latest]: the client's own clock may be wrong.
 * @param {{ms?: number, months?: number}} length
 * @param {{earliest: string, latest: string}} allowed  ISO instants
 * @param {number} [now]
 * @returns {string}  an ISO instant
 */
export function breakEnd(length, allowed, now = Date.now()) {
  let end;
  if (length.ms) end = now + length.ms;
  else {
    const date = new Date(now);
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() + length.months);
    const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    date.setUTCDate(Math.min(day, last));
    end = date.getTime();
  }
  const earliest = Date.parse(allowed.earliest) + MINUTE;
  const latest = Date.parse(allowed.latest) - MINUTE;
  return new Date(Math.min(Math.max(end, earliest), latest)).toISOString();
}

/**
 * The server's clock when it sent `view` (GET /api/me/breaks): its earliest time-out end is
 * 24 hours after it.
 * @param {{allowed: {time_out: {earliest: string}}}} view
 * @returns {number}
 */
export function serverNow(view) {
  return Date.parse(view.allowed.time_out.earliest) - 24 * HOUR;
}

/**
 * The panel; `onBreak()` is told once a break has started. Returns {el, load()}.
 * @param {{onBreak: () => void}} options
 */
export function breaksPanel({ onBreak }) {
  const state = h("p", { class: "rg-state", id: "break-state" });
  const message = h("p", { class: "form-message", role: "alert", id: "breaks-message" });
  const confirmBox = h("div", {
    class: "rg-confirm",
    hidden: true,
    role: "group",
    "aria-labelledby": "break-confirm-text",
  });
  const el = h(
    "section",
    { class: "panel rg-panel", id: "breaks-panel", "aria-labelledby": "breaks-title" },
    h("h2", { class: "panel-title", id: "breaks-title" }, "Take a break"),
    h(
      "p",
      { class: "rg-note" },
      "A break starts now and logs you out. Until it ends you cannot bet, deposit or log in. It can be made longer, never shorter.",
    ),
    state,
  );
  /** @type {any} the last GET /api/me/breaks */
  let view = null;

  /**
   * @param {"time_out" | "self_exclusion"} kind
   * @param {string} label
   */
  function chooser(kind, label) {
    const select = h(
      "select",
      { id: `break-${kind}`, "aria-label": `Length of the ${NAMES[kind]}` },
      CHOICES[kind].map(([text], index) => h("option", { value: String(index) }, text)),
    );
    return h(
      "div",
      { class: "rg-break" },
      h("label", { for: `break-${kind}` }, label),
      select,
      h(
        "button",
        {
          type: "button",
          class: "btn btn--small",
          dataset: { break: kind },
          onclick: () => ask(kind, CHOICES[kind][Number(select.value)]),
        },
        `Start a ${NAMES[kind]}…`,
      ),
    );
  }

  /**
   * @param {"time_out" | "self_exclusion"} kind
   * @param {[string, {ms?: number, months?: number}]} choice
   */
  function ask(kind, [text, length]) {
    if (!view) return;
    const until = breakEnd(length, view.allowed[kind], serverNow(view));
    fill(
      confirmBox,
      h(
        "p",
        { id: "break-confirm-text" },
        `A ${NAMES[kind]} of ${text}: you will not be able to play until ${utcText(until)}. It cannot be shortened or ended early.`,
      ),
      h(
        "button",
        { type: "button", class: "btn btn--small btn--gold", id: "break-confirm", onclick: () => take(kind, length) },
        `Yes, start the ${NAMES[kind]}`,
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn--small btn--ghost",
          onclick: () => {
            confirmBox.hidden = true;
          },
        },
        "No, go back",
      ),
    );
    confirmBox.hidden = false;
    /** @type {HTMLButtonElement} */ (confirmBox.querySelector("#break-confirm")).focus();
  }

  /**
   * @param {"time_out" | "self_exclusion"} kind
   * @param {{ms?: number, months?: number}} length
   */
  async function take(kind, length) {
    try {
      // The allowed range is measured from the request's arrival: read it again just before.
      const fresh = await api.breaks();
      const until = breakEnd(length, fresh.allowed[kind], serverNow(fresh));
      const taken = await api.takeBreak(kind, until);
      confirmBox.hidden = true;
      draw(taken);
      const text = `Your ${NAMES[kind]} has started. It ends at ${utcText(until)}.`;
      message.dataset.tone = "info";
      message.textContent = text;
      announce(text);
      // The view is about to show a visitor's page: say it where it stays in sight.
      const bar = document.getElementById("notice");
      if (bar) {
        bar.textContent = text;
        bar.hidden = false;
      }
      onBreak();
      // After the seat is gone: this device offers no demo play until the break ends.
      breakMemo.remember(taken.in_force?.until ?? until);
    } catch (error) {
      message.dataset.tone = "error";
      message.textContent = error.message;
    }
  }

  /** @param {any} fresh  GET /api/me/breaks */
  function draw(fresh) {
    view = fresh;
    const running = fresh.in_force;
    state.textContent = running
      ? `A ${NAMES[running.kind]} is running until ${utcText(running.until)}.`
      : "No break is running.";
  }

  el.append(chooser("time_out", "Time-out"), chooser("self_exclusion", "Self-exclusion"), confirmBox, message);
  return {
    el,
    async load() {
      try {
        draw(await api.breaks());
      } catch (error) {
        message.textContent = `Your breaks cannot be shown: ${error.message}`;
      }
    },
  };
}
