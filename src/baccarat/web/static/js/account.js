// The visitor's seat in the top bar: spectator, guest or logged-in player, the balance, the
// connection.

import { ApiError, api } from "./api.js";
import { logout } from "./auth.js";
import { announce } from "./dom.js";
import { money } from "./format.js";
import { session } from "./session.js";

const listeners = new Set();
let balance = null;

const $ = (id) => document.getElementById(id);

function render() {
  const playing = Boolean(session.token);
  $("balance").hidden = !playing;
  $("balance-amount").textContent = playing && Number.isInteger(balance) ? money(balance) : "–";
  const join = $("join");
  join.hidden = playing;
  join.textContent = session.savedToken ? "Take a seat" : "Play as guest";
  $("leave").hidden = !playing;
  const name = session.username;
  $("user").hidden = !(playing && name);
  $("user").textContent = name ?? "";
  $("login").hidden = Boolean(name);
  $("logout").hidden = !name;
  $("history-open").hidden = !playing;
}

function changed() {
  render();
  for (const listener of listeners) listener();
}

export const account = {
  get balance() {
    return balance;
  },
  get playing() {
    return Boolean(session.token);
  },
  /** Call `listener` whenever the visitor joins, leaves or changes seat. */
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  setBalance(value) {
    if (!Number.isInteger(value)) return;
    balance = value;
    render();
  },
  /** Read the balance again; a token the server no longer knows is dropped. */
  async refresh() {
    if (!session.token) {
      render();
      return;
    }
    try {
      const me = await api.me();
      this.setBalance(me.balance);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        session.clear();
        changed();
      }
    }
  },
  async join() {
    if (session.savedToken) {
      session.watching = false;
      changed();
      await this.refresh();
      announce("You have taken a seat.");
      return;
    }
    const player = await api.createGuest();
    session.save(player);
    balance = player.balance;
    changed();
    announce(`Welcome. Your balance is ${money(player.balance)}.`);
  },
  /** After a login: the new seat's balance (`login.balance`) and everyone told. */
  signedIn(login) {
    balance = login.balance;
    changed();
  },
  /** Log out (a registered player's session ends on the server) and become a visitor. */
  async signOut() {
    await logout();
    balance = null;
    changed();
  },
  /** Forget the seat here only (the server already ended it, as a break does). */
  forget() {
    session.clear();
    balance = null;
    changed();
  },
  watch() {
    session.watching = true;
    changed();
    announce("You are watching. Bets are off until you take a seat.");
  },
  /** Wire the top-bar buttons. */
  init() {
    $("join").addEventListener("click", () => {
      this.join().catch((error) => announce(`Could not join: ${error.message}`));
    });
    $("leave").addEventListener("click", () => this.watch());
    $("logout").addEventListener("click", () => this.signOut());
    render();
    return this.refresh();
  },
};

/** Show the connection state in the top bar and, when lost, in a banner. */
export function showConnection(status) {
  const dot = $("connection");
  const banner = $("connection-banner");
  if (status === null) {
    dot.hidden = true;
    banner.hidden = true;
    return;
  }
  if (status === "live" && dot.dataset.status === "lost") announce("Connection restored.");
  dot.hidden = false;
  dot.dataset.status = status;
  dot.textContent = { live: "Live", connecting: "Connecting…", lost: "Offline" }[status] ?? status;
  banner.hidden = status !== "lost";
  banner.textContent = status === "lost" ? "Connection lost. Reconnecting… the table will catch up by itself." : "";
}
