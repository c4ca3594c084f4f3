// @ts-check
// Rounds: find them (by table, newest first, or by id), see every bet of one round, and void a
// round whose cards are not drawn yet, with a reason: every stake goes back (audited).

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { adminApi } from "./client.js";
import { actButton, button, dataTable, field, heading, select, show, withReason } from "./ui.js";

/** Phases a round can still be voided in: its cards are not drawn. */
const VOIDABLE = new Set(["open", "closed"]);

/**
 * A definition list of facts: [key, value] pairs.
 * @param {[string, import("../dom.js").Kid][]} facts
 */
export function facts(facts) {
  return h(
    "dl",
    { class: "admin-facts" },
    facts.map(([key, value]) => h("div", null, h("dt", { text: t(key) }), h("dd", null, value))),
  );
}

/**
 * The start of a UTC day (a date field's "2026-12-01"), `after` days later, as ISO 8601; null
 * for an empty field. The last day chosen is included: the range ends where the next day starts.
 * @param {string} day
 * @param {number} [after]
 * @returns {string | null}
 */
export function dayStart(day, after = 0) {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) ? new Date(ms + after * 86_400_000).toISOString() : null;
}

/**
 * A round as staff find it, by its server-wide id, and as players name it beside it: "#240",
 * "Shoe 2 · Round 1" (its shoe's number at the table and its number in that shoe).
 * @param {any} round
 * @returns {import("../dom.js").Kid[]}
 */
function roundName(round) {
  const named = t("stage.round", { shoe: round.shoe_number ?? "–", round: round.number });
  return [`#${round.id} `, h("span", { class: "admin-round-name", text: named })];
}

/** @param {any} round */
function winner(round) {
  return round.winner ? t(`admin.winner.${round.winner}`) : "–";
}

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 * @param {string} [arg]  a round id to open at once
 */
