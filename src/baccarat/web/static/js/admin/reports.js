// @ts-check
// Reports: per table, UTC day (or hour) and bet, the turnover, gross gaming revenue and hold,
// beside the theoretical hold (each bet's exact house edge × its turnover) and the z-score of
// the difference, so a result that luck does not explain stands out (|z| ≥ 3). CSV download.
// #/reports/players[/<id>] is the per-player report (playerreports.js).

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { saveText } from "./audit.js";
import { adminApi } from "./client.js";
import { mount as playerReports } from "./playerreports.js";
import { button, dataTable, field, heading, select, show } from "./ui.js";

/** Past this |z| a row is marked: a result luck explains less than once in 370 days. */
const Z_MARK = 3;

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 * @param {string} [arg]  "players" or "players/<id>": the per-player report
 */
export function mount(main, ctx, arg) {
  if (arg?.startsWith("players")) return playerReports(main, ctx, arg.slice("players/".length) || undefined);
  let gone = false;
  const since = h("input", { name: "since", type: "date" });
  const until = h("input", { name: "until", type: "date" });
  const table = select("table_id", [["", t("admin.all_tables")]]);
  const money = select("money", [
    ["real", t("admin.reports.real")],
    ["demo", t("admin.reports.demo")],
    ["all", t("admin.reports.all")],
  ]);
  const granularity = select("granularity", [
    ["day", t("admin.reports.by_day")],
    ["hour", t("admin.reports.by_hour")],
  ]);
  const list = h("div", { class: "admin-block" });

  adminApi
    .tables()
    .then(({ tables }) => {
      for (const { id } of tables) table.append(h("option", { value: id, text: id }));
    })
    .catch(ctx.fail);

  const filters = () => ({
    since: since.value,
    until: until.value,
    table_id: table.value,
    money: money.value,
    granularity: granularity.value,
  });

  async function load() {
    try {
      const report = await adminApi.report(filters());
      if (gone) return;
      fill(
        list,
        dataTable(
          t("admin.reports.caption", {
            since: report.since,
            until: report.until,
            money: t(`admin.reports.${report.money}`),
          }),
          [
            { key: "admin.col.table", cell: (r) => r.table_id },
            {
              key: "admin.col.day",
              name: "day",
              cell: (r) => (r.hour === null ? r.day : `${r.day} ${String(r.hour).padStart(2, "0")}:00`),
            },
            {
              key: "admin.col.bet",
              name: "bet",
              cell: (r) => (r.bet === "all" ? h("strong", { text: t("admin.reports.all_bets") }) : r.bet),
            },
            { key: "admin.col.rounds", num: true, cell: (r) => String(r.rounds) },
            { key: "admin.col.turnover", num: true, name: "turnover", cell: (r) => show.money(r.turnover) },
            { key: "admin.col.ggr", num: true, name: "ggr", cell: (r) => show.money(r.ggr) },
            {
              key: "admin.col.hold",
              num: true,
              cell: (r) => (r.hold_percent === null ? "–" : `${show.num(r.hold_percent)} %`),
            },
            {
              key: "admin.col.theoretical",
              num: true,
              name: "theoretical",
              cell: (r) => show.money(r.theoretical_hold),
            },
            {
              key: "admin.col.edge",
              num: true,
              cell: (r) => (r.edge_percent === null ? "–" : `${show.num(r.edge_percent, 4)} %`),
            },
            { key: "admin.col.z", num: true, name: "z", cell: (r) => show.num(r.z) },
          ],
          report.rows,
          {
            empty: "admin.reports.empty",
            rowProps: (r) => ({
              "data-bet": r.bet,
              "data-hour": r.hour === null ? null : String(r.hour),
              "data-flag": r.z !== null && Math.abs(r.z) >= Z_MARK ? "z" : null,
              title: r.z !== null && Math.abs(r.z) >= Z_MARK ? t("admin.reports.z_flag") : null,
            }),
          },
        ),
      );
    } catch (error) {
      ctx.fail(error);
    }
  }

  async function csv() {
    try {
      const text = await adminApi.reportCsv(filters());
      saveText(`report-${since.value || "week"}-${until.value || "today"}.csv`, text, "text/csv");
    } catch (error) {
      ctx.fail(error);
    }
  }

  main.replaceChildren(
    ...heading("admin.reports.title", "admin.reports.intro"),
    h(
      "form",
      {
        class: "admin-toolbar",
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          load();
        },
      },
      field("admin.reports.since", since),
      field("admin.reports.until", until),
      field("admin.col.table", table),
      field("admin.reports.money", money),
      field("admin.reports.granularity", granularity),
      h("button", { type: "submit", class: "btn btn--small", text: t("admin.reports.run") }),
      button(t("admin.reports.csv"), csv, { "data-read": "csv" }),
    ),
    list,
    h("p", null, h("a", { href: "#/reports/players", text: t("admin.reports.players_link") })),
  );
  load();
  return {
    destroy() {
      gone = true;
    },
  };
}
