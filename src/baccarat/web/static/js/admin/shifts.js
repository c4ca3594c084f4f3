// @ts-check
// Shifts (#/shifts, #/shifts/<id>): the shift manager opens a shift, watches its figures so
// far, and hands it over with an optional note; the hand-over's report (per table and in
// total: rounds dealt and voided, alerts, and for real and demo money apart the bets,
// turnover, paid out and hold) is stored by the server and shown here, with a CSV download.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { saveText } from "./audit.js";
import { call, enc, query } from "./client.js";
import { actButton, button, dataTable, field, heading, show } from "./ui.js";

export const shiftApi = {
  list: () => call("GET", `/api/admin/shifts${query({ limit: 20 })}`),
  get: (/** @type {number} */ id) => call("GET", `/api/admin/shifts/${enc(id)}`),
  csv: (/** @type {number} */ id) => call("GET", `/api/admin/shifts/${enc(id)}?format=csv`, { text: true }),
  open: (/** @type {string | null} */ note) => call("POST", "/api/admin/shifts", { body: note ? { note } : {} }),
  handOver: (/** @type {number} */ id, /** @type {string | null} */ note) =>
    call("POST", `/api/admin/shifts/${enc(id)}/hand-over`, { body: note ? { note } : {} }),
};

/**
 * A hold percentage in words.
 * @param {number | null} percent
 */
const percent = (percent) => (percent === null ? "–" : `${show.num(percent)} %`);

/**
 * A shift's figures per table and in total, for one kind of money.
 * @param {string} caption
 * @param {any} shift
 * @param {"real" | "demo"} kind
 */
export function figuresTable(caption, shift, kind) {
  return dataTable(
    caption,
    [
      {
        key: "admin.col.table",
        name: "table",
        cell: (r) => (r.table_id === "all" ? h("strong", { text: t("admin.shifts.total") }) : r.table_id),
      },
      { key: "admin.shifts.dealt", num: true, cell: (r) => String(r.rounds_dealt) },
      { key: "admin.shifts.voided", num: true, cell: (r) => String(r.rounds_voided) },
      { key: "admin.shifts.alerts", num: true, cell: (r) => String(r.alerts) },
      { key: "admin.shifts.bets", num: true, cell: (r) => String(r[kind].bets) },
      { key: "admin.col.turnover", num: true, name: "turnover", cell: (r) => show.money(r[kind].turnover) },
      { key: "admin.shifts.paid", num: true, name: "paid", cell: (r) => show.money(r[kind].paid_out) },
      { key: "admin.shifts.hold", num: true, name: "hold", cell: (r) => show.money(r[kind].hold) },
      { key: "admin.col.hold", num: true, cell: (r) => percent(r[kind].hold_percent) },
    ],
    [...shift.tables, shift.total],
    { rowProps: (r) => ({ "data-table": r.table_id, "data-money": kind }) },
  );
}

/**
 * Who opened a shift and when, who handed it over, the note.
 * @param {any} shift
 */
function facts(shift) {
  const fact = (/** @type {string} */ key, /** @type {string} */ text, /** @type {string} */ name) =>
    h("div", { "data-fact": name }, h("dt", { text: t(key) }), h("dd", { text }));
  return h(
    "dl",
    { class: "admin-facts" },
    fact(
      "admin.shifts.opened",
      t("admin.shifts.by", { time: show.time(shift.opened_at), name: shift.opened_by }),
      "opened",
    ),
    shift.closed_at &&
      fact(
        "admin.shifts.closed",
        t("admin.shifts.by", { time: show.time(shift.closed_at), name: shift.closed_by }),
        "closed",
      ),
    shift.note && fact("admin.shifts.note", shift.note, "note"),
  );
}

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 * @param {string} [arg]  a shift's id: its report
 */
