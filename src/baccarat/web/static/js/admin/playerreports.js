// @ts-check
// The per-player report (#/reports/players, or #/reports/players/<id> from a player's page):
// over a period, each player's rounds, bets, stakes, returns, result and last settled bet
// (CSV), and the top winners and losers of real money.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { saveText } from "./audit.js";
import { call, query } from "./client.js";
import { button, dataTable, field, heading, select, show } from "./ui.js";

/**
 * The columns of a player's row.
 * @returns {import("./ui.js").Column[]}
 */
function columns() {
  return [
    { key: "admin.col.player", name: "player", cell: (r) => show.player(r.player_id) },
    { key: "admin.col.username", cell: (r) => r.username ?? (r.demo ? t("admin.players.guest") : "–") },
    { key: "admin.col.rounds", num: true, cell: (r) => String(r.rounds) },
    { key: "admin.players_report.bets", num: true, cell: (r) => String(r.bets) },
    { key: "admin.col.staked", num: true, name: "stakes", cell: (r) => show.money(r.stakes) },
    { key: "admin.col.returned", num: true, name: "returns", cell: (r) => show.money(r.returns) },
    { key: "admin.col.net", num: true, name: "result", cell: (r) => show.money(r.result) },
    { key: "admin.players_report.last_seen", cell: (r) => show.time(r.last_seen) },
  ];
}

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 * @param {string} [playerId]  one player only
 */
export function mount(main, ctx, playerId) {
  let gone = false;
  const since = h("input", { name: "since", type: "date" });
  const until = h("input", { name: "until", type: "date" });
  const money = select("money", [
    ["real", t("admin.reports.real")],
    ["demo", t("admin.reports.demo")],
    ["all", t("admin.reports.all")],
  ]);
  const list = h("div", { class: "admin-block" });
  const top = h("div", { class: "admin-block" });
  const filters = () => ({ since: since.value, until: until.value, money: money.value, player_id: playerId ?? "" });

  async function load() {
    try {
      const [report, best] = await Promise.all([
        call("GET", `/api/admin/reports/players${query(filters())}`),
        playerId ? null : call("GET", `/api/admin/reports/top${query({ since: since.value, until: until.value })}`),
      ]);
      if (gone) return;
      const caption = t("admin.players_report.caption", {
        since: report.since,
        until: report.until,
        money: t(`admin.reports.${report.money}`),
      });
      fill(list, dataTable(caption, columns(), report.rows, { rowProps: (r) => ({ "data-player": r.player_id }) }));
      if (best) {
        fill(
          top,
          dataTable(t("admin.players_report.winners"), columns(), best.winners, {
            rowProps: (r) => ({ "data-winner": r.player_id }),
          }),
          dataTable(t("admin.players_report.losers"), columns(), best.losers, {
            rowProps: (r) => ({ "data-loser": r.player_id }),
          }),
        );
      }
    } catch (error) {
      ctx.fail(error);
    }
  }

  async function csv() {
    try {
      const text = await call("GET", `/api/admin/reports/players${query({ ...filters(), format: "csv" })}`, {
        text: true,
      });
      saveText(`players-${since.value || "week"}-${until.value || "today"}.csv`, text, "text/csv");
    } catch (error) {
      ctx.fail(error);
    }
  }

  main.replaceChildren(
    ...heading("admin.players_report.title", "admin.players_report.intro"),
    playerId ? h("p", null, t("admin.players_report.one"), " ", show.player(playerId)) : "",
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
      field("admin.reports.money", money),
      h("button", { type: "submit", class: "btn btn--small", text: t("admin.reports.run") }),
      button(t("admin.reports.csv"), csv, { "data-read": "csv" }),
    ),
    list,
    top,
  );
  load();
  return {
    destroy() {
      gone = true;
    },
  };
}
