// @ts-check
// Cards typed at the console, as a keyboard-wedge scanner types them ("Ah⏎", "10d⏎", "TD⏎"):
// the code read and normalised in the page (a code that is not one is refused here, without a
// request), a fresh scan_id for each read, and the reads sent one after the other. A read that
// got no answer (the network, a server error, a rate limit) is sent again with the same
// scan_id until the server answers: the server answers a repeated scan_id as it did the first
// time, so a card is never counted twice. A refusal drops that read and any typed after it.

import { ApiError } from "../api.js";
import { parseCard } from "../cards.js";

/**
 * A card code as the server takes it ("Ah", "Td"), or null: rank A 2-9 T (or 10) J Q K and
 * suit s h d c, in any case, with spaces around it.
 * @param {string} text
 * @returns {string | null}
 */
export function cardCode(text) {
  const trimmed = String(text).trim();
  if (!/^(?:[2-9atjqk]|10)[shdc]$/i.test(trimmed)) return null;
  const card = parseCard(trimmed);
  return card ? `${card.rank}${card.suit}` : null;
}

/**
 * "console-<random>-<n>": unique per read (the random part per page, n counting up).
 * @returns {() => string}
 */
export function scanIds() {
  const bytes = new Uint8Array(6);
  window.crypto.getRandomValues(bytes);
  const random = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  let n = 0;
  return () => `console-${random}-${++n}`;
}

/**
 * Whether a failed request may be sent again as it was: no answer, or none that judged it.
 * @param {unknown} error
 * @returns {boolean}
 */
export function retryable(error) {
  if (!(error instanceof ApiError)) return false;
  return error.status === 0 || error.status === 429 || error.status >= 500 || error.code === "table_starting";
}

/** The pauses between the tries of one read, in ms (the last repeats). */
const PAUSES = [500, 1000, 2000, 4000];

/**
 * One read on its way: its card, its scan_id, and how many times it was sent.
 * @typedef {{card: string, scanId: string, tries: number}} Read
 */

/**
 * What the queue tells its owner.
 * @typedef {object} ReadEvents
 * @property {(read: Read) => void} sending  a read is about to be sent (again, when tries > 0)
 * @property {(read: Read, answer: any) => void} placed  the server's answer
 * @property {(read: Read, error: unknown, dropped: Read[]) => void} refused  and the reads dropped after it
 * @property {(read: Read, error: unknown, pause: number) => void} retrying  no answer: sent again after `pause` ms
 */

/** Reads sent in the order typed, one at a time. */
export class ReadQueue {
  /**
   * @param {(card: string, scanId: string) => Promise<any>} send
   * @param {ReadEvents} events
   * @param {() => string} [nextId]
   */
  constructor(send, events, nextId = scanIds()) {
    this.send = send;
    this.events = events;
    this.nextId = nextId;
    /** @type {Read[]} */
    this.waiting = [];
    this.running = false;
    this.stopped = false;
    /** @type {number | null} */
    this.timer = null;
    /** @type {(() => void) | null} */
    this.wake = null;
  }

  /**
   * Queue a card (a normalised code); its read.
   * @param {string} card
   * @returns {Read}
   */
  add(card) {
    const read = { card, scanId: this.nextId(), tries: 0 };
    this.waiting.push(read);
    void this.run();
    return read;
  }

  /** Send the read waiting for a pause now. */
  retryNow() {
    this.wake?.();
  }

  /** Stop (the view is gone): nothing more is sent. */
  stop() {
    this.stopped = true;
    this.wake?.();
  }

  /** @returns {number} reads not answered yet */
  get pending() {
    return this.waiting.length;
  }

  async run() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.waiting.length && !this.stopped) {
        const read = this.waiting[0];
        this.events.sending(read);
        read.tries += 1;
        try {
          const answer = await this.send(read.card, read.scanId);
          this.waiting.shift();
          if (!this.stopped) this.events.placed(read, answer);
        } catch (error) {
          if (this.stopped) break;
          if (retryable(error)) {
            const pause = PAUSES[Math.min(read.tries - 1, PAUSES.length - 1)];
            this.events.retrying(read, error, pause);
            await this.sleep(pause);
            continue;
          }
          this.waiting.shift();
          const dropped = this.waiting.splice(0);
          this.events.refused(read, error, dropped);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** @param {number} ms */
  sleep(ms) {
    return new Promise((resolve) => {
      const done = () => {
        window.clearTimeout(this.timer);
        this.wake = null;
        resolve(undefined);
      };
      this.wake = done;
      this.timer = window.setTimeout(done, ms);
    });
  }
}