export function mount(main, ctx, arg) {
  let gone = false;
  const body = h("div", { class: "admin-block" });

  /** @param {any} shift */
  function report(shift) {
    fill(
      body,
      h(
        "section",
        {
          class: "admin-detail",
          "aria-labelledby": "shift-title",
          "data-shift": String(shift.id),
          "data-final": String(shift.final),
        },
        h("h2", {
          id: "shift-title",
          text: t(shift.final ? "admin.shifts.report_title" : "admin.shifts.so_far_title", { id: shift.id }),
        }),
        facts(shift),
        figuresTable(t("admin.shifts.real_caption"), shift, "real"),
        figuresTable(t("admin.shifts.demo_caption"), shift, "demo"),
        h(
          "div",
          { class: "admin-toolbar" },
          button(t("admin.reports.csv"), () => csv(shift.id), { "data-read": "csv" }),
          h("a", { href: "#/shifts", class: "btn btn--small", text: t("admin.shifts.all") }),
        ),
      ),
    );
  }

  /** @param {number} id */
  async function csv(id) {
    try {
      saveText(`shift-${id}.csv`, await shiftApi.csv(id), "text/csv");
    } catch (error) {
      ctx.fail(error);
    }
  }

  /** @param {any} current */
  function currentPanel(current) {
    const note = h("input", { id: "shift-note", name: "note", maxlength: "500", autocomplete: "off" });
    if (!current) {
      return h(
        "form",
        {
          class: "admin-detail admin-toolbar",
          "data-shift": "none",
          onsubmit: async (/** @type {SubmitEvent} */ event) => {
            event.preventDefault();
            try {
              const shift = await shiftApi.open(note.value.trim() || null);
              ctx.say(t("admin.shifts.opened_done", { id: shift.id }));
              load();
            } catch (error) {
              ctx.fail(error);
            }
          },
        },
        h("p", { class: "admin-intro", text: t("admin.shifts.none") }),
        field("admin.shifts.note", note),
        Object.assign(
          actButton(ctx, t("admin.shifts.open"), () => {}, { name: "open-shift" }),
          { type: "submit" },
        ),
      );
    }
    return h(
      "section",
      {
        class: "admin-detail",
        "aria-labelledby": "current-title",
        "data-shift": String(current.id),
        "data-status": "open",
      },
      h("h2", { id: "current-title", text: t("admin.shifts.current_title", { id: current.id }) }),
      facts(current),
      figuresTable(t("admin.shifts.so_far_caption"), current, "real"),
      h(
        "form",
        {
          class: "admin-toolbar",
          onsubmit: async (/** @type {SubmitEvent} */ event) => {
            event.preventDefault();
            try {
              const done = await shiftApi.handOver(current.id, note.value.trim() || null);
              ctx.say(t("admin.shifts.handed_done", { id: done.id }));
              window.location.hash = `#/shifts/${done.id}`;
            } catch (error) {
              ctx.fail(error);
            }
          },
        },
        field("admin.shifts.hand_over_note", note),
        Object.assign(
          actButton(ctx, t("admin.shifts.hand_over"), () => {}, { name: "hand-over" }),
          { type: "submit" },
        ),
      ),
    );
  }

  async function load() {
    try {
      if (arg) {
        const shift = await shiftApi.get(Number(arg));
        if (!gone) report(shift);
        return;
      }
      const { current, shifts } = await shiftApi.list();
      if (gone) return;
      fill(
        body,
        currentPanel(current),
        dataTable(
          t("admin.shifts.list_caption"),
          [
            {
              key: "admin.shifts.shift",
              cell: (s) => h("a", { href: `#/shifts/${s.id}`, text: t("admin.shifts.name", { id: s.id }) }),
            },
            {
              key: "admin.shifts.opened",
              cell: (s) => t("admin.shifts.by", { time: show.time(s.opened_at), name: s.opened_by }),
            },
            {
              key: "admin.shifts.closed",
              cell: (s) =>
                s.closed_at
                  ? t("admin.shifts.by", { time: show.time(s.closed_at), name: s.closed_by })
                  : show.badge("admin.status.open", "open"),
            },
            { key: "admin.col.turnover", num: true, cell: (s) => show.money(s.total.real.turnover) },
            { key: "admin.shifts.hold", num: true, cell: (s) => show.money(s.total.real.hold) },
          ],
          shifts,
          { rowProps: (s) => ({ "data-shift": String(s.id) }), empty: "admin.shifts.empty" },
        ),
      );
    } catch (error) {
      ctx.fail(error);
    }
  }

  main.replaceChildren(...heading("admin.shifts.title", "admin.shifts.intro"), body);
  load();
  return {
    destroy() {
      gone = true;
    },
  };
}
