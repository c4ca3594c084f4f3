// @ts-check
// The console of one studio table (/studio#/tables/{id}): what is due next in large type, the
// card input a keyboard-wedge scanner types into (it has the focus whenever no dialog is open),
// the round, the cards read by hand, the result, the shoe, who is seated, and the dealer's
// commands (a supervisor's too, for an operator or an admin). The table's feed (/ws/tables/{t},
// as the players' page watches it) says when anything changed, and each message brings the
// console's own view (GET /api/studio/tables/{t}), which also has what waits for a supervisor.

import { ApiError } from "../api.js";
import { cardName, cardElement, handTotal, parseCard } from "../cards.js";
import { msUntil, syncClock } from "../clock.js";
import { announce, fill, h } from "../dom.js";
import { has, language, t, tNodes } from "../i18n.js";
import { TableFeed } from "../ws.js";
import { studioApi } from "./client.js";
import { ask, dialogOpen } from "./dialogs.js";
import { dueOf, hands, inPlay, positionWords, waitingRead } from "./due.js";
import { icon } from "./icons.js";
import { cardCode, ReadQueue } from "./reads.js";

/**
 * What the console is given by the page: who is logged in, and how to say what happened.
 * @typedef {object} Ctx
 * @property {import("../admin/client.js").Staff} who
 * @property {() => void} loggedOut  the staff session ended (401)
 * @property {(status: string) => void} feed  the feed's status, for the top bar
 */

const SUPERVISORS = new Set(["operator", "admin"]);
/** The feed's messages that change nothing the console shows. */
const QUIET = new Set(["stakes", "watching"]);
/** A refresh every so often anyway, and faster while the feed is down. */
const POLL_MS = 5000;
const POLL_LOST_MS = 1000;
/** How long a line saying what was done stays. */
const SAID_MS = 10_000;

/**
 * A refused or failed request in words, in the language shown; the server's own message
 * follows it (in English, marked so), since it says exactly what the table refused.
 * @param {unknown} error
 * @returns {(string | Node)[]}
 */
export function refusalWords(error) {
  if (!(error instanceof ApiError)) return [error instanceof Error ? error.message : String(error)];
  const code = error.code;
  const words = has(`studio.error.${code}`)
    ? t(`studio.error.${code}`)
    : has(`error.${code}`)
      ? t(`error.${code}`)
      : t("studio.error.other", { code });
  if (!error.message || error.code === "network") return [words];
  const server = h("span", { class: "studio-server", lang: "en", text: error.message });
  return [words, " ", h("span", { class: "studio-server-line" }, tNodes("studio.error.server", { message: server }))];
}

/**
 * Words with nodes for the values that are the server's English (marked lang="en").
 * @param {import("./due.js").Words} words
 * @returns {(string | Node)[]}
 */
function wordsNodes(words) {
  /** @type {Record<string, any>} */
  const values = { ...(words.values ?? {}) };
  for (const name of words.english ?? []) {
    if (language() !== "en" && typeof values[name] === "string")
      values[name] = h("span", { lang: "en", text: values[name] });
  }
  return tNodes(words.key, values);
}

/**
 * A card's code as the table writes it, "A♥" (red suits in red), with its name for screen readers.
 * @param {string} code
 * @returns {HTMLElement}
 */
function codeTag(code) {
  const card = parseCard(code);
  if (!card) return h("span", { text: code });
  const glyph = { c: "♣", d: "♦", h: "♥", s: "♠" }[card.suit];
  const red = card.suit === "d" || card.suit === "h";
  return h(
    "span",
    { class: `studio-code${red ? " studio-code--red" : ""}`, "data-card": `${card.rank}${card.suit}` },
    h("span", { "aria-hidden": "true", text: `${card.rank === "T" ? "10" : card.rank}${glyph}` }),
    h("span", { class: "visually-hidden", text: cardName(code) }),
  );
}

/**
 * m:ss of a number of seconds.
 * @param {number} seconds
 * @returns {string}
 */
function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/**
 * Mount the console of `tableId` in `main`.
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 * @param {string} tableId
 * @returns {{destroy(): void}}
 */
