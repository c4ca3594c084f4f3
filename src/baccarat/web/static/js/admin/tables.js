// @ts-check
// Tables: each one's status (open, paused, closed), the round in play, its rules, limits and
// timings, who watches and who bets; open, pause and close it, or end its shoe; change its
// limits from the next round, or its rule set, a bet's limits, dealing and timings for the
// next shoe. Every change asks for a reason.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { adminApi } from "./client.js";
import { WordedError, actButton, button, dataTable, field, heading, select, show, withReason } from "./ui.js";

/** How often the list is read again while shown. */
const REFRESH_MS = 5000;

/** The built-in rule sets a table can change to (baccarat.rulesets.BUILTIN_RULESETS). */
const RULESETS = ["standard", "no-commission", "ez", "tie-9"];

/**
 * What waits for the next shoe, flattened: "ruleset: ez · betting_ms: 20000".
 * @param {Record<string, any> | null} pending
 * @returns {string}
 */
export function flat(pending) {
  if (!pending) return "–";
  /** @type {string[]} */
  const parts = [];
  if (pending.new_shoe) parts.push(t("admin.tables.pending_new_shoe"));
  /**
   * @param {string} prefix
   * @param {any} value
   */
  const walk = (prefix, value) => {
    if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) walk(prefix ? `${prefix}.${key}` : key, inner);
    } else parts.push(`${prefix}: ${value}`);
  };
  walk("", pending);
  return parts.join(" · ") || "–";
}

/**
 * What waits for the next shoe, in words: only what differs from now (the pending limits list
 * every bet; those unchanged are left out). "rule set ez · tie $1.00 to $500.00 · bets 9 s".
 * @param {Record<string, any> | null} pending
 * @param {string} ruleset  the rule set now
 * @param {Record<string, {min_stake: number, max_stake: number}>} offered  the bets' limits now
 * @returns {string}
 */
export function pendingText(pending, ruleset, offered) {
  if (!pending) return "–";
  /** @type {string[]} */
  const parts = [];
  if (pending.new_shoe) parts.push(t("admin.tables.pending_new_shoe"));
  if (pending.ruleset && pending.ruleset !== ruleset)
    parts.push(t("admin.tables.pending_ruleset", { name: pending.ruleset }));
  for (const [bet, limits] of Object.entries(pending.limits ?? {})) {
    const now = offered[bet];
    if (now && now.min_stake === limits.min_stake && now.max_stake === limits.max_stake) continue;
    parts.push(
      t("admin.tables.bet_limits", { bet, min: show.money(limits.min_stake), max: show.money(limits.max_stake) }),
    );
  }
  for (const [key, value] of Object.entries(pending.settings ?? {})) {
    if (key === "dealing") parts.push(t(`admin.dealing.${value}`));
    else if (key === "betting_ms") parts.push(t("admin.tables.pending_betting", { s: show.num(value / 1000, 0) }));
    else if (key === "reveal_ms" || key === "result_ms") parts.push(t(`admin.tables.pending_${key}`, { ms: value }));
    else if (key !== "table_id" && key !== "ruleset") parts.push(`${key}: ${value}`);
  }
  return parts.join(" · ") || t("admin.tables.pending_same");
}

/**
 * An amount typed in major units ("12.50") as minor units, or null; `digits` is the money's
 * minor-unit exponent (2: hundredths; 0: whole units, as rupiah count).
 * @param {string} text
 * @param {number} [digits]
 * @returns {number | null}
 */
export function minorOf(text, digits = 2) {
  const fraction = digits > 0 ? `(?:[.,](\\d{1,${digits}}))?` : "";
  const match = new RegExp(`^\\s*(\\d{1,${11 - digits}})${fraction}\\s*$`).exec(text);
  if (!match) return null;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? "").padEnd(digits, "0") || "0");
}

/**
 * Minor units as the amount a person types: 1250 → "12.50" (2 digits), 10000 → "10000" (0).
 * @param {number} minor
 * @param {number} digits
 * @returns {string}
 */
export function decimalOf(minor, digits) {
  if (!digits) return String(minor);
  const unit = 10 ** digits;
  return `${Math.trunc(minor / unit)}.${String(minor % unit).padStart(digits, "0")}`;
}

/**
 * The table's limits in words: "$1.00 to $10,000.00".
 * @param {{min_stake?: number, max_stake?: number, min?: number, max?: number} | null | undefined} limits
 * @returns {string}
 */
export function rangeText(limits) {
  if (!limits) return "–";
  const min = limits.min_stake ?? limits.min;
  const max = limits.max_stake ?? limits.max;
  return t("admin.tables.range", { min: show.money(min), max: show.money(max) });
}

