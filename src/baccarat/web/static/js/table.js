// @ts-check
// One live table: it follows the WebSocket feed, draws the round, and sends the player's bets.
// The server is the only authority: a stake shows on a spot once the server has accepted it,
// and the balance shown is always the last one the server sent.

import { api } from "./api.js";
import { account, showConnection } from "./account.js";
import { betLayout } from "./bets.js";
import { betting } from "./betting.js";
import { chipRack } from "./chips.js";
import { syncClock } from "./clock.js";
import { announce, h, s } from "./dom.js";
import { fairnessPanel } from "./fairness.js";
import { money } from "./format.js";
import { language, setCurrency, t } from "./i18n.js";
import { tableInfo } from "./info.js";
import { tableStrip } from "./lobby.js";
import * as model from "./model.js";
import { explain } from "./refusals.js";
import { scoreboard } from "./scoreboard.js";
import { session } from "./session.js";
import { stage as stageView } from "./stage.js";
import { voidNotice } from "./voidnotice.js";
import { TableFeed } from "./ws.js";

const MESSAGE_MS = 6000;
// Face-down dealing: the four first cards lie on the table, backs up, until each is turned.
/** @type {[string, number][]} */
const FIRST_FOUR = [
  ["player", 0],
  ["banker", 0],
  ["player", 1],
  ["banker", 1],
];
/** @type {Record<string, string>} */
const ACTION_ICONS = { undo: "↶", clear: "✕", rebet: "↻", double: "×2" };

// ---- sound: off unless chosen on this device; its module is fetched once it is turned on ----

