// @ts-check
// A table's live monitor (#/monitor/<table>): the round in play by name ("Shoe N · Round M"),
// its phase and countdown, and its cards as they are turned, all from the public feed as a
// spectator, so staff see exactly what players see and no card before its reveal; beside it,
// from the admin API, the real-money stakes per spot, the newest settled round's result and
// the table's result for the open shift; and the table's actions (pause, close, open, end the
// shoe now).

import { fill, h } from "../dom.js";
import { cardName } from "../cards.js";
import { t } from "../i18n.js";
import { TableFeed } from "../ws.js";
import { adminApi, call, enc } from "./client.js";
import { actButton, dataTable, heading, select, show, withReason } from "./ui.js";

/** The monitor's feed is a spectator's, whoever else uses this browser: never a ticket. */
class MonitorFeed extends TableFeed {
  async ticket() {
    return null;
  }
}

const SUIT = /** @type {Record<string, string>} */ ({ s: "♠", h: "♥", d: "♦", c: "♣" });

/** @param {string} code  "Td" */
function cardText(code) {
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  return `${rank}${SUIT[code.slice(-1)] ?? code.slice(-1)}`;
}

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 * @param {string} [arg]  the table's id
 */
export function mount(main, ctx, arg) {
  let gone = false;
  /** @type {MonitorFeed | null} */
  let feed = null;
  let offset = 0;
  let shoeNumber = /** @type {number | null} */ (null);
  let round = /** @type {any} */ (null);
  let cards = /** @type {any[]} */ ([]);
  let result = /** @type {any} */ (null);
  let money = /** @type {any} */ (null);
  let asking = false;
  let askAgain = false;

  const picker = select("table_id", [["", t("admin.monitor.choose")]], arg ?? "");
  picker.addEventListener("change", () => {
    window.location.hash = picker.value ? `#/monitor/${encodeURIComponent(picker.value)}` : "#/monitor";
  });
  const stage = h("section", { class: "admin-detail admin-monitor", "aria-labelledby": "monitor-round", hidden: !arg });
  const figures = h("div", { class: "admin-block" });
  const clock = h("span", { class: "admin-monitor__clock", "data-countdown": "" });
  const timer = window.setInterval(tick, 250);

  adminApi
    .tables()
    .then(({ tables }) => {
      for (const { id } of tables) picker.append(h("option", { value: id, selected: id === arg, text: id }));
    })
    .catch(ctx.fail);

  function tick() {
    if (round?.phase !== "open") {
      fill(clock);
      return;
    }
    const left = Math.max(0, Math.ceil((round.closes_at_ms - (Date.now() + offset)) / 1000));
    fill(clock, t("admin.monitor.closes_in", { seconds: left }));
  }

  function drawStage() {
    if (!round) {
      fill(stage, h("h2", { id: "monitor-round", text: t("admin.monitor.no_round") }));
      return;
    }
    const hand = (/** @type {"player" | "banker"} */ side) =>
      h(
        "div",
        { class: "admin-monitor__hand", "data-hand": side },
        h("h3", { text: t(`bet.${side}`) }),
        h(
          "ul",
          { class: "admin-monitor__cards" },
          cards
            .filter((c) => c.hand === side)
            .sort((a, b) => a.position - b.position)
            .map((c) => h("li", { "data-card": c.card, "aria-label": cardName(c.card), text: cardText(c.card) })),
        ),
      );
    fill(
      stage,
      h("h2", {
        id: "monitor-round",
        "data-round": String(round.id),
        text: t("stage.round", { shoe: shoeNumber ?? "–", round: round.number }),
      }),
      h(
        "p",
        { class: "admin-monitor__state" },
        h("span", {
          class: "admin-badge",
          "data-state": round.phase,
          "data-phase": round.phase,
          text: t(`admin.phase.${round.phase}`),
        }),
        " ",
        clock,
      ),
      h("div", { class: "admin-monitor__hands" }, hand("player"), hand("banker")),
      result &&
        h("p", {
          class: "admin-monitor__result",
          "data-winner": result.winner,
          text: t("admin.monitor.result", {
            winner: t(result.winner === "tie" ? "bet.tie" : `bet.${result.winner}`),
            player: result.player_total,
            banker: result.banker_total,
          }),
        }),
    );
    tick();
  }

  /** @param {any} value */
  function roundFigures(value) {
    if (!value) return null;
    return dataTable(
      t("admin.monitor.stakes_caption", { shoe: value.shoe_number ?? "–", round: value.number }),
      [
        { key: "admin.col.spot", cell: (r) => r[0] },
        { key: "admin.monitor.real", num: true, name: "real", cell: (r) => show.money(r[1]) },
        { key: "admin.monitor.demo", num: true, name: "demo", cell: (r) => show.money(r[2]) },
      ],
      [...new Set([...Object.keys(value.stakes), ...Object.keys(value.demo_stakes)])].map((spot) => [
        spot,
        value.stakes[spot] ?? 0,
        value.demo_stakes[spot] ?? 0,
      ]),
      { rowProps: (r) => ({ "data-spot": r[0] }), empty: "admin.monitor.no_stakes" },
    );
  }

  /**
   * @param {any} figures  a result in real money
   * @param {string} key
   */
  function resultLine(figures, key) {
    return h("p", {
      class: "admin-monitor__money",
      "data-result": key,
      text: t(`admin.monitor.${key}`, {
        turnover: show.money(figures.turnover),
        paid: show.money(figures.paid_out),
        hold: show.money(figures.hold),
      }),
    });
  }

  function drawFigures() {
    if (!money) return;
    const shift = money.shift;
    fill(
      figures,
      roundFigures(money.round),
      money.last_settled?.result && resultLine(money.last_settled.result, "last_result"),
      shift
        ? h(
            "div",
            { "data-shift": String(shift.id) },
            h("h2", { text: t("admin.monitor.shift_title", { id: shift.id }) }),
            resultLine(shift.table.real, "shift_result"),
          )
        : h("p", { class: "admin-intro", "data-shift": "none", text: t("admin.shifts.none") }),
    );
  }

  /** The money side, asked again at most one request at a time. */
  async function refresh() {
    if (!arg || gone) return;
    if (asking) {
      askAgain = true;
      return;
    }
    asking = true;
    try {
      money = await call("GET", `/api/admin/monitor/${enc(arg)}`);
      if (!gone) drawFigures();
    } catch (error) {
      if (!gone) ctx.fail(error);
    } finally {
      asking = false;
      if (askAgain && !gone) {
        askAgain = false;
        refresh();
      }
    }
  }

  /** @param {any} table  a snapshot's table */
  function fromSnapshot(table) {
    shoeNumber = table.shoe?.number ?? null;
    round = table.round;
    cards = [...(table.cards ?? [])];
    result = table.result;
  }

  /** @param {any} event */
  function onEvent(event) {
    if (Number.isFinite(event.now)) offset = event.now - Date.now();
    switch (event.type) {
      case "shoe_start":
        shoeNumber = event.shoe?.number ?? shoeNumber;
        break;
      case "round_open":
        round = { id: event.round_id, number: event.number, phase: "open", closes_at_ms: event.closes_at_ms };
        cards = [];
        result = null;
        break;
      case "bets_closed":
        if (round) round = { ...round, phase: "closed" };
        break;
      case "card":
        cards = [...cards, { hand: event.hand, position: event.position, card: event.card }];
        break;
      case "round_result":
        result = event;
        if (round) round = { ...round, phase: "dealt" };
        break;
      case "settled":
        if (round) round = { ...round, phase: "settled" };
        break;
      case "round_void":
        if (round) round = { ...round, phase: "voided" };
        break;
      default:
        if (event.type !== "stakes") return;
    }
    if (event.type !== "stakes") drawStage();
    if (["round_open", "stakes", "bets_closed", "settled", "round_void"].includes(event.type)) refresh();
  }

  /**
   * Pause, close, open, or end the shoe now.
   * @param {"open" | "pause" | "close" | "new-shoe"} action
   */
  function act(action) {
    if (!arg) return;
    const key = action.replace("-", "_");
    withReason(
      ctx,
      t(`admin.tables.${key}_title`, { table: arg }),
      t(`admin.tables.${key}`),
      (reason) => adminApi.setTable(arg, action, reason),
      (answer) =>
        action === "new-shoe"
          ? t("admin.tables.new_shoe_done", { table: answer.id })
          : t("admin.tables.status_done", { table: answer.id, status: t(`admin.status.${answer.status}`) }),
    );
  }

  main.replaceChildren(
    ...heading("admin.monitor.title", "admin.monitor.intro"),
    h(
      "div",
      { class: "admin-toolbar" },
      h("label", { class: "admin-field" }, h("span", { text: t("admin.col.table") }), picker),
    ),
    stage,
    arg &&
      h(
        "div",
        { class: "admin-toolbar", role: "group", "aria-label": t("admin.col.actions") },
        actButton(ctx, t("admin.tables.pause"), () => act("pause"), { name: "pause" }),
        actButton(ctx, t("admin.tables.close"), () => act("close"), { name: "close" }),
        actButton(ctx, t("admin.tables.open"), () => act("open"), { name: "open" }),
        actButton(ctx, t("admin.monitor.new_shoe"), () => act("new-shoe"), { name: "new-shoe" }),
      ),
    figures,
  );
  if (arg) {
    drawStage();
    feed = new MonitorFeed(arg, {
      onSnapshot: (event) => {
        if (Number.isFinite(event.table?.now)) offset = event.table.now - Date.now();
        fromSnapshot(event.table);
        drawStage();
        refresh();
      },
      onEvent,
      onStatus: () => {},
    });
    feed.start();
  }
  return {
    destroy() {
      gone = true;
      window.clearInterval(timer);
      feed?.stop();
    },
  };
}
