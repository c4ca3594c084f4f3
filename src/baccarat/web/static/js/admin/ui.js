// @ts-check
// What every back-office view is made of: a heading, data tables, buttons that act (disabled
// for a role that may only read), the reason dialog every acting button opens, the status and
// alert lines, and refusals in words.

import { ApiError } from "../api.js";
import { fill, h } from "../dom.js";
import { formatMoney, formatNumber, has, t, utcStamp } from "../i18n.js";

/**
 * What a view is given: may the member of staff act, and how to say something.
 * @typedef {{role: string, act: boolean, say: (text: string) => void, fail: (error: unknown) => void}} Ctx
 */

/** A refusal of the page's own (a malformed amount), kept as its catalogue key: re-worded in
 * the language switched to. */
export class WordedError extends Error {
  /** @param {string} key */
  constructor(key) {
    super(t(key));
    this.key = key;
  }
}

/**
 * A refused or failed request in words, in the language shown (the server's English is not shown).
 * @param {unknown} error
 * @returns {string}
 */
export function refusal(error) {
  if (error instanceof WordedError) return t(error.key);
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (error.code === "network") return t("error.network");
  if (error.code === "role_forbidden") return t("admin.error.role_forbidden");
  if (has(`admin.error.${error.code}`)) return t(`admin.error.${error.code}`);
  if (has(`error.${error.code}`)) return t(`error.${error.code}`);
  return t("error.other", { code: error.code });
}

/** The refusal the alert line shows (null: none), to word it again in another language. */
let shownRefusal = /** @type {{error: unknown} | null} */ (null);

/**
 * The status and alert lines under the top bar (admin.html): one says what was done, the
 * other what was refused; each empties the other.
 */
export const lines = {
  /** @param {string} text */
  say(text) {
    shownRefusal = null;
    fill(/** @type {HTMLElement} */ (document.getElementById("admin-alert")));
    fill(/** @type {HTMLElement} */ (document.getElementById("admin-status")), text);
  },
  /** @param {unknown} error */
  fail(error) {
    shownRefusal = { error };
    fill(/** @type {HTMLElement} */ (document.getElementById("admin-status")));
    fill(/** @type {HTMLElement} */ (document.getElementById("admin-alert")), refusal(error));
  },
  clear() {
    lines.say("");
  },
  /**
   * After a change of language: the refusal shown is said again in the new one; what was done
   * (already in words, in the other language) is cleared.
   */
  reword() {
    const shown = shownRefusal;
    if (shown) lines.fail(shown.error);
    else lines.clear();
  },
};

/**
 * A view's heading and intro, the heading focusable (main.js focuses it after a navigation).
 * @param {string} key
 * @param {string} [intro]
 */
export function heading(key, intro) {
  return [
    h("h1", { class: "admin-title", tabindex: "-1", text: t(key) }),
    intro && h("p", { class: "admin-intro", text: t(intro) }),
  ];
}

/**
 * A button that changes something: disabled (and saying why) for a role that may only read.
 * @param {Ctx} ctx
 * @param {string} label  the text (already in words)
 * @param {() => void} onclick
 * @param {{danger?: boolean, name?: string, enabled?: boolean}} [options]
 */
export function actButton(ctx, label, onclick, { danger = false, name, enabled = true } = {}) {
  return h("button", {
    type: "button",
    class: `btn btn--small${danger ? " btn--danger" : ""}`,
    "data-act": name ?? "",
    disabled: !ctx.act || !enabled,
    title: ctx.act ? null : t("admin.read_only"),
    onclick,
    text: label,
  });
}

/**
 * A plain button (reads, navigation inside a view).
 * @param {string} label
 * @param {() => void} onclick
 * @param {Record<string, any>} [props]
 */
export function button(label, onclick, props = {}) {
  return h("button", { type: "button", class: "btn btn--small", onclick, text: label, ...props });
}

/**
 * A column: its heading key, the cell of a row, and whether it holds numbers (right-aligned).
 * @typedef {{key: string, cell: (row: any) => import("../dom.js").Kid, num?: boolean, name?: string}} Column
 */

/**
 * A data table with a caption; an empty one says so. On a phone each row is a card, each cell
 * a line named by its column's heading (admin.css), so nothing is beyond the screen's edge.
 * @param {string} caption  in words
 * @param {Column[]} columns
 * @param {any[]} rows
 * @param {{rowProps?: (row: any) => Record<string, any>, empty?: string}} [options]
 */
export function dataTable(caption, columns, rows, { rowProps, empty = "admin.empty" } = {}) {
  const table = h(
    "table",
    { class: "admin-table" },
    h("caption", { text: caption }),
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        columns.map((c) => h("th", { scope: "col", class: c.num ? "num" : null, text: t(c.key) })),
      ),
    ),
    h(
      "tbody",
      null,
      rows.length
        ? rows.map((row) =>
            h(
              "tr",
              rowProps?.(row) ?? null,
              // Each cell names its column: on a phone a row is a card of labelled lines (admin.css).
              columns.map((c) =>
                h(
                  "td",
                  { class: c.num ? "num" : null, "data-col": c.name ?? null, "data-label": t(c.key) },
                  c.cell(row),
                ),
              ),
            ),
          )
        : h("tr", null, h("td", { colspan: String(columns.length), class: "admin-empty", text: t(empty) })),
    ),
  );
  return h("div", { class: "admin-table-wrap" }, table);
}

