// @ts-check
// The visitor's seat in the top bar: spectator, guest or logged-in player, the balance, the
// connection. A guest's balance is demo money and says "Demo". Demo play is not offered while
// this device knows of a running break (breakmemo.js), nor when the server turned guests off.

import { ApiError, api } from "./api.js";
import { logout } from "./auth.js";
import { breakMemo } from "./breakmemo.js";
import { announce } from "./dom.js";
import { money } from "./format.js";
import { onLanguage, t } from "./i18n.js";
import { errorText } from "./refusals.js";
import { session } from "./session.js";

/** @type {Set<() => void>} */
const listeners = new Set();
/** @type {number | null} */
let balance = null;
// Whether the balance is a guest's demo money (the server says so), and whether guests may play.
let demo = false;
let guestsOn = true;
/** The name of the casino whose player this is (an operator's launch: its wallet's balance). */
/** @type {string | null} */
let operator = null;
// How many balances the casino's wallet has told this page (the feed's `balance` message, its
// answer to a credit): a figure asked for before the latest of them (`/api/me`, an undo's
// estimate) is older than it and must not replace it.
let told = 0;

// The top bar's elements (index.html): they are always there.
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * Why demo play is not offered now, or null when it is.
 * @returns {string | null}
 */
function joinBlocked() {
  const onBreak = breakMemo.text();
  if (onBreak) return onBreak;
  if (!guestsOn && !session.savedToken) return t("account.guests_off");
  return null;
}

function render() {
  const playing = Boolean(session.token);
  $("balance").hidden = !playing;
  $("balance").classList.toggle("balance--demo", playing && demo);
  $("balance-demo").hidden = !(playing && demo);
  $("balance-amount").textContent = playing && Number.isInteger(balance) ? money(balance) : "–";
  // The account view's own copy of the balance, when it is shown.
  const panel = document.getElementById("account-balance-amount");
  if (panel) panel.textContent = Number.isInteger(balance) ? money(balance) : "–";
  const blocked = joinBlocked();
  const join = $("join");
  join.hidden = playing || blocked !== null;
  join.textContent = t(session.savedToken ? "bar.take_seat" : "bar.join");
  const note = $("break-note");
  const onBreak = playing ? null : breakMemo.text();
  note.hidden = !onBreak;
  note.textContent = onBreak ?? "";
  $("leave").hidden = !playing;
  const name = session.username;
  $("user").hidden = !(playing && name);
  $("user").textContent = name && operator ? t("bar.operator_user", { name, operator }) : (name ?? "");
  // The bar may cut the name short (an ellipsis): the whole of it on hover.
  $("user").title = $("user").textContent;
  $("login").hidden = Boolean(name);
  $("logout").hidden = !name;
  $("history-open").hidden = !playing;
}

function changed() {
  render();
  for (const listener of listeners) listener();
}

