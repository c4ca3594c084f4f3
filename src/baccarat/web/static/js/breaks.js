// @ts-check
// The breaks panel: a time-out (24 hours to 6 weeks) or a self-exclusion (6 months to 5 years).
// A break starts at once, ends the session and cannot be shortened, so it takes two steps: choose,
// then confirm a sentence that says exactly until when.

import { api } from "./api.js";
import { utcText } from "./auth.js";
import { breakMemo } from "./breakmemo.js";
import { announce, fill, h } from "./dom.js";
import { bind, t } from "./i18n.js";
import { errorText } from "./refusals.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// Lengths offered (by the key of their words); the shortest and longest are kept a minute inside
// the server's range, which it measures from the instant the request arrives.
/** @type {Record<"time_out" | "self_exclusion", [string, {ms?: number, months?: number}][]>} */
const CHOICES = {
  time_out: [
    ["break.len.24h", { ms: 24 * HOUR }],
    ["break.len.3d", { ms: 72 * HOUR }],
    ["break.len.1w", { ms: 168 * HOUR }],
    ["break.len.2w", { ms: 336 * HOUR }],
    ["break.len.6w", { ms: 1008 * HOUR }],
  ],
  self_exclusion: [
    ["break.len.6m", { months: 6 }],
    ["break.len.1y", { months: 12 }],
    ["break.len.2y", { months: 24 }],
    ["break.len.5y", { months: 60 }],
  ],
};

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
    h("h2", { class: "panel-title", id: "breaks-title" }, t("breaks.title")),
    h("p", { class: "rg-note" }, t("breaks.note")),
    state,
  );
  /** @type {any} the last GET /api/me/breaks */
  let view = null;

  /** @param {"time_out" | "self_exclusion"} kind */
  function chooser(kind) {
    const select = h(
      "select",
      { id: `break-${kind}`, "aria-label": t(`break.length.${kind}`) },
      CHOICES[kind].map(([key], index) => h("option", { value: String(index) }, t(key))),
    );
    return h(
      "div",
      { class: "rg-break" },
      h("label", { for: `break-${kind}` }, t(`break.label.${kind}`)),
      select,
      h(
        "button",
        {
          type: "button",
          class: "btn btn--small",
          dataset: { break: kind },
          onclick: () => ask(kind, CHOICES[kind][Number(select.value)]),
        },
        t(`break.start.${kind}`),
      ),
    );
  }

  /**
   * @param {"time_out" | "self_exclusion"} kind
   * @param {[string, {ms?: number, months?: number}]} choice
   */
  function ask(kind, [lengthKey, length]) {
    if (!view) return;
    const until = breakEnd(length, view.allowed[kind], serverNow(view));
    fill(
      confirmBox,
      h("p", { id: "break-confirm-text" }, t(`break.ask.${kind}`, { length: t(lengthKey), time: utcText(until) })),
      h(
        "button",
        { type: "button", class: "btn btn--small btn--gold", id: "break-confirm", onclick: () => take(kind, length) },
        t(`break.yes.${kind}`),
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
        t("break.no"),
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
      const values = { time: () => utcText(until) };
      const text = t(`break.started.${kind}`, values);
      message.dataset.tone = "info";
      message.textContent = text;
      announce(text);
      // The view is about to show a visitor's page: say it where it stays in sight.
      const bar = document.getElementById("notice");
      if (bar) {
        bind(bar, `break.started.${kind}`, values);
        bar.hidden = false;
      }
      onBreak();
      // After the seat is gone: this device offers no demo play until the break ends.
      breakMemo.remember(taken.in_force?.until ?? until);
    } catch (error) {
      message.dataset.tone = "error";
      message.textContent = errorText(error);
    }
  }

  /** @param {any} fresh  GET /api/me/breaks */
  function draw(fresh) {
    view = fresh;
    const running = fresh.in_force;
    state.textContent = running
      ? t(running.kind === "self_exclusion" ? "break.running.self_exclusion" : "break.running.time_out", {
          time: utcText(running.until),
        })
      : t("breaks.none");
  }

  el.append(chooser("time_out"), chooser("self_exclusion"), confirmBox, message);
  return {
    el,
    async load() {
      try {
        draw(await api.breaks());
      } catch (error) {
        message.textContent = t("breaks.failed", { reason: errorText(error) });
      }
    },
  };
}
