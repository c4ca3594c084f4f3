// @ts-check
// The audit log: browse the chain newest first (older pages on demand), filtered by UTC days,
// who and what, and download what the filters name as CSV; amounts in the details are written
// as money and a change as what it was → what it became. Verify every record's hash and link
// (and, given an anchor, that it still holds), and export the anchor: the chain's head now, a
// line to keep outside the database.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { adminApi } from "./client.js";
import { button, dataTable, field, heading, show } from "./ui.js";

/** Details whose numbers are amounts of money (minor units), wherever they are nested. */
const MONEY_KEYS = new Set(["amount", "returned", "min_stake", "max_stake", "stake", "balance"]);
/** Actions whose own before and after are amounts (a limit of a player's, a cap). */
const MONEY_CHANGES = new Set(["operator_limit", "limit_change"]);
/** The actions the server writes, offered as the action filter's suggestions. */
const ACTIONS = [
  "staff_login",
  "staff_logout",
  "staff_login_failed",
  "staff_create",
  "staff_disable",
  "staff_password_reset",
  "table_open",
  "table_pause",
  "table_close",
  "table_new_shoe",
  "table_change",
  "table_limits",
  "round_void",
  "round_settle",
  "player_lock",
  "player_unlock",
  "player_close",
  "operator_limit",
  "register",
  "login",
  "login_failed",
  "logout",
  "limit_change",
  "break",
];

/**
 * A value's leaves by dotted path: {limits: {tie: {max_stake: 9}}} → [["limits.tie.max_stake", 9]].
 * @param {unknown} value
 * @param {string} [path]
 * @returns {[string, unknown][]}
 */
export function leaves(value, path = "") {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const inner = Object.entries(value).flatMap(([key, v]) => leaves(v, path ? `${path}.${key}` : key));
    return inner.length ? inner : [[path, value]];
  }
  return [[path, value]];
}

/**
 * One detail's value as the page writes it: an amount as money, nothing as "–".
 * @param {string} path  where it is in the details ("returned.p1", "before.max_stake")
 * @param {unknown} value
 * @param {boolean} money  an amount whatever its path (the before and after of a limit)
 * @returns {string}
 */