/**
 * The limits waiting for the next round, in words: "$2.00 to $500.00 · tie up to $50.00".
 * @param {{min_stake: number, max_stake: number, bets?: Record<string, {max_stake: number}>} | null} pending
 * @returns {string}
 */
export function pendingLimitsText(pending) {
  if (!pending) return "";
  const parts = [rangeText(pending)];
  for (const [bet, own] of Object.entries(pending.bets ?? {}))
    parts.push(t("admin.tables.bet_max", { bet, max: show.money(own.max_stake) }));
  return t("admin.tables.next_round", { limits: parts.join(" · ") });
}

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 */
export function mount(main, ctx) {
  let gone = false;
  const list = h("div", { class: "admin-block", "aria-live": "off" });
  const form = h("div", { class: "admin-block" });
  const limitsForm = h("div", { class: "admin-block" });

  async function load() {
    try {
      const { tables } = await adminApi.tables();
      const [audiences, views] = await Promise.all([
        Promise.all(tables.map((/** @type {any} */ table) => adminApi.audience(table.id))),
        Promise.all(tables.map((/** @type {any} */ table) => adminApi.publicTable(table.id).catch(() => ({})))),
      ]);
      if (gone) return;
      const rows = tables.map((/** @type {any} */ table, /** @type {number} */ i) => ({
        ...table,
        audience: audiences[i],
        offered: views[i].bets ?? {},
        limitsNow: views[i].limits ?? null,
      }));
      fill(list, tableList(rows));
      if (!limitsForm.firstChild) fill(limitsForm, limitsChange(rows));
      if (!form.firstChild) fill(form, changeForm(rows));
    } catch (error) {
      ctx.fail(error);
    }
  }

  /**
   * Open, pause or close the table, or end its shoe after the round in play.
   * @param {any} table
   * @param {"open" | "pause" | "close" | "new-shoe"} action
   */
  function act(table, action) {
    const key = action.replace("-", "_");
    withReason(
      ctx,
      t(`admin.tables.${key}_title`, { table: table.id }),
      t(`admin.tables.${key}`),
      (reason) => adminApi.setTable(table.id, action, reason),
      (answer) =>
        action === "new-shoe"
          ? t("admin.tables.new_shoe_done", { table: answer.id })
          : t("admin.tables.status_done", { table: answer.id, status: t(`admin.status.${answer.status}`) }),
    ).then(async (answer) => {
      if (!answer) return;
      await load();
      // The button pressed may be disabled now: the focus stays in the table's row.
      const row = list.querySelector(`tr[data-table="${CSS.escape(table.id)}"]`);
      /** @type {HTMLElement | null} */ (row?.querySelector("[data-act]:not(:disabled)") ?? null)?.focus();
    });
  }

  /** @param {any[]} rows */
  function tableList(rows) {
    return dataTable(
      t("admin.tables.caption"),
      [
        { key: "admin.col.table", cell: (r) => h("strong", { text: r.id }) },
        { key: "admin.col.status", name: "status", cell: (r) => show.badge(`admin.status.${r.status}`, r.status) },
        {
          key: "admin.col.round",
          name: "round",
          cell: (r) => (r.round_id ? [`#${r.round_id} `, show.badge(`admin.phase.${r.phase}`, r.phase)] : "–"),
        },
        { key: "admin.col.ruleset", cell: (r) => r.ruleset },
        {
          key: "admin.col.limits",
          name: "limits",
          cell: (r) => [
            rangeText(r.limitsNow),
            r.pending_limits
              ? h("div", { class: "admin-hint", "data-pending": "limits", text: pendingLimitsText(r.pending_limits) })
              : null,
          ],
        },
        { key: "admin.col.dealing", cell: (r) => t(`admin.dealing.${r.settings?.dealing ?? "face-up"}`) },
        {
          key: "admin.col.timings",
          cell: (r) =>
            t("admin.tables.timings", {
              betting: show.num((r.settings?.betting_ms ?? 0) / 1000, 0),
              reveal: r.settings?.reveal_ms ?? "–",
              result: r.settings?.result_ms ?? "–",
            }),
        },
        {
          key: "admin.col.watching",
          num: true,
          name: "watching",
          cell: (r) => String(r.audience?.watching ?? r.watching),
        },
        {
          key: "admin.col.betting",
          num: true,
          name: "betting",
          cell: (r) => String(Object.keys(r.audience?.bettors ?? {}).length),
        },
        { key: "admin.col.next_shoe", name: "next-shoe", cell: (r) => pendingText(r.pending, r.ruleset, r.offered) },
        {
          key: "admin.col.actions",
          cell: (r) =>
            h(
              "div",
              { class: "admin-actions" },
              actButton(ctx, t("admin.tables.open"), () => act(r, "open"), {
                name: "open",
                enabled: r.status !== "open",
              }),
              actButton(ctx, t("admin.tables.pause"), () => act(r, "pause"), {
                name: "pause",
                enabled: r.status === "open",
              }),
              actButton(ctx, t("admin.tables.close"), () => act(r, "close"), {
                name: "close",
                danger: true,
                enabled: r.status !== "closed",
              }),
              actButton(ctx, t("admin.tables.new_shoe"), () => act(r, "new-shoe"), {
                name: "new-shoe",
                enabled: !r.pending?.new_shoe,
              }),
            ),
        },
      ],
      rows,
      { rowProps: (r) => ({ "data-table": r.id }) },
    );
  }

  /**
   * The table's limits from its next round: minimum and maximum, and a lower maximum for a bet.
   * @param {any[]} rows
   */
  function limitsChange(rows) {
    const table = select(
      "table",
      rows.map((r) => [r.id, r.id]),
    );
    const min = h("input", { name: "table_min", inputmode: "decimal", autocomplete: "off" });
    const max = h("input", { name: "table_max", inputmode: "decimal", autocomplete: "off" });
    const bet = select("limit_bet", [["", t("admin.tables.no_bet")]]);
    const betMax = h("input", { name: "bet_max", inputmode: "decimal", autocomplete: "off" });
    let digits = 2;
    // The limits players see now, and the money's exponent: the fields start from them.
    const readTable = async () => {
      /** @type {any} */
      let view = {};
      try {
        view = await adminApi.publicTable(table.value);
      } catch (error) {
        ctx.fail(error);
      }
      digits = Number.isInteger(view.ruleset?.minor_unit) ? view.ruleset.minor_unit : 2;
      min.value = view.limits ? decimalOf(view.limits.min, digits) : "";
      max.value = view.limits ? decimalOf(view.limits.max, digits) : "";
      fill(
        bet,
        h("option", { value: "", text: t("admin.tables.no_bet") }),
        Object.entries(view.bets ?? {}).map(([name, offer]) =>
          h("option", {
            value: name,
            text: t("admin.tables.bet_limits", {
              bet: name,
              min: show.money(/** @type {any} */ (offer).min_stake),
              max: show.money(/** @type {any} */ (offer).max_stake),
            }),
          }),
        ),
      );
      betMax.value = "";
    };
    table.addEventListener("change", readTable);
    readTable();
    const fieldset = h(
      "fieldset",
      { class: "admin-form", disabled: !ctx.act },
      h("legend", { text: t("admin.tables.limits_title") }),
      h("p", { class: "admin-hint", text: t(ctx.act ? "admin.tables.limits_intro" : "admin.read_only") }),
      h(
        "div",
        { class: "admin-form__row" },
        field("admin.col.table", table),
        field("admin.tables.table_min", min),
        field("admin.tables.table_max", max),
      ),
      h(
        "div",
        { class: "admin-form__row" },
        field("admin.tables.limit_bet", bet),
        field("admin.tables.bet_max_field", betMax),
      ),
      h("button", {
        type: "submit",
        class: "btn btn--gold",
        "data-act": "limits",
        text: t("admin.tables.limits_change"),
      }),
    );
    return h(
      "form",
      {
        "data-form": "limits",
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          const low = minorOf(min.value, digits);
          const high = minorOf(max.value, digits);
          const own = bet.value ? minorOf(betMax.value, digits) : null;
          if (low === null || high === null || (bet.value && own === null)) {
            ctx.fail(new WordedError(digits ? "admin.tables.bad_amount" : "admin.tables.bad_whole_amount"));
            return;
          }
          /** @type {Record<string, any>} */
          const change = { min_stake: low, max_stake: high };
          if (bet.value) change.bets = { [bet.value]: own };
          withReason(
            ctx,
            t("admin.tables.limits_confirm", { table: table.value }),
            t("admin.tables.limits_change"),
            (reason) => adminApi.limits(table.value, { ...change, reason }),
            (answer) =>
              t("admin.tables.limits_done", { table: answer.id, limits: pendingLimitsText(answer.pending_limits) }),
          ).then((answer) => answer && load());
        },
      },
      fieldset,
    );
  }

  /** @param {any[]} rows */
  function changeForm(rows) {
    const unchanged = t("admin.tables.unchanged");
    const table = select(
      "table",
      rows.map((r) => [r.id, r.id]),
    );
    const ruleset = select("ruleset", [
      ["", unchanged],
      ...RULESETS.map((n) => /** @type {[string, string]} */ ([n, n])),
    ]);
    const dealing = select("dealing", [
      ["", unchanged],
      ["face-up", t("admin.dealing.face-up")],
      ["face-down", t("admin.dealing.face-down")],
    ]);
    const number = (/** @type {string} */ name, /** @type {string} */ min, /** @type {string} */ max) =>
      h("input", { name, type: "number", min, max, inputmode: "numeric", placeholder: unchanged });
    const betting = number("betting_s", "1", "600");
    const reveal = number("reveal_ms", "0", "60000");
    const result = number("result_ms", "0", "60000");
    const bet = select("bet", [["", t("admin.tables.no_bet")]]);
    const min = h("input", { name: "min_stake", inputmode: "decimal" });
    const max = h("input", { name: "max_stake", inputmode: "decimal" });
    /** @type {Record<string, {min_stake: number, max_stake: number}>} */
    let offered = {};
    // The table's bets and their limits now, as players see them: the fields start from those.
    const readBets = async () => {
      try {
        offered = (await adminApi.publicTable(table.value)).bets ?? {};
      } catch (error) {
        ctx.fail(error);
        offered = {};
      }
      fill(
        bet,
        h("option", { value: "", text: t("admin.tables.no_bet") }),
        Object.entries(offered).map(([name, offer]) =>
          h("option", {
            value: name,
            text: t("admin.tables.bet_limits", {
              bet: name,
              min: show.money(offer.min_stake),
              max: show.money(offer.max_stake),
            }),
          }),
        ),
      );
      min.value = "";
      max.value = "";
    };
    const decimal = (/** @type {number} */ minor) => decimalOf(minor, 2);
    bet.addEventListener("change", () => {
      const offer = offered[bet.value];
      min.value = offer ? decimal(offer.min_stake) : "";
      max.value = offer ? decimal(offer.max_stake) : "";
    });
    table.addEventListener("change", readBets);
    readBets();
    const fieldset = h(
      "fieldset",
      { class: "admin-form", disabled: !ctx.act },
      h("legend", { text: t("admin.tables.change_title") }),
      h("p", { class: "admin-hint", text: t(ctx.act ? "admin.tables.change_intro" : "admin.read_only") }),
      h(
        "div",
        { class: "admin-form__row" },
        field("admin.col.table", table),
        field("admin.col.ruleset", ruleset),
        field("admin.col.dealing", dealing),
      ),
      h(
        "div",
        { class: "admin-form__row" },
        field("admin.tables.betting_s", betting),
        field("admin.tables.reveal_ms", reveal),
        field("admin.tables.result_ms", result),
      ),
      h(
        "div",
        { class: "admin-form__row" },
        field("admin.tables.limit_bet", bet),
        field("admin.tables.limit_min", min),
        field("admin.tables.limit_max", max),
      ),
      h("button", { type: "submit", class: "btn btn--gold", "data-act": "next-shoe", text: t("admin.tables.change") }),
    );
    return h(
      "form",
      {
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          /** @type {Record<string, any>} */
          const change = {};
          if (ruleset.value) change.ruleset = ruleset.value;
          if (dealing.value) change.dealing = dealing.value;
          if (betting.value) change.betting_ms = Math.round(Number(betting.value) * 1000);
          if (reveal.value) change.reveal_ms = Math.round(Number(reveal.value));
          if (result.value) change.result_ms = Math.round(Number(result.value));
          if (bet.value) {
            const low = minorOf(min.value);
            const high = minorOf(max.value);
            if (low === null || high === null) {
              ctx.fail(new WordedError("admin.tables.bad_amount"));
              return;
            }
            change.limits = { [bet.value]: { min_stake: low, max_stake: high } };
          }
          if (Object.keys(change).length === 0) {
            ctx.say(t("admin.tables.nothing"));
            return;
          }
          withReason(
            ctx,
            t("admin.tables.change_confirm", { table: table.value }),
            t("admin.tables.change"),
            (reason) => adminApi.nextShoe(table.value, { ...change, reason }),
            (answer) =>
              t("admin.tables.change_done", {
                table: answer.id,
                pending: pendingText(answer.pending, answer.ruleset, offered),
              }),
          ).then((answer) => answer && load());
        },
      },
      fieldset,
    );
  }

  main.replaceChildren(
    ...heading("admin.tables.title", "admin.tables.intro"),
    h("div", { class: "admin-toolbar" }, button(t("admin.refresh"), load)),
    list,
    limitsForm,
    form,
  );
  load();
  // The counts and phases move: read again every few seconds, but never under a person's
  // focus or an open dialog (a redraw would take the focus away).
  const timer = window.setInterval(() => {
    if (document.hidden || list.contains(document.activeElement) || document.querySelector("dialog[open]")) return;
    load();
  }, REFRESH_MS);
  return {
    destroy() {
      gone = true;
      window.clearInterval(timer);
    },
  };
}
