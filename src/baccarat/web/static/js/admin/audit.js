// @ts-check
// The audit log: browse the chain (the latest records, or from the start filtered by who or
// what), verify every record's hash and link (and, given an anchor, that it still holds), and
// export the anchor: the chain's head now, a line to keep outside the database.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { adminApi } from "./client.js";
import { button, dataTable, field, heading, show } from "./ui.js";

/**
 * A record's details as "key: value" lines (nested values as JSON).
 * @param {Record<string, unknown>} details
 */
function detailLines(details) {
  return h(
    "dl",
    { class: "admin-kv" },
    Object.entries(details).map(([key, value]) =>
      h(
        "div",
        null,
        h("dt", { text: key }),
        h("dd", { text: typeof value === "string" ? value : JSON.stringify(value) }),
      ),
    ),
  );
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
  let after = null;
  const actor = h("input", { name: "actor", maxlength: "100", placeholder: "staff:", autocomplete: "off" });
  const action = h("input", { name: "action", maxlength: "40", placeholder: "round_void", autocomplete: "off" });
  const anchorIn = h("input", { name: "anchor", maxlength: "64", pattern: "[0-9a-f]{64}", autocomplete: "off" });
  const list = h("div", { class: "admin-block" });
  const more = button(t("admin.audit.more"), () => load(true), { hidden: true });
  const verdict = h("div", { class: "admin-block", "aria-live": "polite" });
  const anchorOut = h("div", { class: "admin-block" });

  /** @param {boolean} [next] */
  async function load(next = false) {
    try {
      let start = next ? after : 0;
      // Unfiltered, the page opens on the latest records: the head's seq says where they are.
      if (!next && !actor.value && !action.value) {
        const head = await adminApi.anchor().catch(() => null);
        start = head ? Math.max(0, head.seq - PAGE) : 0;
      }
      const page = await adminApi.audit({
        after_seq: start,
        limit: PAGE,
        actor: actor.value.trim(),
        action: action.value.trim(),
      });
      if (gone) return;
      shown = next ? [...shown, ...page.records] : page.records;
      after = page.next_after;
      more.hidden = after === null || page.records.length < PAGE;
      fill(
        list,
        dataTable(
          t("admin.audit.caption"),
          [
            { key: "admin.col.seq", num: true, cell: (r) => String(r.seq) },
            { key: "admin.col.time", cell: (r) => show.time(r.time) },
            { key: "admin.col.actor", name: "actor", cell: (r) => r.actor },
            { key: "admin.col.action", name: "action", cell: (r) => h("code", { text: r.action }) },
            { key: "admin.col.details", name: "details", cell: (r) => detailLines(r.details) },
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
      field("admin.col.actor", actor),
      field("admin.col.action", action),
      h("button", { type: "submit", class: "btn btn--small", text: t("admin.find") }),
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