export function detailText(path, value, money = false) {
  if (value === null || value === undefined) return "–";
  const isMoney = money || path.split(".").some((part) => MONEY_KEYS.has(part));
  if (isMoney && typeof value === "number" && Number.isSafeInteger(value)) return show.money(value);
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/**
 * A change as what each field was → what it became (only the fields that differ; all of them
 * when none does).
 * @param {unknown} before
 * @param {unknown} after
 * @param {boolean} money
 */
function diff(before, after, money) {
  const was = new Map(leaves(before));
  const now = new Map(leaves(after));
  const paths = [...new Set([...was.keys(), ...now.keys()])];
  const changed = paths.filter((path) => JSON.stringify(was.get(path)) !== JSON.stringify(now.get(path)));
  return h(
    "ul",
    { class: "admin-diff", "aria-label": t("admin.audit.change") },
    (changed.length ? changed : paths).map((path) =>
      h(
        "li",
        { "data-field": path },
        path ? h("span", { class: "admin-diff__field", text: `${path}: ` }) : null,
        h("del", { text: detailText(path, was.get(path), money) }),
        h("span", { "aria-hidden": "true", text: " → " }),
        h("span", { class: "visually-hidden", text: ` ${t("admin.audit.became")} ` }),
        h("ins", { text: detailText(path, now.get(path), money) }),
      ),
    ),
  );
}

/**
 * A record's details as "key: value" lines (amounts as money, nested values by path), and its
 * change (before → after) when it has one.
 * @param {Record<string, unknown>} details
 * @param {string} action
 */
function detailLines(details, action) {
  const money = MONEY_CHANGES.has(action);
  const changes = "before" in details || "after" in details;
  const rows = Object.entries(details)
    .filter(([key]) => !(changes && (key === "before" || key === "after")))
    .flatMap(([key, value]) => {
      const inner = /** @type {any} */ (value);
      if (inner && typeof inner === "object" && ("before" in inner || "after" in inner))
        return [h("div", null, h("dt", { text: key }), h("dd", null, diff(inner.before, inner.after, money)))];
      return leaves(value, key).map(([path, leaf]) =>
        h("div", null, h("dt", { text: path }), h("dd", { text: detailText(path, leaf) })),
      );
    });
  return [h("dl", { class: "admin-kv" }, rows), changes ? diff(details.before, details.after, money) : null];
}

/**
 * Save a text as a file, from the page (the answer needed the staff token).
 * @param {string} name
 * @param {string} text
 * @param {string} type
 */
export function saveText(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const PAGE = 100;

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 */
export function mount(main, ctx) {
  let gone = false;
  /** @type {any[]} */
  let shown = [];
  /** @type {number | null} */
  let before = null;
  const since = h("input", { name: "since", type: "date", autocomplete: "off" });
  const until = h("input", { name: "until", type: "date", autocomplete: "off" });
  const actor = h("input", { name: "actor", maxlength: "100", placeholder: "staff:", autocomplete: "off" });
  const action = h("input", {
    name: "action",
    maxlength: "40",
    placeholder: "round_void",
    autocomplete: "off",
    list: "audit-actions",
  });
  const actions = h(
    "datalist",
    { id: "audit-actions" },
    ACTIONS.map((name) => h("option", { value: name })),
  );
  const anchorIn = h("input", { name: "anchor", maxlength: "64", pattern: "[0-9a-f]{64}", autocomplete: "off" });
  const list = h("div", { class: "admin-block" });
  const more = button(t("admin.audit.more"), () => load(true), { hidden: true, "data-read": "older" });
  const verdict = h("div", { class: "admin-block", "aria-live": "polite" });
  const anchorOut = h("div", { class: "admin-block" });

  /** The filters as the API takes them (empty ones left out by the query). */
  const filters = () => ({
    since: since.value,
    until: until.value,
    actor: actor.value.trim(),
    action: action.value.trim(),
  });

  /** @param {boolean} [older]  the next page, older than the records shown */
  async function load(older = false) {
    try {
      const page = await adminApi.audit({
        ...filters(),
        order: "desc",
        limit: PAGE,
        before_seq: older ? before : null,
      });
      if (gone) return;
      shown = older ? [...shown, ...page.records] : page.records;
      before = page.next_before;
      more.hidden = before === null;
      fill(
        list,
        dataTable(
          t("admin.audit.caption"),
          [
            { key: "admin.col.seq", num: true, cell: (r) => String(r.seq) },
            { key: "admin.col.time", cell: (r) => show.time(r.time) },
            { key: "admin.col.actor", name: "actor", cell: (r) => r.actor },
            { key: "admin.col.action", name: "action", cell: (r) => h("code", { text: r.action }) },
            { key: "admin.col.details", name: "details", cell: (r) => detailLines(r.details, r.action) },
            { key: "admin.col.hash", cell: (r) => show.id(r.hash) },
          ],
          shown,
          { rowProps: (r) => ({ "data-seq": String(r.seq), "data-action": r.action }) },
        ),
      );
    } catch (error) {
      ctx.fail(error);
    }
  }

  /** Every record the filters name, newest first, as CSV. */
  async function download() {
    try {
      const text = await adminApi.auditCsv({ ...filters(), order: "desc" });
      const { since: from, until: to } = filters();
      saveText(`audit${from ? `-${from}` : ""}${to ? `-${to}` : ""}.csv`, text, "text/csv");
      ctx.say(t("admin.audit.downloaded"));
    } catch (error) {
      ctx.fail(error);
    }
  }

  async function verify() {
    try {
      const answer = await adminApi.verify(anchorIn.value.trim() || null);
      if (gone) return;
      fill(
        verdict,
        h("p", {
          class: "admin-verdict",
          "data-ok": String(answer.ok),
          text: answer.ok
            ? t("admin.audit.verified", { count: answer.records })
            : t("admin.audit.broken", { count: answer.problems.length }),
        }),
        answer.problems.length > 0 &&
          h(
            "ul",
            { class: "admin-failures" },
            answer.problems.map((/** @type {any} */ p) => h("li", { text: `#${p.seq} ${p.kind}: ${p.message}` })),
          ),
      );
    } catch (error) {
      ctx.fail(error);
    }
  }

  async function exportAnchor() {
    try {
      const answer = await adminApi.anchor();
      if (gone) return;
      fill(
        anchorOut,
        h("p", { text: t("admin.audit.anchor_is", { seq: answer.seq, time: show.time(answer.at) }) }),
        h("pre", { class: "admin-code" }, h("code", { text: answer.line })),
        button(t("admin.audit.anchor_save"), () =>
          saveText(`audit-anchor-${answer.seq}.json`, `${answer.line}\n`, "application/json"),
        ),
      );
    } catch (error) {
      ctx.fail(error);
    }
  }

  main.replaceChildren(
    ...heading("admin.audit.title", "admin.audit.intro"),
    h(
      "form",
      {
        class: "admin-toolbar",
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          load();
        },
      },
      field("admin.audit.since", since),
      field("admin.audit.until", until),
      field("admin.col.actor", actor),
      field("admin.col.action", action),
      actions,
      h("button", { type: "submit", class: "btn btn--small", text: t("admin.find") }),
      button(t("admin.audit.csv"), download, { "data-read": "csv" }),
    ),
    list,
    more,
    h(
      "section",
      { class: "admin-block", "aria-labelledby": "audit-verify-title" },
      h("h2", { id: "audit-verify-title", text: t("admin.audit.verify_title") }),
      h(
        "form",
        {
          class: "admin-toolbar",
          onsubmit: (/** @type {SubmitEvent} */ event) => {
            event.preventDefault();
            verify();
          },
        },
        field("admin.audit.anchor_head", anchorIn),
        h("button", { type: "submit", class: "btn btn--small", "data-read": "verify", text: t("admin.audit.verify") }),
      ),
      verdict,
      h("h2", { text: t("admin.audit.anchor_title") }),
      h("p", { class: "admin-hint", text: t("admin.audit.anchor_intro") }),
      button(t("admin.audit.anchor"), exportAnchor, { "data-read": "anchor" }),
      anchorOut,
    ),
  );
  load();
  return {
    destroy() {
      gone = true;
    },
  };
}
