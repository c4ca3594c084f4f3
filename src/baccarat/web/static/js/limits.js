// @ts-check
// The limits panel: deposit, loss and wager limits over 24 hours, 7 days and 30 days, what each
// has used, and the pending increases with their Confirm button (usable 24 hours after the
// request). A lower limit applies at once; a higher one, or none, waits: the server decides.

import { api } from "./api.js";
import { utcText } from "./auth.js";
import { serverNow } from "./breaks.js";
import { announce, fill, h } from "./dom.js";
import { money } from "./format.js";
import { currencySymbol, formatNumber, locale, t } from "./i18n.js";
import { errorText, limitName } from "./refusals.js";

const KINDS = ["deposit", "loss", "wager"];
const PERIODS = ["24h", "7d", "30d"];

/**
 * A limit's name in a sentence: "loss limit, 24 hours" (its row says "Loss limit, 24 hours").
 * @param {string} name
 * @returns {string}
 */
function lower(name) {
  return name.toLocaleLowerCase(locale());
}

/**
 * The server's answer to a change (`change`: kind, period, before, after, status,
 * confirmable_at) in words.
 * @param {any} change
 * @returns {string | null}
 */
function changeText(change) {
  if (!change?.kind || !change.period) return null;
  const show = (/** @type {number | null} */ amount) => (amount === null ? lower(t("limits.no_limit")) : money(amount));
  const values = {
    name: limitName(change.kind, change.period),
    before: show(change.before ?? null),
    after: show(change.after ?? null),
    time: utcText(change.confirmable_at),
  };
  if (change.status === "pending" && change.confirmable_at) return t("limits.change.pending", values);
  if (change.status === "cancelled") return t("limits.change.cancelled", values);
  return t("limits.change.applied", values);
}

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
    h("h2", { class: "panel-title", id: "limits-title" }, t("limits.title")),
    h("p", { class: "rg-note" }, t("limits.note")),
    h(
      "table",
      { class: "rg-table" },
      h("caption", { class: "visually-hidden" }, t("limits.caption")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["limit", "now", "used", "new", "actions", "pending"].map((column) =>
            // The buttons' column says what it holds to a screen reader only.
            column === "actions"
              ? h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("limits.col.actions")))
              : h("th", { scope: "col" }, t(`limits.col.${column}`)),
          ),
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
   * @param {string} success  what to say when the server's answer names no change
   * @param {(error: any) => string | null} [refused]  a refusal in words, when the page knows better
   */
  async function run(action, success, refused = () => null) {
    try {
      const view = await action();
      draw(view);
      const text = changeText(view.change) ?? success;
      say(text, "info");
      announce(text);
    } catch (error) {
      say(refused(error) ?? errorText(error));
    }
  }

  /**
   * @param {any} view  GET /api/me/limits
   * @param {string} kind
   * @param {string} period
   */
  function rowFor(view, kind, period) {
    const name = t("limit.name", { kind: t(`limit.kind.${kind}`), period: t(`limit.period.${period}`) });
    const current = find(view.limits, kind, period);
    const used = find(view.usage, kind, period);
    const pending = find(view.pending, kind, period);
    const input = h("input", {
      inputmode: "decimal",
      class: "rg-input",
      "aria-label": t("limits.new_label", { name: lower(name), symbol: currencySymbol() }),
      dataset: { limit: `${kind}-${period}` },
      placeholder: t("cashier.example", { amount: formatNumber("50.00") }),
    });
    const set = () => {
      const amount = parseMoney(input.value);
      if (!Number.isInteger(amount) || amount < 1) {
        say(t("limits.invalid", { whole: "50", part: formatNumber("12.50"), name: lower(name) }));
        return;
      }
      run(() => api.setLimit(kind, period, amount), t("limits.saved", { name }));
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
          pending.amount === null ? t("limits.no_limit") : money(pending.amount),
          ready ? t("limits.ready") : t("limits.from", { time: utcText(pending.confirmable_at) }),
        ),
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small btn--gold",
            "aria-label": t("limits.confirm_label", { name: lower(name) }),
            "aria-disabled": String(!ready),
            onclick: () =>
              run(
                () => api.confirmLimit(kind, period),
                t("limits.raised", { name }),
                // Too early: the server refuses with invalid_limit; the page knows from when.
                (error) =>
                  error?.code === "invalid_limit"
                    ? t("limits.too_early", { name: lower(name), time: utcText(pending.confirmable_at) })
                    : null,
              ),
          },
          t("limits.confirm"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small btn--ghost",
            "aria-label": t("limits.cancel_label", { name: lower(name) }),
            onclick: () => run(() => api.cancelPending(kind, period), t("limits.cancelled")),
          },
          t("limits.cancel"),
        ),
      );
    }
    return h(
      "tr",
      { dataset: { row: `${kind}-${period}` } },
      h("th", { scope: "row" }, name),
      h("td", { dataset: { col: "limit" } }, current ? money(current.amount) : t("limits.none")),
      h(
        "td",
        { dataset: { col: "used" } },
        used ? t("limits.used", { used: money(Math.max(used.used, 0)), left: money(used.left) }) : "–",
      ),
      h("td", {}, input),
      h(
        "td",
        {},
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small",
            "aria-label": t("limits.set_label", { name: lower(name) }),
            dataset: { set: `${kind}-${period}` },
            onclick: set,
          },
          t("limits.set"),
        ),
        current
          ? h(
              "button",
              {
                type: "button",
                class: "btn btn--small btn--ghost",
                "aria-label": t("limits.remove_label", { name: lower(name) }),
                onclick: () =>
                  run(() => api.setLimit(kind, period, null), t("limits.remove_wait", { name: lower(name) })),
              },
              t("limits.remove"),
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
      KINDS.flatMap((kind) => PERIODS.map((period) => rowFor(view, kind, period))),
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
        say(t("limits.failed", { reason: errorText(error) }));
      }
    },
  };
}