export function mountConsole(main, ctx, tableId) {
  const supervisor = SUPERVISORS.has(ctx.who.role);
  /** @type {any} */
  let view = null;
  // The server says nothing of a pause to the console: what this tab did is kept for it.
  const pauseKey = `baccarat.studio.paused.${tableId}`;
  let paused = window.sessionStorage.getItem(pauseKey) === "1";
  /** @param {boolean} value */
  const setPaused = (value) => {
    paused = value;
    if (value) window.sessionStorage.setItem(pauseKey, "1");
    else window.sessionStorage.removeItem(pauseKey);
  };
  let lastDue = "";
  // A new shoe asked for while a round is in play comes after it (notice shoe_change_next).
  let nextShoe = false;
  /** @type {string | null} the shoe in play when it was asked for: the flag goes with it */
  let nextShoeAfter = null;
  /** @param {boolean} asked */
  const askedNextShoe = (asked) => {
    nextShoe = asked;
    nextShoeAfter = asked ? (view?.shoe?.id ?? null) : null;
  };
  let lastHands = "";
  let destroyed = false;

  // ---- what is due ----
  const dueIcon = h("div", { class: "due__icon" });
  const dueHeadline = h("p", { class: "due__headline", id: "due-headline", text: t("studio.due.starting") });
  const dueDetail = h("p", { class: "due__detail", id: "due-detail" });
  const dueFlags = h("p", { class: "due__flags" });
  const timerTime = h("span", { class: "due__time", "aria-hidden": "true" });
  const timerWords = h("span", { class: "visually-hidden" });
  const timer = h("p", { class: "due__timer", role: "timer", hidden: true }, timerTime, timerWords);
  const duePanel = h(
    "section",
    { class: "due", "data-kind": "wait", "aria-labelledby": "due-label" },
    dueIcon,
    h(
      "div",
      { class: "due__words" },
      h("h2", { class: "due__label", id: "due-label", text: t("studio.due.label") }),
      dueHeadline,
      dueDetail,
      dueFlags,
    ),
    timer,
  );

  // ---- the card input, and what the commands did ----
  const statusLine = h("p", { class: "commands__line", role: "status" });
  const alertLine = h("p", { class: "commands__line commands__line--error", role: "alert" });
  const input = h("input", {
    id: "card-input",
    class: "reader__input",
    name: "card",
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    enterkeyhint: "send",
    maxlength: "12",
    "aria-describedby": "card-hint",
  });
  const answer = h("div", { class: "reader__answer", id: "card-answer", role: "status", "aria-atomic": "true" });
  const refusal = h("div", { class: "reader__refusal", id: "card-refusal", role: "alert" });
  const sending = h("p", { class: "reader__sending", id: "card-sending" });
  const reader = h(
    "section",
    { class: "reader panel", "aria-labelledby": "card-label" },
    h(
      "form",
      {
        class: "reader__form",
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          submitCard();
        },
      },
      h("label", { class: "reader__label", id: "card-label", for: "card-input", text: t("studio.input.label") }),
      h(
        "div",
        { class: "reader__row" },
        input,
        h("button", { type: "submit", class: "btn studio-btn reader__send", text: t("studio.input.send") }),
      ),
      h("p", { class: "reader__hint", id: "card-hint", text: t("studio.input.hint") }),
    ),
    h("div", { class: "reader__out" }, answer, refusal, sending),
  );
  // What the dealer's commands did, or why they were refused.
  const lines = h("div", { class: "reader__lines" }, statusLine, alertLine);
  reader.append(lines);

  // ---- the table's state ----
  const heading = h("h1", { class: "state__title", id: "state-title", tabindex: "-1", text: tableId });
  const roundLine = h("p", { class: "state__round" });
  const phaseBadge = h("span", { class: "state__phase" });
  const handsBox = h("div", { class: "state__hands" });
  const resultLine = h("p", { class: "state__result", role: "status" });
  const facts = h("dl", { class: "state__facts" });
  const seat = h("p", { class: "state__seat" });
  const state = h(
    "section",
    { class: "state panel", "aria-labelledby": "state-title" },
    h("div", { class: "state__head" }, heading, h("div", { class: "state__roundline" }, roundLine, phaseBadge)),
    handsBox,
    resultLine,
    facts,
    seat,
  );

  // ---- the commands ----
  /**
   * @param {string} name
   * @param {string} key
   * @param {() => void} onclick
   * @param {string} [variant]
   */
  const command = (name, key, onclick, variant = "") =>
    h("button", { type: "button", class: `btn studio-btn ${variant}`, "data-act": name, onclick, text: t(key) });
  const buttons = {
    take: command("take", "studio.act.take", () => act(takeTable)),
    close: command("close", "studio.act.close", () => act(closeBetting)),
    misscan: command("misscan", "studio.act.misscan", () => act(misscan), "studio-btn--warn"),
    misdeal: command("misdeal", "studio.act.misdeal", () => act(misdeal), "studio-btn--danger"),
    shoe: command("shoe", "studio.act.shoe", () => act(newShoe)),
    pause: command("pause", "studio.act.pause", () => act(() => pauseResume("pause"))),
    resume: command("resume", "studio.act.resume", () => act(() => pauseResume("resume"))),
  };
  const decisions = {
    confirm: command("confirm", "studio.act.confirm", () => act(() => decide("confirm"))),
    reject: command("reject", "studio.act.reject", () => act(() => decide("reject")), "studio-btn--danger"),
    discard: command("discard", "studio.act.discard", () => act(() => decide("discard"))),
    void: command("void", "studio.act.void", () => act(() => decide("void")), "studio-btn--danger"),
  };
  const commands = h(
    "section",
    { class: "commands", "aria-labelledby": "commands-title" },
    h("h2", { class: "visually-hidden", id: "commands-title", text: t("studio.actions") }),
    h(
      "div",
      { class: "commands__row", role: "group", "aria-labelledby": "commands-title" },
      buttons.close,
      buttons.misscan,
      buttons.misdeal,
      buttons.shoe,
      buttons.pause,
      buttons.resume,
      buttons.take,
    ),
  );
  // A supervisor's decisions, beside the card input (where the dealer's eyes are).
  if (supervisor) {
    lines.before(
      h(
        "section",
        { class: "supervisor", "aria-labelledby": "supervisor-title" },
        h("h2", { class: "supervisor__title", id: "supervisor-title", text: t("studio.supervisor") }),
        h(
          "div",
          { class: "supervisor__buttons" },
          decisions.confirm,
          decisions.reject,
          decisions.discard,
          decisions.void,
        ),
      ),
    );
  }

  const root = h("div", { class: "console", "data-table": tableId }, duePanel, reader, state, commands);
  main.replaceChildren(root);

  // ---- saying things ----
  /** @type {number | undefined} */
  let sayTimer;
  let movedSince = 0;
  /**
   * What was done: said, and gone after a while, or once the table has moved on past what it
   * did (the step it led to, then the next: the due panel says what is due).
   * @param {string} text
   */
  function say(text) {
    movedSince = 0;
    fill(alertLine);
    fill(statusLine, text);
    window.clearTimeout(sayTimer);
    sayTimer = window.setTimeout(() => fill(statusLine), SAID_MS);
  }
  /** @param {unknown} error */
  function fail(error) {
    if (error instanceof ApiError && error.status === 401) {
      ctx.loggedOut();
      return;
    }
    fill(statusLine);
    fill(alertLine, refusalWords(error));
  }

  // ---- the focus: on the card input whenever no dialog is open ----
  function focusInput() {
    if (!destroyed && !dialogOpen() && document.activeElement !== input) input.focus({ preventScroll: true });
  }
  function onFocusOut() {
    // Nothing took the focus (a tap on the page, an element that went away): back to the input.
    window.setTimeout(() => {
      const active = document.activeElement;
      if (!active || active === document.body || !active.isConnected) focusInput();
    }, 0);
  }
  /** @param {KeyboardEvent} event  a scanner's keys land in the input wherever the focus was */
  function onKeyDown(event) {
    if (destroyed || dialogOpen() || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (target === input || target?.closest?.("input, textarea, select, [contenteditable]")) return;
    if (event.key.length !== 1 || event.key === " ") return;
    event.preventDefault();
    input.value += event.key;
    input.focus({ preventScroll: true });
  }
  document.addEventListener("keydown", onKeyDown, true);
  document.addEventListener("focusout", onFocusOut);
  window.addEventListener("focus", focusInput);

  // ---- cards read at the console ----
  const queue = new ReadQueue((card, scanId) => studioApi.read(tableId, card, scanId), {
    sending: (read) => {
      if (!read.tries) sending.removeAttribute("data-state");
      fill(sending, t("studio.read.sending", { card: cardName(read.card) }));
    },
    placed: (read, placed) => {
      fill(sending);
      fill(refusal);
      refusal.removeAttribute("data-state");
      answer.dataset.state = "ok";
      const words = positionWords(placed.position);
      fill(
        answer,
        h(
          "span",
          { class: "reader__placed" },
          tNodes("studio.read.placed", { card: codeTag(read.card), position: t(words.key, words.values) }),
        ),
        h("span", { class: "reader__seq", text: t("studio.read.seq", { seq: placed.seq }) }),
        placed.repeat && h("span", { class: "reader__seq", text: t("studio.read.repeat") }),
      );
      answer.dataset.position = placed.position;
      void refresh();
    },
    refused: (read, error, dropped) => {
      fill(sending);
      fill(answer);
      answer.removeAttribute("data-state");
      refusal.dataset.state = "refused";
      fill(
        refusal,
        h(
          "span",
          { class: "reader__placed" },
          tNodes("studio.read.refused", { card: codeTag(read.card), reason: h("span", {}, refusalWords(error)) }),
        ),
        dropped.length > 0 &&
          h("span", {
            class: "reader__seq",
            text: t("studio.read.dropped", { count: dropped.length, cards: dropped.map((d) => d.card).join(", ") }),
          }),
      );
      if (error instanceof ApiError && error.status === 401) ctx.loggedOut();
      else void refresh();
    },
    retrying: (read) => {
      fill(sending, t("studio.read.retrying", { card: cardName(read.card) }));
      sending.dataset.state = "retrying";
    },
  });

  function submitCard() {
    const text = input.value;
    input.value = "";
    if (!text.trim()) {
      queue.retryNow();
      return;
    }
    const code = cardCode(text);
    if (!code) {
      fill(answer);
      answer.removeAttribute("data-state");
      refusal.dataset.state = "invalid";
      fill(refusal, t("studio.read.invalid", { text: text.trim() }));
      return;
    }
    queue.add(code);
  }

  // ---- the commands ----
  /** @param {() => Promise<void>} run */
  async function act(run) {
    try {
      await run();
    } catch (error) {
      fail(error);
    } finally {
      void refresh();
      focusInput();
    }
  }

  /** The round in words for a dialog ("Shoe 1 · Round 3"). */
  function roundName() {
    const round = view?.round;
    if (!round?.number) return t("studio.this_round");
    return t("stage.round", { shoe: view?.shoe?.number ?? "–", round: round.number });
  }

  async function takeTable() {
    await studioApi.take(tableId);
    say(t("studio.done.take", { table: tableId }));
  }

  async function closeBetting() {
    const ok = await ask({
      name: "close",
      title: t("studio.close.title", { round: roundName() }),
      intro: t("studio.close.intro"),
      confirm: t("studio.close.confirm"),
    });
    if (!ok) return;
    await studioApi.close(tableId);
    say(t("studio.done.close"));
  }

  async function misscan() {
    const values = await ask({
      name: "misscan",
      title: t("studio.misscan.title"),
      intro: t("studio.misscan.intro"),
      fields: [
        {
          name: "card",
          label: t("studio.dialog.card"),
          attrs: { maxlength: "12", autocapitalize: "off", spellcheck: "false" },
          check: (value) => (cardCode(value) ? null : t("studio.read.invalid", { text: value })),
        },
      ],
      reason: true,
      confirm: t("studio.misscan.confirm"),
    });
    if (!values) return;
    await studioApi.misscan(tableId, /** @type {string} */ (cardCode(values.card)), values.reason);
    say(t("studio.done.misscan"));
  }

  async function misdeal() {
    const values = await ask({
      name: "misdeal",
      title: t("studio.misdeal.title", { round: roundName() }),
      intro: view?.settings?.exposed === "dummy" ? t("studio.misdeal.dummy") : undefined,
      warning: t("studio.misdeal.intro"),
      reason: true,
      danger: true,
      confirm: t("studio.misdeal.confirm"),
    });
    if (!values) return;
    const voided = await studioApi.withReason(tableId, "misdeal", values.reason);
    say(t("studio.done.misdeal", { count: Object.keys(voided?.returned ?? {}).length }));
  }

  async function newShoe() {
    const running = Boolean(view?.shoe) && view?.next !== "shoe_change";
    const after = inPlay(view?.round);
    /** @param {string} value @param {number} low @param {number} high */
    const whole = (value, low, high) => /^\d+$/.test(value) && Number(value) >= low && Number(value) <= high;
    const values = await ask({
      name: "shoe",
      title: t("studio.shoe.form_title"),
      intro: t("studio.shoe.form_intro"),
      warning: after ? t("studio.shoe.form_after") : running ? t("studio.shoe.form_ends") : undefined,
      fields: [
        {
          name: "shuffled_by",
          label: t("studio.shoe.shuffled"),
          value: ctx.who.username,
          attrs: { maxlength: "64" },
          check: (value) => (value && value.length <= 64 ? null : t("studio.shoe.invalid_name")),
        },
        {
          name: "decks",
          label: t("studio.shoe.decks"),
          type: "number",
          value: String(view?.shoe?.decks ?? 8),
          attrs: { min: "1", max: "8", inputmode: "numeric" },
          check: (value) => (whole(value, 1, 8) ? null : t("studio.shoe.invalid_decks")),
        },
        {
          name: "deck_serials",
          label: t("studio.shoe.serials"),
          attrs: { maxlength: "400" },
          check: (value) => {
            const serials = value.split(/[\s,]+/).filter(Boolean);
            return serials.length <= 8 && serials.every((serial) => serial.length <= 40)
              ? null
              : t("studio.shoe.invalid_serials");
          },
        },
        {
          name: "cut_card",
          label: t("studio.shoe.cut_card"),
          type: "number",
          value: String(view?.shoe?.certificate?.cut_card ?? 14),
          attrs: { min: "0", max: "410", inputmode: "numeric" },
          check: (value) => (whole(value, 0, 410) ? null : t("studio.shoe.invalid_cut")),
        },
      ],
      danger: running,
      confirm: t("studio.shoe.confirm"),
    });
    if (!values) return;
    await studioApi.shoe(tableId, {
      shuffled_by: values.shuffled_by,
      decks: Number(values.decks),
      deck_serials: values.deck_serials.split(/[\s,]+/).filter(Boolean),
      cut_card: Number(values.cut_card),
    });
    askedNextShoe(after);
    say(t(after ? "studio.done.shoe_next" : "studio.done.shoe"));
  }

  /** @param {"pause" | "resume"} action */
  async function pauseResume(action) {
    const values = await ask({
      name: action,
      title: t(`studio.${action}.title`),
      intro: t(`studio.${action}.intro`),
      reason: true,
      confirm: t(`studio.${action}.confirm`),
    });
    if (!values) return;
    await studioApi.withReason(tableId, action, values.reason);
    setPaused(action === "pause");
    say(t(`studio.done.${action}`));
  }

  /** @param {"confirm" | "reject" | "discard" | "void"} decision */
  async function decide(decision) {
    const misscanned = decision === "confirm" || decision === "reject";
    const read = waitingRead(view, misscanned ? "misscan" : "impossible");
    const card = read ? cardName(read.card) : "–";
    const values = await ask({
      name: decision,
      title: t(`studio.${decision}.title`, { card, round: roundName() }),
      ...(decision === "void" || decision === "reject"
        ? { warning: t(`studio.${decision}.intro`) }
        : { intro: t(`studio.${decision}.intro`) }),
      reason: true,
      danger: decision === "void" || decision === "reject",
      confirm: t(`studio.${decision}.confirm`),
    });
    if (!values) return;
    const path = misscanned ? `misscan/${decision}` : `halt/${decision}`;
    await studioApi.withReason(tableId, /** @type {any} */ (path), values.reason);
    say(t(`studio.done.${decision}`));
  }

  // ---- drawing the view ----
  function renderDue() {
    const due = view ? dueOf(view) : null;
    if (!due) return;
    duePanel.dataset.kind = due.kind;
    duePanel.dataset.next = due.next;
    fill(dueIcon, icon(due.kind));
    const headline = t(due.headline.key, due.headline.values);
    fill(dueHeadline, headline);
    fill(dueDetail, due.detail ? wordsNodes(due.detail) : "");
    const studio = view.studio ?? {};
    fill(
      dueFlags,
      studio.last_coup && h("span", { class: "due__flag", text: t("studio.flag.last_coup") }),
      !studio.last_coup &&
        studio.cut_card_out &&
        h("span", { class: "due__flag", text: t("studio.flag.cut_card_out") }),
      studio.dummy && h("span", { class: "due__flag", text: t("studio.flag.dummy") }),
      nextShoe && h("span", { class: "due__flag", text: t("studio.flag.next_shoe") }),
      paused && h("span", { class: "due__flag", text: t("studio.paused") }),
    );
    const shown = `${due.kind}|${headline}`;
    if (shown !== lastDue) {
      lastDue = shown;
      if (++movedSince >= 2) fill(statusLine);
      announce(t("studio.announce.due", { due: headline }));
    }
    tick();
  }

  /** The countdown of the window open for bets (a display: the server closes it). */
  function tick() {
    const round = view?.round;
    const open = round?.phase === "open" && Number.isFinite(round.closes_at_ms);
    timer.hidden = !open;
    if (!open) return;
    const seconds = Math.max(0, Math.ceil(msUntil(round.closes_at_ms) / 1000));
    const text = clockText(seconds);
    if (timerTime.textContent !== text) {
      timerTime.textContent = text;
      timerWords.textContent = t("studio.countdown", { count: seconds });
    }
  }

  /**
   * One hand: its name and total, its cards, and the place of the card due next.
   * @param {"player" | "banker"} side
   * @param {string[]} cards
   * @param {string} next
   */
  function handView(side, cards, next) {
    const name = t(`studio.hand.${side}`);
    const total = handTotal(cards);
    const label = cards.length
      ? t("studio.hand.label", { side: name, cards: cards.map((c) => cardName(c)).join(", "), total })
      : t("studio.hand.empty", { side: name });
    const slots = cards.map((code, index) => {
      const el = cardElement(code, { sideways: index === 2 });
      el.dataset.position = String(index);
      return el;
    });
    const dueHere = next.startsWith(`${side}_`) ? Number(next.slice(side.length + 1)) : 0;
    if (dueHere === cards.length + 1) {
      slots.push(
        h("div", { class: `state__slot${dueHere === 3 ? " state__slot--sideways" : ""}`, "aria-hidden": "true" }, "?"),
      );
    }
    return h(
      "div",
      { class: `state__hand state__hand--${side}`, "data-hand": side, role: "group", "aria-label": label },
      h(
        "p",
        { class: "state__hand-title", "aria-hidden": "true" },
        h("span", { text: name }),
        cards.length > 0 && h("span", { class: "state__total", "data-total": String(total), text: String(total) }),
      ),
      h("div", { class: "state__cards" }, slots),
    );
  }

  function renderState() {
    const round = view.round;
    const shoe = view.shoe;
    const studio = view.studio ?? {};
    fill(
      roundLine,
      round?.number ? t("stage.round", { shoe: shoe?.number ?? "–", round: round.number }) : t("studio.round.none"),
    );
    roundLine.dataset.round = String(round?.id ?? "");
    fill(phaseBadge, round?.phase && has(`studio.phase.${round.phase}`) ? t(`studio.phase.${round.phase}`) : "");
    phaseBadge.dataset.phase = round?.phase ?? "";
    const { player, banker } = hands(view.cards);
    const shown = `${language()}|${player.join()}|${banker.join()}|${view.next}`;
    if (shown !== lastHands) {
      lastHands = shown;
      fill(handsBox, handView("player", player, view.next), handView("banker", banker, view.next));
    }
    const result = view.result;
    if (result) {
      const values = { player: result.player_total, banker: result.banker_total };
      const words =
        result.winner === "tie"
          ? t("studio.result.tie", values)
          : t("studio.result.wins", { ...values, side: t(`studio.hand.${result.winner}`) });
      const text = result.natural ? `${words} · ${t("studio.result.natural")}` : words;
      // A live region: written only when it changes, so it is said once.
      if (resultLine.textContent !== text) fill(resultLine, text);
      resultLine.dataset.winner = result.winner;
    } else if (resultLine.textContent) {
      fill(resultLine);
      resultLine.removeAttribute("data-winner");
    }
    /** @param {string} key @param {string | number} value @param {string} name */
    const fact = (key, value, name) =>
      h("div", { "data-fact": name }, h("dt", { text: t(key) }), h("dd", { text: String(value) }));
    fill(
      facts,
      shoe
        ? [
            fact("studio.shoe.title", t("studio.shoe.number", { number: shoe.number }), "shoe"),
            fact("studio.shoe.reads", studio.reads ?? 0, "reads"),
            fact("studio.shoe.left", shoe.cards_left ?? "–", "left"),
            fact("studio.shoe.cut", t(studio.cut_card_out ? "studio.shoe.cut_out" : "studio.shoe.cut_in"), "cut"),
            fact("studio.shoe.shuffled_by", shoe.certificate?.shuffled_by ?? "–", "shuffled"),
          ]
        : fact("studio.shoe.title", t("studio.shoe.none"), "shoe"),
    );
    const dealer = studio.dealer ?? null;
    const mine = dealer === ctx.who.username;
    fill(
      seat,
      h("span", { class: "state__seat-label", text: `${t("studio.seat.title")}: ` }),
      h("strong", { "data-dealer": dealer ?? "", text: dealer ?? t("studio.seat.nobody") }),
      " ",
      h("span", {
        class: mine ? "state__seat-you" : "state__seat-not-you",
        text: t(mine ? "studio.seat.you" : "studio.seat.not_you"),
      }),
    );
    seat.dataset.mine = String(mine);
    buttons.take.classList.toggle("btn--gold", !mine);
  }

  function renderButtons() {
    const round = view?.round;
    const next = view?.next ?? "";
    const halted = next === "halted";
    const shoeInPlay = Boolean(view?.shoe) && next !== "shoe_change";
    const pending = view?.pending ?? [];
    buttons.close.disabled = round?.phase !== "open" || view?.settings?.early_close === false;
    buttons.misscan.disabled = !shoeInPlay || pending.length > 0;
    buttons.misdeal.disabled = !inPlay(round);
    buttons.shoe.disabled = halted || nextShoe;
    buttons.pause.disabled = paused;
    buttons.resume.disabled = false;
    decisions.confirm.disabled = decisions.reject.disabled = !waitingRead(view, "misscan");
    decisions.discard.disabled = decisions.void.disabled = !waitingRead(view, "impossible");
  }

  function render() {
    if (!view || destroyed) return;
    if (nextShoe && (view.shoe?.id ?? null) !== nextShoeAfter) askedNextShoe(false);
    renderDue();
    renderState();
    renderButtons();
  }

  // ---- keeping up with the table ----
  let loading = false;
  let again = false;
  async function refresh() {
    if (destroyed) return;
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      const answered = await studioApi.view(tableId);
      if (destroyed) return;
      syncClock(answered.now);
      view = answered;
      render();
    } catch (error) {
      if (!destroyed) fail(error);
    } finally {
      loading = false;
      if (again && !destroyed) {
        again = false;
        void refresh();
      }
    }
  }

  let pollMs = POLL_MS;
  /** @type {number | undefined} */
  let poller;
  /** @param {number} ms */
  function poll(ms) {
    if (ms === pollMs && poller !== undefined) return;
    pollMs = ms;
    window.clearInterval(poller);
    poller = window.setInterval(() => void refresh(), ms);
  }
  const feed = new TableFeed(tableId, {
    onSnapshot: () => void refresh(),
    onEvent: (event) => {
      if (event?.type === "studio" && event.notice === "shoe_change_next") askedNextShoe(true);
      if (!QUIET.has(event?.type)) void refresh();
    },
    onStatus: (status) => {
      ctx.feed(status);
      poll(status === "lost" ? POLL_LOST_MS : POLL_MS);
    },
  });
  feed.start();
  poll(POLL_MS);
  const ticker = window.setInterval(tick, 250);
  void refresh();
  focusInput();

  return {
    destroy() {
      destroyed = true;
      queue.stop();
      feed.stop();
      window.clearInterval(poller);
      window.clearInterval(ticker);
      window.clearTimeout(sayTimer);
      document.removeEventListener("keydown", onKeyDown, true);
      document.removeEventListener("focusout", onFocusOut);
      window.removeEventListener("focus", focusInput);
      ctx.feed("");
    },
  };
}