const SOUND_KEY = "baccarat.sound";
/** @type {ReturnType<typeof import("./sound.js").tableSound> | null} */
let sound = null;
let soundWanted = (() => {
  try {
    return window.localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
})();

/** The sounds, fetched if they are wanted and not here yet; null while they are not. */
function sounds() {
  if (!soundWanted) return null;
  if (!sound)
    import("./sound.js").then(
      ({ tableSound }) => {
        sound ??= tableSound();
      },
      () => {
        // Not fetched (the connection dropped): asked again at the next sound.
      },
    );
  return sound;
}

/** @param {boolean} on */
function wantSound(on) {
  soundWanted = on;
  try {
    window.localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // A browser that keeps nothing: the choice lasts as long as the page.
  }
  sounds();
}

/**
 * The toggles' icons, drawn inline (a CSS image would be one more address for the page to load):
 * SVG paths, stroked; the speaker's waves show when sound is on, its cross when it is off.
 * @type {Record<string, [string, string][]>}
 */
const ICONS = {
  sound: [
    ["M3 9h4l5-4v14l-5-4H3z", "fill"],
    ["M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13", "on"],
    ["M16 9l6 6M22 9l-6 6", "off"],
  ],
  confirm: [
    ["M6 3h12a3 3 0 0 1 3 3v12a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3z", ""],
    ["M7.5 12.5l3 3 6-7", ""],
  ],
};

/**
 * A toggle of the table's controls, pressed or not: an icon, named by its label.
 * @param {string} name  sound or confirm
 * @param {boolean} pressed
 * @param {(pressed: boolean) => void} onToggle
 */
function toggle(name, pressed, onToggle) {
  const button = h(
    "button",
    {
      type: "button",
      class: "btn btn--action btn--toggle",
      "aria-pressed": String(pressed),
      "aria-label": t(`comfort.${name}_label`),
      title: t(`comfort.${name}_title`),
      dataset: { toggle: name },
      onclick: () => {
        const next = button.getAttribute("aria-pressed") !== "true";
        button.setAttribute("aria-pressed", String(next));
        onToggle(next);
      },
    },
    s(
      "svg",
      { class: "btn__icon", viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true" },
      ICONS[name].map(([d, part]) => s("path", { d, class: part ? `icon__${part}` : null })),
    ),
  );
  return button;
}

/**
 * What the table view knows: the table as last seen, the round, the player's stakes.
 * @typedef {object} TableState
 * @property {import("./model.js").Table | null} table
 * @property {import("./model.js").Round | null} round
 * @property {Record<string, number>} stakes
 * @property {Record<string, number>[]} placements
 * @property {Record<string, number>} [pending]  chips laid, not yet confirmed (betting.js)
 * @property {Set<string>} winners
 * @property {any} finished  the shoe that ended while the page watched
 * @property {boolean} shoeEnded  a shoe_end came and its next shoe_start has not yet
 * @property {boolean} online  the feed is live (its snapshot came and the socket is open)
 */

/**
 * Mount the table `id` in `main`; returns {destroy()}.
 * @param {HTMLElement} main
 * @param {string} id
 * @returns {{destroy(): void}}
 */
export function mountTable(main, id) {
  /** @type {TableState} */
  const state = {
    table: null,
    round: null,
    stakes: {},
    // What each accepted request of this round added, so Undo can take back the last one.
    placements: [],
    winners: new Set(),
    finished: null,
    shoeEnded: false,
    online: false,
  };

  const stage = stageView();
  const bets = betLayout((name) => player.bet(name, rack.value()));
  const rack = chipRack(() => {});
  const board = scoreboard();
  const fairness = fairnessPanel();
  const info = tableInfo();
  const message = h("div", { class: "table-message", role: "alert" });
  const notice = voidNotice();
  const strip = tableStrip(id);
  // Chosen before on this device: fetched now, so the first chip is heard.
  sounds();
  const player = betting(id, state, {
    changed: () => {
      message.textContent = "";
      draw();
    },
    say: (text, tone) => say(text, tone),
    refused: (error) => showError(error),
    chip: () => sounds()?.chip(),
  });
  const spectator = h(
    "div",
    { class: "spectator", hidden: true },
    h("span", {}, t("table.spectator")),
    h(
      "button",
      { type: "button", class: "btn btn--gold btn--small", onclick: () => account.join().catch(showError) },
      t("table.take_seat"),
    ),
    h("span", { class: "spectator__blocked" }),
  );
  /**
   * @param {string} name
   * @param {() => void} handler
   */
  const action = (name, handler) =>
    h(
      "button",
      {
        type: "button",
        class: "btn btn--action",
        "aria-label": t(`action.${name}_label`),
        dataset: { action: name },
        onclick: handler,
      },
      // The icon is drawn by CSS: as text it would be words on the button that its name lacks.
      h("span", { class: "btn__icon", "aria-hidden": "true", dataset: { icon: ACTION_ICONS[name] } }),
      h("span", { class: "btn__text" }, t(`action.${name}`)),
    );
  const actions = h(
    "div",
    { class: "rack__actions", role: "group", "aria-label": t("action.group") },
    action("undo", () => player.undo()),
    action("clear", () => player.clear()),
    action("rebet", () => player.repeat(api.rebet)),
    action("double", () => player.repeat(api.double)),
  );
  const title = h("h1", { class: "visually-hidden" }, t("table.title"));
  // The confirm step: chips laid wait on the spots until Confirm (or Clear) in the actions' place.
  const confirmButton = h("button", {
    type: "button",
    class: "btn btn--gold btn--action",
    dataset: { pending: "confirm" },
    onclick: () => player.confirm(),
  });
  const pendingBar = h(
    "div",
    { class: "rack__pending", role: "group", "aria-label": t("confirm.group"), hidden: true },
    confirmButton,
    h(
      "button",
      {
        type: "button",
        class: "btn btn--action",
        dataset: { pending: "clear" },
        "aria-label": t("confirm.clear_label"),
        onclick: () => player.discard(),
      },
      t("confirm.clear"),
    ),
  );
  const comforts = h(
    "div",
    { class: "rack__comforts", role: "group", "aria-label": t("comfort.group") },
    toggle("sound", soundWanted, (on) => wantSound(on)),
    toggle("confirm", player.confirming(), (on) => player.setConfirming(on)),
  );

  const view = h(
    "div",
    { class: "table-view" },
    h("div", { class: "table-view__strip" }, strip.el),
    h(
      "div",
      { class: "table-view__felt" },
      title,
      stage.el,
      notice.el,
      spectator,
      h("div", { class: "bets-area" }, message, bets.el),
      h("div", { class: "rack" }, rack.el, comforts, actions, pendingBar),
    ),
    h("div", { class: "table-view__roads" }, board.el),
    h("div", { class: "table-view__details" }, info.el, fairness.el),
  );
  main.replaceChildren(view);

  // ---- a studio table's video ----

  // Beside the cards, at a studio table with a stream only: its module (and hls.js, where the
  // browser has no HLS of its own) is fetched the first time one is shown.
  /** @type {ReturnType<typeof import("./video.js").tableVideo> | null} */
  let video = null;
  /** @type {string | null} */
  let wantedStream = null;
  let videoLoading = false;

  /** @param {string | null} stream  the table's video, or null */
  function showVideo(stream) {
    wantedStream = stream;
    if (video) {
      video.show(stream);
      view.classList.toggle("has-video", stream !== null);
      return;
    }
    if (stream === null || videoLoading) return;
    videoLoading = true;
    import("./video.js").then(
      ({ tableVideo }) => {
        videoLoading = false;
        // The table was left meanwhile (destroy clears the stream), or the stream went.
        if (wantedStream === null) return;
        video = tableVideo();
        // After the felt: the game's controls come first in the Tab order.
        view.insertBefore(video.el, view.querySelector(".table-view__roads"));
        showVideo(wantedStream);
      },
      () => {
        // Not fetched (the connection dropped): the next snapshot asks again; the game goes on.
        videoLoading = false;
      },
    );
  }

  // ---- a studio table's notices ----

  // A studio table's procedures, in words (never a card): a halt, a misscan, a new shoe, … Its
  // module is fetched the first time a studio table is shown (a table the server deals needs
  // none); the notices of events that come meanwhile are kept for it, in order.
  /** @type {ReturnType<typeof import("./studionotice.js").studioNotice> | null} */
  let desk = null;
  let deskLoading = false;
  /** @type {{notice?: string, detail?: string}[]} */
  let deskEvents = [];
  let destroyed = false;

  /** The studio notice, at a studio table: loaded if need be, and shown as the table is now. */
  function showDesk() {
    if (desk) {
      desk.fromSnapshot(model.studioDesk(state.table ?? {}));
      return;
    }
    if (deskLoading || !model.isStudio(state.table ?? {})) return;
    deskLoading = true;
    import("./studionotice.js").then(
      ({ studioNotice }) => {
        deskLoading = false;
        if (destroyed) return;
        desk = studioNotice();
        notice.el.after(desk.el);
        for (const event of deskEvents) desk.update({ notice: event.notice, detail: event.detail });
        deskEvents = [];
        showDesk();
      },
      () => {
        // Not fetched (the connection dropped): the next snapshot asks again.
        deskLoading = false;
      },
    );
  }

  // ---- the squeeze, at a face-down table ----

  // Its module (js/squeeze.js, with its CSS) is fetched the first time a face-down table shows.
  /** @type {ReturnType<typeof import("./squeeze.js").squeezeView> | null} */
  let squeezer = null;
  let squeezeLoading = false;

  function showSqueeze() {
    if (squeezer) {
      squeezer.fromSnapshot(state.table);
      return;
    }
    if (squeezeLoading || !state.table || model.dealing(state.table) !== "face-down") return;
    squeezeLoading = true;
    import("./squeeze.js").then(
      ({ squeezeView }) => {
        squeezeLoading = false;
        if (destroyed) return;
        squeezer = squeezeView({ slot: stage.slot, send: (m) => feed.send(m), say: (text) => say(text) });
        stage.el.after(squeezer.el);
        squeezer.fromSnapshot(state.table);
      },
      () => {
        // Not fetched (the connection dropped): the next snapshot asks again.
        squeezeLoading = false;
      },
    );
  }

  /** @param {{studio?: any, notice?: string, detail?: string}} event  a `studio` message */
  function studioEvent(event) {
    if (desk) desk.update(event);
    else {
      deskEvents.push(event);
      showDesk();
    }
  }

  // ---- messages ----

  /** @type {number | null} */
  let messageTimer = null;
  /**
   * @param {string} text
   * @param {string} [tone]
   */
  function say(text, tone = "error") {
    window.clearTimeout(messageTimer);
    message.dataset.tone = tone;
    message.textContent = text;
    messageTimer = window.setTimeout(() => {
      message.textContent = "";
    }, MESSAGE_MS);
  }

  /** @param {any} error  an ApiError, or any error a request met */
  function showError(error) {
    say(explain(error, model.offeredBets(state.table ?? {}), account.balance), "error");
    // The session clock opens its dialog (it may not have polled since the check fell due).
    if (error?.code === "reality_check_due") window.dispatchEvent(new CustomEvent("baccarat:reality-check"));
  }

  // ---- drawing ----

  function draw() {
    const table = state.table;
    if (!table) return;
    const open = state.round?.phase === "open";
    const playing = account.playing;
    // Chips laid for a window that closed were never sent: dropped, and said.
    if (player.expire()) say(t("confirm.dropped"), "info");
    const pending = state.pending ?? {};
    const laid = Object.values(pending).reduce((a, b) => a + b, 0);
    pendingBar.hidden = laid === 0;
    actions.hidden = laid > 0;
    confirmButton.textContent = t("confirm.send", { amount: money(laid) });
    confirmButton.disabled = player.sending() || !state.online;
    bets.update({
      pending,
      bets: model.offeredBets(table),
      stakes: state.stakes,
      shares: model.stakeShares(model.allStakes(table)),
      open: open && playing,
      winners: state.winners,
      offline: !state.online,
    });
    rack.update(model.chips(table), account.balance);
    // Offline (the feed is down), nothing can be bet: the controls are disabled, not only marked.
    rack.el.disabled = !state.online;
    const staked = Object.values(state.stakes).reduce((a, b) => a + b, 0);
    stage.setStaked(staked ? t("table.staked", { amount: money(staked) }) : "");
    spectator.hidden = playing;
    // No seat offered while demo play is not (a break on this device, or guests turned off).
    const blocked = account.joinBlocked;
    /** @type {HTMLButtonElement} */ (spectator.querySelector("button")).hidden = blocked !== null;
    /** @type {HTMLElement} */ (spectator.querySelector(".spectator__blocked")).textContent = blocked ?? "";
    view.classList.toggle("is-spectator", !playing);
    for (const button of actions.querySelectorAll("button")) {
      button.setAttribute("aria-disabled", String(!(open && playing)));
      button.disabled = !state.online;
    }
    view.classList.toggle("is-offline", !state.online);
    info.update(table, state.round);
    fairness.update(model.shoe(table), state.finished ?? model.finishedShoe(table), model.isStudio(table));
  }

  /** @param {import("./model.js").Round | null} round */
  function setRound(round) {
    state.round = round;
    stage.setRound({
      id: round?.id,
      label: model.roundLabel(state.table ?? {}, round),
      phase: round?.phase,
      closesAt: round?.closes_at,
      bettingMs: model.settings(state.table ?? {}).betting_ms,
    });
  }

  /** @param {Record<string, any>} result  a round's result (round_result, or a snapshot's) */
  function showResult(result) {
    state.winners = new Set([result.winner]);
    stage.showResult(result);
  }

  // ---- the feed ----

  /** @param {any} snapshot  the feed's snapshot (or a table) */
  function applySnapshot(snapshot) {
    const table = snapshot.table ?? snapshot;
    syncClock(table.now);
    const before = state.round?.id;
    state.table = table;
    // The table's own money (the server's one currency: /api/config said the same).
    const { code, digits } = model.currency(table);
    setCurrency(code, digits);
    document.title = t("app.title", { page: model.tableName(table) });
    title.textContent = model.tableName(table);
    showVideo(model.videoStream(table));
    const round = model.currentRound(table);
    setRound(round);
    if (round?.id !== before) {
      state.stakes = {};
      state.placements = [];
    }
    stage.clear();
    if (model.dealing(table) === "face-down" && round && round.phase !== "open") {
      for (const [hand, position] of FIRST_FOUR) stage.placeBack(hand, position);
    }
    for (const card of model.revealedCards(table)) stage.showCard(card, false);
    state.winners = new Set();
    const result = model.result(table);
    if (result) showResult(result);
    notice.fromSnapshot(table.last_round);
    showDesk();
    showSqueeze();
    board.setStudio(model.isStudio(table));
    board.update(model.roads(table));
    draw();
    if (account.playing) {
      account.refresh();
      if (round && (round.phase === "open" || round.phase === "closed" || round.phase === "dealt"))
        loadStakes(round.id);
    }
  }

  /**
   * After a reload or reconnect: the stakes this player already has on the round.
   * @param {number} roundId
   */
  async function loadStakes(roundId) {
    try {
      const view = await api.round(roundId);
      if (state.round?.id !== roundId) return;
      state.stakes = model.openStakes(view);
      state.placements = Object.keys(state.stakes).length ? [{ ...state.stakes }] : [];
      draw();
    } catch {
      // Stakes stay unknown until the next accepted request or settlement.
    }
  }

  /** @param {any} event  one event of the feed */
  function onEvent(event) {
    syncClock(event.now);
    const table = state.table;
    if (!table) return;
    switch (event.type) {
      case "shoe_start":
        table.shoe = { ...event.shoe, cards_left: (event.shoe?.decks ?? 0) * 52 };
        table.roads = null;
        board.update(null);
        // A studio shoe has no commitment to show: the `studio` message that follows says who
        // shuffled it.
        if (model.isStudioShoe(table.shoe)) state.shoeEnded = false;
        else if (state.shoeEnded) {
          // The last shoe ended while this page watched: show the shuffle, not an instant restart.
          stage.shuffle(table.shoe);
          announce(t("shuffle.announce", { shoe: table.shoe.number ?? "–" }));
        } else announce(t("table.new_shoe"));
        state.shoeEnded = false;
        break;
      case "round_open":
        table.stakes = {};
        state.stakes = {};
        state.placements = [];
        state.winners = new Set();
        table.result = null;
        table.cards = [];
        stage.clear();
        squeezer?.clear();
        model.useLimits(table, event.limits);
        setRound(model.roundFromEvent(event));
        announce(t("table.round_open", { shoe: table.shoe?.number ?? "–", number: event.number ?? "–" }));
        break;
      case "studio":
        // A studio table's desk changed, with what happened (never a card).
        table.studio = event.studio ?? table.studio;
        studioEvent(event);
        break;
      case "watching":
        // Sent shortly after anyone joins or leaves (this connection included).
        table.watching = event.count;
        break;
      case "stakes":
        // Every player's stakes on the open round, per spot (at most about every 0.5 s).
        if (event.round_id === state.round?.id) table.stakes = event.stakes ?? {};
        break;
      case "bets_closed":
        if (event.stakes) table.stakes = event.stakes;
        setRound({ ...state.round, phase: "closed" });
        if (model.dealing(table) === "face-down") {
          for (const [hand, position] of FIRST_FOUR) stage.placeBack(hand, position);
        }
        announce(t("table.no_more_bets"));
        break;
      case "squeeze":
        stage.squeeze(event.hand, event.position);
        squeezer?.onSqueeze(event);
        break;
      case "peel":
        squeezer?.onPeel(event);
        break;
      case "refused":
        // A peel or turn of this page's refused (private, outside the sequence).
        squeezer?.refused(event);
        break;
      case "balance":
        // An operator's wallet answered a credit: the player's balance there (private), the
        // one figure after a round for an operator's player (their `settled` carries none).
        account.walletSaid(event.balance);
        break;
      case "card":
        sounds()?.card();
        setRound({ ...state.round, phase: "dealt" });
        table.cards = [...(table.cards ?? []), event];
        if (table.shoe && Number.isInteger(table.shoe.cards_left)) table.shoe.cards_left -= 1;
        // Kept covered on this screen until the player peels it, if they chose so.
        if (!squeezer?.holds(event, () => stage.showCard(event))) stage.showCard(event);
        break;
      case "round_result":
        table.result = event;
        squeezer?.uncover();
        showResult(event);
        notice.resulted();
        if (event.roads) {
          table.roads = event.roads;
          board.update(event.roads);
        }
        sounds()?.result();
        sounds()?.say(
          event.winner === "tie" ? t("result.tie") : t("result.wins", { side: t(`side.${event.winner}`) }),
          language() === "id" ? "id-ID" : "en-US",
        );
        announce(
          t("result.announce", {
            result: event.winner === "tie" ? t("result.tie") : t("result.wins", { side: t(`side.${event.winner}`) }),
            player: event.player_total,
            banker: event.banker_total,
          }),
        );
        break;
      case "settled":
        setRound({ ...state.round, phase: "settled" });
        // Stakes stay on their spots until the next round opens, as chips do on a real table.
        if (event.wagers) settled(event);
        break;
      case "round_void":
        setRound({ ...state.round, phase: "voided" });
        // Said once, by the notice (and the live region): not also as a message under the felt.
        notice.voided(event);
        squeezer?.clear();
        state.stakes = {};
        account.refresh();
        break;
      case "shoe_end":
        state.finished = event.shoe ?? { id: event.shoe_id, server_seed: event.server_seed };
        state.shoeEnded = true;
        table.previous_shoe = state.finished;
        announce(t("table.shoe_ended"));
        // A studio table now waits for its dealer's next shoe (the server sends no `studio`
        // message for it: the next one comes with that shoe).
        if (table.studio) {
          table.studio = { ...table.studio, next: "shoe_change" };
          showDesk();
        }
        break;
      default:
        break;
    }
    draw();
  }

  /**
   * The player's own settlement (the private part of a `settled` event).
   * @param {Record<string, any>} event
   */
  function settled(event) {
    // An operator's player's copy has no balance: their wallet's answer to the credit follows.
    account.setBalance(event.balance);
    for (const wager of event.wagers) {
      if (wager.returned > wager.stake) state.winners.add(wager.bet);
    }
    const net = event.net;
    const pushed = event.wagers.every((wager) => wager.result === "push");
    const line =
      net > 0
        ? { text: t("result.you_win", { amount: money(net) }), tone: "win" }
        : net < 0
          ? { text: t("result.you_lose", { amount: money(-net) }), tone: "lose" }
          : { text: t(pushed ? "result.returned" : "result.even"), tone: "push" };
    stage.addResultLine(line);
    if (net > 0) {
      stage.celebrate();
      sounds()?.win();
    }
    announce(
      Number.isInteger(event.balance)
        ? t("result.balance", { line: line.text, amount: money(event.balance) })
        : line.text,
    );
    // After this event's redraw: the chips move as the dealer moves them.
    window.requestAnimationFrame(() => settleChips(event.wagers));
  }

  /**
   * The dealer's hands at settlement: a winning stake gets its payout as a chip sliding in from
   * the dealer's side, a losing stake is swept away towards the dealer, a push stays. With
   * reduced motion the same outcome is shown still (the payout chip beside the stake, the lost
   * stake faded).
   * @param {Record<string, any>[]} wagers
   */
  function settleChips(wagers) {
    for (const wager of wagers) {
      const stake = /** @type {HTMLElement | null} */ (
        bets.el.querySelector(`.spot[data-bet="${CSS.escape(String(wager.bet))}"] .spot__stake`)
      );
      if (!stake || stake.dataset.settle) continue;
      const outcome = wager.returned > wager.stake ? "won" : wager.returned === 0 ? "lost" : "push";
      stake.dataset.settle = outcome;
      if (outcome !== "won") continue;
      const chip = stake.querySelector(".chip");
      if (!chip) continue;
      const paid = /** @type {HTMLElement} */ (chip.cloneNode(true));
      paid.classList.add("chip--paid");
      paid.setAttribute("aria-hidden", "true");
      chip.after(paid);
    }
  }

  // ---- lifetime ----

  /** @param {"connecting" | "live" | "lost"} status */
  function onStatus(status) {
    showConnection(status);
    state.online = status === "live";
    draw();
  }
  const feed = new TableFeed(id, { onSnapshot: applySnapshot, onEvent, onStatus });
  feed.start();
  // The feed depends only on who is seated: a new token (a seat taken, a login, a logout,
  // watching only) reconnects it; a balance or the demo flag only redraws.
  let seatedAs = session.token;
  const unsubscribe = account.subscribe(() => {
    if (session.token !== seatedAs) {
      seatedAs = session.token;
      feed.resync();
    }
    draw();
  });

  return {
    destroy() {
      feed.stop();
      strip.destroy();
      unsubscribe();
      stage.destroy();
      board.destroy();
      destroyed = true;
      desk?.destroy();
      squeezer?.destroy();
      video?.destroy();
      video = null;
      wantedStream = null;
      window.clearTimeout(messageTimer);
      showConnection(null);
    },
  };
}
