// @ts-check
// The live feed of one table over the WebSocket API.
//
// The server sends a snapshot on connect, then events numbered by a per-table `seq`. An event
// whose seq is not the next one means we missed something: the feed reconnects, and the new
// connection's snapshot replaces whatever the page had. A dropped connection is retried with
// growing pauses (0.5 s doubling to 8 s); every reconnect starts again from a snapshot.
//
// A player connects with a single-use ticket (POST /api/ws-tickets), never with the token:
// a URL ends up in logs. A token the server refuses connects as a spectator.

import { api } from "./api.js";
import { session } from "./session.js";

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 8000;

/**
 * A status of the feed.
 * @typedef {"connecting" | "live" | "lost"} Status
 */

export class TableFeed {
  /**
   * @param {string} tableId
   * @param {{onSnapshot: (event: any) => void, onEvent: (event: any) => void, onStatus: (status: Status) => void}} handlers
   *   onStatus receives "connecting", "live" or "lost".
   */
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** @type {number | null} the last table seq seen */
    this.seq = null;
    this.pause = FIRST_PAUSE_MS;
    /** @type {number | null} */
    this.timer = null;
    this.stopped = false;
    /** @type {object | null} the connect in progress: a later one supersedes it */
    this.attempt = null;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    window.clearTimeout(this.timer);
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close();
      this.socket = null;
    }
  }

  /**
   * Send a message up the feed (a squeezer's peel or turn); false if the feed is not open.
   * @param {object} message
   * @returns {boolean}
   */
  send(message) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Drop the connection and open a new one (which starts with a fresh snapshot). */
  resync() {
    if (this.stopped) return;
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close();
    }
    this.connect();
  }

  /**
   * The feed's address, with a player's ticket.
   * @param {string | null} [ticket]
   * @returns {string}
   */
  url(ticket = null) {
    const url = new URL(`/ws/tables/${encodeURIComponent(this.tableId)}`, window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    if (ticket) url.searchParams.set("ticket", ticket);
    return url.href;
  }

  /**
   * A ticket for the player's feed, or null (a spectator, or a token no longer valid).
   * @returns {Promise<string | null>}
   */
  async ticket() {
    if (!session.token) return null;
    try {
      return (await api.wsTicket()).ticket;
    } catch {
      return null;
    }
  }

  async connect() {
    this.handlers.onStatus("connecting");
    this.seq = null;
    const attempt = {};
    this.attempt = attempt;
    const ticket = await this.ticket();
    // Stopped, or another connect started, while the ticket was on its way.
    if (this.stopped || this.attempt !== attempt) return;
    const socket = new WebSocket(this.url(ticket));
    this.socket = socket;
    socket.onopen = () => {
      this.pause = FIRST_PAUSE_MS;
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = () => {
      if (this.socket !== socket || this.stopped) return;
      this.socket = null;
      this.handlers.onStatus("lost");
      this.timer = window.setTimeout(() => this.connect(), this.pause);
      this.pause = Math.min(this.pause * 2, LONGEST_PAUSE_MS);
    };
  }

  /** @param {string} text  one message of the socket */
  receive(text) {
    let event;
    try {
      event = JSON.parse(text);
    } catch {
      return;
    }
    if (event.type === "snapshot") {
      this.seq = Number.isInteger(event.seq) ? event.seq : null;
      this.handlers.onStatus("live");
      this.handlers.onSnapshot(event);
      return;
    }
    // Private events (a player's own settlement) carry no table seq.
    if (Number.isInteger(event.seq)) {
      if (this.seq !== null && event.seq <= this.seq) return;
      if (this.seq !== null && event.seq !== this.seq + 1) {
        this.resync();
        return;
      }
      this.seq = event.seq;
    }
    this.handlers.onEvent(event);
  }
}