export const account = {
  /** @returns {number | null} the balance last known, minor units */
  get balance() {
    return balance;
  },
  /** Whether the balance shown is a guest's demo money. */
  get demo() {
    return demo;
  },
  /** Why the visitor cannot take a seat as a guest now ("On a break until …"), or null. */
  get joinBlocked() {
    return joinBlocked();
  },
  get playing() {
    return Boolean(session.token);
  },
  /**
   * Call `listener` whenever the visitor joins, leaves or changes seat; returns the unsubscribe.
   * @param {() => void} listener
   * @returns {() => boolean}
   */
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** @param {unknown} value  a balance the server sent (anything else is ignored) */
  setBalance(value) {
    if (!Number.isInteger(value)) return;
    balance = /** @type {number} */ (value);
    render();
  },
  /**
   * The casino wallet's own balance after a credit (the feed's `balance` message): the truth.
   * @param {unknown} value
   */
  walletSaid(value) {
    if (!Number.isInteger(value)) return;
    told += 1;
    this.setBalance(value);
  },
  /** A mark taken before a request whose answer carries a balance (for `setBalanceSince`). */
  get mark() {
    return told;
  },
  /**
   * A balance asked for at `mark`, unless the wallet has told a newer one since.
   * @param {unknown} value
   * @param {number} mark
   */
  setBalanceSince(value, mark) {
    if (told === mark) this.setBalance(value);
  },
  /** Read the balance again; a token the server no longer knows is dropped. */
  async refresh() {
    if (!session.token) {
      render();
      return;
    }
    try {
      const asked = told;
      const me = await api.me();
      const was = demo;
      const wasOperator = operator;
      demo = me.demo === true;
      operator = typeof me.operator === "string" ? me.operator : null;
      this.setBalanceSince(me.balance, asked);
      if (was !== demo || wasOperator !== operator) changed();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        session.clear();
        changed();
      }
    }
  },
  async join() {
    const blocked = joinBlocked();
    if (blocked) {
      render();
      // Already in words: refusals.js shows a "blocked" error's message as it is.
      throw Object.assign(new Error(blocked), { code: "blocked" });
    }
    if (session.savedToken) {
      session.watching = false;
      changed();
      await this.refresh();
      announce(t("account.seated"));
      return;
    }
    const player = await api.createGuest();
    session.save(player);
    balance = player.balance;
    demo = player.demo !== false;
    changed();
    announce(t("account.welcome_guest", { amount: money(player.balance) }));
  },
  /**
   * After a login: the new seat's balance (`login.balance`) and everyone told.
   * @param {{balance: number}} login
   */
  signedIn(login) {
    balance = login.balance;
    demo = false;
    operator = null;
    changed();
  },
  /** Log out (the session, a login's or a guest's, ends on the server) and become a visitor. */
  async signOut() {
    await logout();
    balance = null;
    demo = false;
    operator = null;
    changed();
  },
  /** Forget the seat here only (the server already ended it, as a break does). */
  forget() {
    session.clear();
    balance = null;
    demo = false;
    operator = null;
    changed();
  },
  watch() {
    session.watching = true;
    changed();
    announce(t("account.watching"));
  },
  /** Wire the top-bar buttons. */
  init() {
    $("join").addEventListener("click", () => {
      this.join().catch((error) => announce(t("account.join_failed", { reason: errorText(error) })));
    });
    $("leave").addEventListener("click", () => this.watch());
    $("logout").addEventListener("click", () => this.signOut());
    // A break met on this device hides demo play at once, and shows it again when it ends.
    const followBreak = (/** @type {() => void} */ update) => {
      update();
      const left = (breakMemo.until() ?? 0) - Date.now();
      if (left > 0 && left < 2 ** 31 - 1) window.setTimeout(changed, left + 1000);
    };
    window.addEventListener("baccarat:break", () => followBreak(changed));
    onLanguage(() => {
      render();
      const dot = $("connection");
      if (!dot.hidden) showConnection(/** @type {any} */ (dot.dataset.status));
    });
    followBreak(render);
    api.config().then(
      (config) => {
        if (config.guests !== false) return;
        guestsOn = false;
        changed();
      },
      () => {},
    );
    return this.refresh();
  },
};

/**
 * Show the connection state in the top bar and, when lost, in a banner.
 * @param {"connecting" | "live" | "lost" | null} status  null hides both
 */
export function showConnection(status) {
  const dot = $("connection");
  const banner = $("connection-banner");
  if (status === null) {
    dot.hidden = true;
    banner.hidden = true;
    return;
  }
  if (status === "live" && dot.dataset.status === "lost") announce(t("connection.restored"));
  dot.hidden = false;
  dot.dataset.status = status;
  dot.textContent = t(`connection.${status}`);
  // A lost feed's banner stays through its attempts to reconnect ("connecting"): it goes
  // only once the feed is live again, not for the moment of each attempt.
  if (status === "lost") {
    banner.hidden = false;
    banner.textContent = t("connection.banner");
  } else if (status === "live") {
    banner.hidden = true;
    banner.textContent = "";
  }
}
