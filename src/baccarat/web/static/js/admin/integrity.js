// @ts-check
// Integrity, per table (docs/integrity.md): each outcome's frequency against its exact
// probability, in this shoe and since the monitor started (z, p-value, whether it was tested);
// each player's advantage-play score on the side bets (bets placed where the exact EV for the
// cards left was positive, against what chance gives); and the alerts raised.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { adminApi } from "./client.js";
import { facts } from "./rounds.js";
import { button, dataTable, field, heading, select, show } from "./ui.js";

/**
 * A p-value as people read it: "0.0012", "< 0.0001".
 * @param {number | null | undefined} p
 */
function pValue(p) {
  if (p === null || p === undefined || !Number.isFinite(p)) return "–";
  return p < 0.0001 ? `< ${show.num(0.0001, 4)}` : show.num(p, 4);
}

/** Past this |z| a tested frequency is marked (the monitor's own thresholds raise the alerts). */
const Z_MARK = 3;

/** @param {boolean | null | undefined} yes */
const yesNo = (yes) => t(yes ? "admin.yes" : "admin.no");

/**
 * A score's evidence, folded: each bet kept with its round, stake and the exact EV then.
 * @param {{round: number, stake: number, ev: number, depth: number}[]} bets
 */
function evidence(bets) {
  if (bets.length === 0) return "–";
  return h(
    "details",
    { class: "admin-details" },
    h("summary", { text: t("admin.integrity.evidence", { count: bets.length }) }),
    h(
      "ul",
      { class: "admin-evidence" },
      bets.map((bet) =>
        h("li", {
          text: t("admin.integrity.evidence_bet", {
            round: bet.round,
            stake: show.money(bet.stake),
            ev: `${bet.ev > 0 ? "+" : ""}${show.num(bet.ev * 100)} %`,
            left: bet.depth,
          }),
        }),
      ),
    ),
  );
}

/**
 * One scope's frequencies, folded away unless `open` (a shoe has some sixty events).
 * @param {string} caption
 * @param {any[]} stats
 * @param {boolean} open
 */
function frequencies(caption, stats, open) {
  const flagged = stats.filter((s) => s.tested && Number.isFinite(s.z) && Math.abs(s.z) >= Z_MARK).length;
  const table = dataTable(
    caption,
    [
      { key: "admin.col.event", name: "event", cell: (s) => h("code", { text: s.event }) },
      { key: "admin.col.trials", num: true, cell: (s) => String(s.trials) },
      { key: "admin.col.observed", num: true, cell: (s) => String(s.observed) },
      { key: "admin.col.expected", num: true, cell: (s) => show.num(s.expected) },
      { key: "admin.col.z", num: true, cell: (s) => show.num(s.z) },
      { key: "admin.col.p", num: true, cell: (s) => pValue(s.p_value) },
      { key: "admin.col.tested", cell: (s) => yesNo(s.tested) },
    ],
    stats,
    { rowProps: (s) => ({ "data-flag": s.tested && Math.abs(s.z) >= Z_MARK ? "z" : null }) },
  );
  return h(
    "details",
    { class: "admin-details", open },
    h("summary", { text: t("admin.integrity.events", { scope: caption, count: stats.length, flagged }) }),
    table,
  );
}

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 * @param {string} [arg]  a table id
 */
export function mount(main, ctx, arg) {
  let gone = false;
  const table = select("table_id", []);
  const body = h("div", { class: "admin-block" });

  async function load() {
    if (!table.value) return;
    try {
      const view = await adminApi.integrity(table.value);
      if (gone) return;
      fill(
        body,
        facts([
          ["admin.col.ruleset", view.ruleset ?? "–"],
          ["admin.integrity.rounds", String(view.rounds)],
          ["admin.integrity.shoes", String(view.shoes ?? "–")],
          ["admin.col.shoe", show.id(view.shoe)],
          [
            "admin.integrity.open_alerts",
            h("span", { "data-open-alerts": String(view.open_alerts.length), text: String(view.open_alerts.length) }),
          ],
        ]),
        dataTable(
          t("admin.integrity.alerts"),
          [
            { key: "admin.col.time", cell: (a) => show.time(a.raised_at) },
            { key: "admin.col.kind", cell: (a) => h("code", { text: a.kind }) },
            { key: "admin.col.subject", cell: (a) => a.subject },
            { key: "admin.col.scope", cell: (a) => a.scope },
            { key: "admin.col.z", num: true, cell: (a) => show.num(a.z) },
            { key: "admin.col.p", num: true, cell: (a) => pValue(a.p_value) },
            { key: "admin.col.round", cell: (a) => (a.round_id ? `#${a.round_id}` : "–") },
          ],
          view.alerts,
          { empty: "admin.integrity.no_alerts" },
        ),
        dataTable(
          t("admin.integrity.players"),
          [
            { key: "admin.col.player", cell: (s) => show.player(s.player) },
            { key: "admin.col.bet", cell: (s) => s.bet },
            { key: "admin.col.bets", num: true, cell: (s) => String(s.bets) },
            {
              key: "admin.col.positive",
              num: true,
              cell: (s) => `${s.positive} / ${show.num(s.expected_positive, 1)}`,
            },
            { key: "admin.col.share", num: true, cell: (s) => `${show.num(s.share)} / ${show.num(s.expected_share)}` },
            { key: "admin.col.z", num: true, cell: (s) => show.num(s.gain_z) },
            { key: "admin.col.p", num: true, cell: (s) => pValue(s.p_value) },
            {
              key: "admin.col.flagged",
              cell: (s) => (s.flagged ? show.badge("admin.integrity.flagged", "alert") : yesNo(false)),
            },
            { key: "admin.col.evidence", cell: (s) => evidence(s.evidence ?? []) },
          ],
          view.players,
          { empty: "admin.integrity.no_players", rowProps: (s) => ({ "data-flag": s.flagged ? "alert" : null }) },
        ),
        frequencies(t("admin.integrity.shoe"), view.frequencies?.shoe ?? [], true),
        frequencies(t("admin.integrity.cumulative"), view.frequencies?.cumulative ?? [], false),
      );
    } catch (error) {
      ctx.fail(error);
    }
  }

  adminApi
    .tables()
    .then(({ tables }) => {
      for (const { id } of tables) table.append(h("option", { value: id, text: id, selected: id === arg }));
      load();
    })
    .catch(ctx.fail);

  main.replaceChildren(
    ...heading("admin.integrity.title", "admin.integrity.intro"),
    h("div", { class: "admin-toolbar" }, field("admin.col.table", table), button(t("admin.refresh"), load)),
    body,
  );
  table.addEventListener("change", load);
  return {
    destroy() {
      gone = true;
    },
  };
}
