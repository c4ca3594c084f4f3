// @ts-check
// The limits panel: deposit, loss and wager limits over 24 hours, 7 days and 30 days, what each
// has used, and the pending increases with their Confirm button (usable 24 hours after the
// request). A lower limit applies at once; a higher one, or none, waits: the server decides.

import { api } from "./api.js";
import { utcText } from "./auth.js";
import { serverNow } from "./breaks.js";
import { announce, fill, h } from "./dom.js";
import { money } from "./format.js";

const KINDS = [
  ["deposit", "Deposit"],
  ["loss", "Loss"],
  ["wager", "Wager"],
];
const PERIODS = [
  ["24h", "24 hours"],
  ["7d", "7 days"],
  ["30d", "30 days"],
];

/**
 * "12.50" or "12" -> 1250; anything else -> NaN. Integer arithmetic only.
 * @param {string | null | undefined} text
 * @returns {number}
 */
export function parseMoney(text) {
  const match = /^\s*(\d{1,13})(?:[.,](\d{1,2}))?\s*$/.exec(text ?? "");
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/**
 * The entry of `list` for one limit, or null.
 * @param {{kind: string, period: string}[] | undefined} list
 * @param {string} kind
 * @param {string} period
 * @returns {any}
 */
function find(list, kind, period) {
  return (list ?? []).find((item) => item.kind === kind && item.period === period) ?? null;
}

/** The panel; returns {el, load()}. */
export function limitsPanel() {
  // The server's clock less this browser's, so "24 hours later" is the server's 24 hours.
  let skew = 0;
  const body = h("tbody", {});
  const message = h("p", { class: "form-message", role: "alert", id: "limits-message" });
  const el = h(
    "section",
    { class: "panel rg-panel", id: "limits-panel", "aria-labelledby": "limits-title" },
    h("h2", { class: "panel-title", id: "limits-title" }, "Limits"),
    h(
      "p",
      { class: "rg-note" },
      "A lower limit applies at once. A higher limit, or removing one, can be confirmed 24 hours after you ask.",
    ),
    h(
      "table",
      { class: "rg-table" },
      h("caption", { class: "visually-hidden" }, "Your deposit, loss and wager limits"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["Limit", "Now", "Used", "New amount", "", "Pending"].map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      body,
    ),
    message,
  );

  /**
   * @param {string} text
   * @param {string} [tone]
   */
  function say(text, tone = "error") {
    message.dataset.tone = tone;
    message.textContent = text;
  }

  /**
   * Send a change, then show the limits the server answers with.
   * @param {() => Promise<any>} action
   * @param {string} success  what to say when the server says nothing itself
   */
  async function run(action, success) {
    try {
      const view = await action();
      draw(view);
      const text = view.change?.message ?? success;
      say(text, "info");
      announce(text);
    } catch (error) {
      say(error.message);
    }
  }

  /**
   * @param {any} view  GET /api/me/limits
   * @param {string} kind
   * @param {string} kindLabel
   * @param {string} period
   * @param {string} periodLabel
   */
  function rowFor(view, kind, kindLabel, period, periodLabel) {
    const name = `${kindLabel} limit, ${periodLabel}`;
    const current = find(view.limits, kind, period);
    const used = find(view.usage, kind, period);
    const pending = find(view.pending, kind, period);
    const input = h("input", {
      inputmode: "decimal",
      class: "rg-input",
      "aria-label": `New ${name.toLowerCase()} in dollars`,
      dataset: { limit: `${kind}-${period}` },
      placeholder: "e.g. 50.00",
    });
    const set = () => {
      const amount = parseMoney(input.value);
      if (!Number.isInteger(amount) || amount < 1) {
        say(`Enter an amount such as 50 or 12.50 for the ${name.toLowerCase()}.`);
        return;
      }
      run(() => api.setLimit(kind, period, amount), `${name} saved.`);
    };
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") set();
    });
    /** @type {string | HTMLElement} */
    let pendingCell = "–";
    if (pending) {
      const ready = Date.parse(pending.confirmable_at) <= Date.now() + skew;
      pendingCell = h(
        "div",
        { class: "rg-pending", dataset: { pending: `${kind}-${period}` } },
        h(
          "span",
          {},
          pending.amount === null ? "No limit" : money(pending.amount),
          ready ? " · ready" : ` · from ${utcText(pending.confirmable_at)}`,
        ),
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small btn--gold",
            "aria-label": `Confirm the new ${name.toLowerCase()}`,
            "aria-disabled": String(!ready),
            onclick: () => run(() => api.confirmLimit(kind, period), `${name} raised.`),
          },
          "Confirm",
        ),
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small btn--ghost",
            "aria-label": `Cancel the pending ${name.toLowerCase()}`,
            onclick: () => run(() => api.cancelPending(kind, period), "Pending increase cancelled."),
          },
          "Cancel",
        ),
      );
    }
    return h(
      "tr",
      { dataset: { row: `${kind}-${period}` } },
      h("th", { scope: "row" }, name),
      h("td", { dataset: { col: "limit" } }, current ? money(current.amount) : "None"),
      h("td", { dataset: { col: "used" } }, used ? `${money(Math.max(used.used, 0))} (${money(used.left)} left)` : "–"),
      h("td", {}, input),
      h(
        "td",
        {},
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small",
            "aria-label": `Set the ${name.toLowerCase()}`,
            dataset: { set: `${kind}-${period}` },
            onclick: set,
          },
          "Set",
        ),
        current
          ? h(
              "button",
              {
                type: "button",
                class: "btn btn--small btn--ghost",
                "aria-label": `Remove the ${name.toLowerCase()} (after 24 hours)`,
                onclick: () =>
                  run(() => api.setLimit(kind, period, null), `Removing the ${name.toLowerCase()} waits 24 hours.`),
              },
              "Remove",
            )
          : null,
      ),
      h("td", {}, pendingCell),
    );
  }

  /** @param {any} view  GET /api/me/limits */
  function draw(view) {
    fill(
      body,
      KINDS.flatMap(([kind, kindLabel]) =>
        PERIODS.map(([period, periodLabel]) => rowFor(view, kind, kindLabel, period, periodLabel)),
      ),
    );
  }

  return {
    el,
    async load() {
      try {
        const [view, breaks] = await Promise.all([api.limits(), api.breaks()]);
        skew = serverNow(breaks) - Date.now();
        draw(view);
      } catch (error) {
        say(`Your limits cannot be shown: ${error.message}`);
      }
    },
  };
}