/**
 * A label and its field, side by side in a form row.
 * @param {string} key
 * @param {HTMLElement} field
 */
export function field(key, field) {
  return h("label", { class: "admin-field" }, h("span", { text: t(key) }), field);
}

/**
 * A select of `options` ([value, words]).
 * @param {string} name
 * @param {[string, string][]} options
 * @param {string} [value]
 */
export function select(name, options, value = "") {
  return h(
    "select",
    { name },
    options.map(([v, words]) => h("option", { value: v, selected: v === value, text: words })),
  );
}

/**
 * A money amount, an instant, a number, a short id.
 */
export const show = {
  /** @param {number | null | undefined} minor */
  money: (minor) => (minor === null || minor === undefined ? "–" : formatMoney(minor)),
  /** @param {string | number | null | undefined} at */
  time: (at) => (at === null || at === undefined ? "–" : utcStamp(at)),
  /**
   * @param {number | null | undefined} value
   * @param {number} [digits]
   */
  num: (value, digits = 2) =>
    value === null || value === undefined || !Number.isFinite(value)
      ? "–"
      : formatNumber(value, { minimumFractionDigits: digits, maximumFractionDigits: digits }).replace("-", "−"),
  /** @param {string | null | undefined} id */
  id: (id) => (id ? h("code", { title: id, text: id.length > 12 ? `${id.slice(0, 10)}…` : id }) : "–"),
  /**
   * A player's id, linked to their page in the back office.
   * @param {string | null | undefined} id
   */
  player: (id) => (id ? h("a", { href: `#/players/${encodeURIComponent(id)}` }, show.id(id)) : "–"),
  /**
   * A status word as a badge: `data-state` colours it.
   * @param {string} key
   * @param {string} state
   */
  badge: (key, state) => h("span", { class: "admin-badge", "data-state": state, text: t(key) }),
};

/**
 * Ask why, before an action that changes something: a modal dialog with the action in words,
 * a reason field (required, 200 characters at most, kept in the audit chain) and the buttons.
 * Resolves to the reason, or null when cancelled (Escape, Cancel).
 * @param {string} title  what is about to be done, in words
 * @param {string} confirm  the confirming button's words
 * @returns {Promise<string | null>}
 */
export function askReason(title, confirm) {
  return new Promise((resolve) => {
    const reason = h("input", {
      id: "admin-reason",
      name: "reason",
      required: true,
      maxlength: "200",
      autocomplete: "off",
    });
    const error = h("p", { class: "admin-reason__error", role: "alert" });
    let answer = /** @type {string | null} */ (null);
    const dialog = h(
      "dialog",
      { class: "admin-dialog", "aria-labelledby": "admin-reason-title" },
      h(
        "form",
        {
          method: "dialog",
          onsubmit: (/** @type {SubmitEvent} */ event) => {
            event.preventDefault();
            const text = reason.value.trim();
            if (!text) {
              fill(error, t("admin.reason.missing"));
              reason.focus();
              return;
            }
            answer = text;
            dialog.close();
          },
        },
        h("h2", { id: "admin-reason-title", text: title }),
        h("label", { for: "admin-reason", text: t("admin.reason.label") }),
        reason,
        h("p", { class: "admin-hint", text: t("admin.reason.hint") }),
        error,
        h(
          "div",
          { class: "admin-dialog__buttons" },
          h("button", {
            type: "button",
            class: "btn btn--ghost",
            onclick: () => dialog.close(),
            text: t("admin.cancel"),
          }),
          h("button", { type: "submit", class: "btn btn--gold", "data-confirm": "", text: confirm }),
        ),
      ),
    );
    // Back to the button that asked, once the dialog is gone (if that button still is).
    const opener = /** @type {HTMLElement | null} */ (document.activeElement);
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (opener?.isConnected) opener.focus();
      resolve(answer);
    });
    document.body.append(dialog);
    dialog.showModal();
    reason.focus();
  });
}

/**
 * Run an action after asking its reason; say what it did, or why it was refused.
 * @template T
 * @param {Ctx} ctx
 * @param {string} title
 * @param {string} confirm
 * @param {(reason: string) => Promise<T>} act
 * @param {(answer: T) => string} done  the words of what was done
 * @returns {Promise<T | null>}
 */
export async function withReason(ctx, title, confirm, act, done) {
  const reason = await askReason(title, confirm);
  if (reason === null) return null;
  try {
    const answer = await act(reason);
    ctx.say(done(answer));
    return answer;
  } catch (error) {
    ctx.fail(error);
    return null;
  }
}