export function mount(main, ctx, arg) {
  let gone = false;
  /** @type {number | null} */
  let before = null;
  /** @type {any[]} */
  let shown = [];
  const table = select("table_id", [["", t("admin.all_tables")]]);
  const roundId = h("input", { name: "round_id", type: "number", min: "1", inputmode: "numeric" });
  const since = h("input", { name: "since", type: "date" });
  const until = h("input", { name: "until", type: "date" });
  const detail = h("section", {
    class: "admin-block admin-detail",
    "aria-labelledby": "round-detail-title",
    hidden: true,
  });
  const list = h("div", { class: "admin-block" });
  const more = button(t("admin.older"), () => find(true), { hidden: true });

  adminApi
    .tables()
    .then(({ tables }) => {
      for (const { id } of tables) table.append(h("option", { value: id, text: id }));
    })
    .catch(ctx.fail);

  /** @param {boolean} [older] */
  async function find(older = false) {
    try {
      const page = await adminApi.rounds({
        table_id: table.value,
        since: dayStart(since.value),
        until: dayStart(until.value, 1),
        before_id: older ? before : null,
        limit: 20,
      });
      if (gone) return;
      shown = older ? [...shown, ...page.rounds] : page.rounds;
      before = page.next_before;
      more.hidden = before === null;
      fill(list, roundList(shown));
    } catch (error) {
      ctx.fail(error);
    }
  }

  /** @param {any[]} rounds */
  function roundList(rounds) {
    return dataTable(
      t("admin.rounds.caption"),
      [
        { key: "admin.col.round", name: "id", cell: roundName },
        { key: "admin.col.table", cell: (r) => r.table_id },
        { key: "admin.col.coup", num: true, cell: (r) => String(r.number) },
        { key: "admin.col.phase", name: "phase", cell: (r) => show.badge(`admin.phase.${r.phase}`, r.phase) },
        { key: "admin.col.opened", cell: (r) => show.time(r.opened_at) },
        { key: "admin.col.result", cell: winner },
        { key: "admin.col.cards", cell: (r) => r.cards.map((/** @type {any} */ c) => c.card).join(" ") || "–" },
        { key: "admin.col.void_reason", cell: (r) => r.void_reason ?? "–" },
        {
          key: "admin.col.actions",
          cell: (r) =>
            button(t("admin.rounds.bets"), () => open(r.id), {
              "aria-label": t("admin.rounds.bets_of", { id: r.id }),
              "data-round": String(r.id),
            }),
        },
      ],
      rounds,
      { rowProps: (r) => ({ "data-round": String(r.id) }) },
    );
  }

  /** @param {number} id */
  async function open(id) {
    try {
      const { round, bets } = await adminApi.round(id);
      if (gone) return;
      const staked = bets.reduce((/** @type {number} */ sum, /** @type {any} */ b) => sum + b.stake, 0);
      const title = h("h2", {
        id: "round-detail-title",
        tabindex: "-1",
        text: t("admin.rounds.detail", { id: round.id, table: round.table_id }),
      });
      fill(
        detail,
        title,
        facts([
          ["admin.col.round", roundName(round)],
          ["admin.col.phase", show.badge(`admin.phase.${round.phase}`, round.phase)],
          ["admin.col.shoe", show.id(round.shoe_id)],
          ["admin.col.coup", String(round.number)],
          ["admin.col.opened", show.time(round.opened_at)],
          ["admin.col.finished", show.time(round.finished_at)],
          ["admin.col.cards", round.cards.map((/** @type {any} */ c) => c.card).join(" ") || "–"],
          ["admin.col.result", winner(round)],
          ["admin.col.void_reason", round.void_reason ?? "–"],
          ["admin.rounds.staked", show.money(staked)],
        ]),
        dataTable(
          t("admin.rounds.bets_caption", { id: round.id }),
          [
            { key: "admin.col.player", cell: (b) => show.player(b.player_id) },
            { key: "admin.col.spot", name: "spot", cell: (b) => b.spot },
            { key: "admin.col.stake", num: true, name: "stake", cell: (b) => show.money(b.stake) },
            { key: "admin.col.placed", cell: (b) => show.time(b.placed_at) },
            {
              key: "admin.col.outcome",
              name: "outcome",
              cell: (b) => (b.outcome ? t(`admin.outcome.${b.outcome}`) : "–"),
            },
            { key: "admin.col.returned", num: true, cell: (b) => show.money(b.returned) },
          ],
          bets,
          { empty: "admin.rounds.no_bets" },
        ),
        h(
          "div",
          { class: "admin-actions" },
          button(t("admin.refresh"), () => open(round.id)),
          actButton(ctx, t("admin.rounds.void"), () => voidRound(round), {
            name: "void",
            danger: true,
            enabled: VOIDABLE.has(round.phase),
          }),
        ),
        !VOIDABLE.has(round.phase) && h("p", { class: "admin-hint", text: t("admin.rounds.not_voidable") }),
      );
      detail.hidden = false;
      title.focus();
    } catch (error) {
      ctx.fail(error);
    }
  }

  /** @param {any} round */
  function voidRound(round) {
    withReason(
      ctx,
      t("admin.rounds.void_title", { id: round.id, table: round.table_id }),
      t("admin.rounds.void"),
      (reason) => adminApi.voidRound(round.id, reason),
      (answer) => {
        const amounts = Object.values(answer.returned);
        return t("admin.rounds.void_done", {
          id: answer.round.id,
          amount: show.money(amounts.reduce((sum, v) => sum + Number(v), 0)),
          count: amounts.length,
        });
      },
    ).then((answer) => {
      if (!answer) return;
      open(round.id);
      find();
    });
  }

  main.replaceChildren(
    ...heading("admin.rounds.title", "admin.rounds.intro"),
    h(
      "form",
      {
        class: "admin-toolbar",
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          if (roundId.value) open(Number(roundId.value));
          else find();
        },
      },
      field("admin.col.table", table),
      field("admin.rounds.since", since),
      field("admin.rounds.until", until),
      field("admin.rounds.round_id", roundId),
      h("button", { type: "submit", class: "btn btn--small", text: t("admin.find") }),
    ),
    detail,
    list,
    more,
  );
  table.addEventListener("change", () => find());
  find();
  if (arg && /^\d+$/.test(arg)) open(Number(arg));
  return {
    destroy() {
      gone = true;
    },
  };
}
