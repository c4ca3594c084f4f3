// @ts-check
// `baccarat-shoe-v1` in the browser (docs/fairness.md): the commitment, the key and its HMAC
// word stream, the unbiased index, Fisher–Yates and the order digest, then the shoe replayed
// coup by coup (burn, drawing rules, cut card, last-coup rule) and compared with a shoe record
// (docs/shoe-record.md). The same checks, in the same order and with the same JSON paths, as
// `baccarat verify` (baccarat.verify) makes of a record's order and coups; wagers and payouts
// are left to it (they need the rule set's pay tables).
//
// Pure: no DOM, no network. Hashes come from WebCrypto (`crypto.subtle`), which browsers give
// only to secure contexts (HTTPS, or localhost); without it the async functions reject.

export const ALGORITHM = "baccarat-shoe-v1";
export const RECORD_FORMAT = "baccarat-shoe-record/1";
/** Bytes in a server seed. */
export const SEED_BYTES = 32;
/** A coup is started only if this many cards are left (a coup never runs short). */
export const MAX_COUP_CARDS = 6;

const RANKS = "A23456789TJQK";
const SUITS = "cdhs";
const WORD_LIMIT = 2 ** 32;
const WORDS_PER_BLOCK = 8; // one 32-byte HMAC-SHA256 output holds eight u32

/** A shoe record that is not one (wrong format, a field missing or of the wrong JSON type). */
export class RecordError extends Error {}

/** The word stream ran out: more blocks are needed (a rare rejected word). */
class StreamExhausted extends Error {}

// ---- bytes and hashes ------------------------------------------------------------------------

/**
 * @param {string} hex  an even number of hex digits, either case
 * @returns {Uint8Array}
 */
export function hexToBytes(hex) {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new Error(`not hexadecimal bytes: ${JSON.stringify(hex)}`);
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * @param {Uint8Array} bytes
 * @returns {string}  lowercase hex
 */
export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {string} text */
function utf8(text) {
  return new TextEncoder().encode(text);
}

/** @returns {SubtleCrypto} */
function subtle() {
  const found = globalThis.crypto?.subtle;
  if (!found) {
    throw new Error("this browser gives no WebCrypto here: open the page over HTTPS (or on localhost) to verify");
  }
  return found;
}

/**
 * SHA-256 of bytes, or of a string's UTF-8.
 * @param {Uint8Array | string} data
 * @returns {Promise<Uint8Array>}
 */
export async function sha256(data) {
  const bytes = typeof data === "string" ? utf8(data) : data;
  return new Uint8Array(await subtle().digest("SHA-256", /** @type {BufferSource} */ (bytes)));
}

/**
 * @param {Uint8Array | string} data
 * @returns {Promise<string>}
 */
export async function sha256Hex(data) {
  return bytesToHex(await sha256(data));
}

/**
 * HMAC-SHA256 under one key, imported once: `mac(message)` gives the 32-byte tag.
 * @param {Uint8Array} key
 * @returns {Promise<(message: Uint8Array) => Promise<Uint8Array>>}
 */
export async function hmacSha256(key) {
  const crypto = subtle();
  const imported = await crypto.importKey(
    "raw",
    /** @type {BufferSource} */ (key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return async (message) => new Uint8Array(await crypto.sign("HMAC", imported, /** @type {BufferSource} */ (message)));
}

// ---- the scheme ------------------------------------------------------------------------------

/**
 * A server seed from its 64 hex digits; an Error saying what is wrong otherwise.
 * @param {string} text
 * @returns {Uint8Array}
 */
export function parseServerSeed(text) {
  const digits = text.trim();
  if (digits.length !== 2 * SEED_BYTES) {
    throw new Error(
      `a server seed is ${2 * SEED_BYTES} hex digits (${SEED_BYTES} bytes), not ${digits.length} characters`,
    );
  }
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw new Error(`a server seed is hexadecimal (0-9, a-f), not '${digits}'`);
  return hexToBytes(digits);
}

/**
 * The commitment `hex(SHA256(S))`, published before the shoe's first bet.
 * @param {Uint8Array} serverSeed
 * @returns {Promise<string>}
 */
export function commitment(serverSeed) {
  return sha256Hex(serverSeed);
}

/**
 * Code-point order of two strings (Python's `sorted`; `<` on strings compares UTF-16 units).
 * @param {string} a
 * @param {string} b
 */
function byCodePoint(a, b) {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const step = /** @type {number} */ (x[i].codePointAt(0)) - /** @type {number} */ (y[i].codePointAt(0));
    if (step !== 0) return step;
  }
  return x.length - y.length;
}

/**
 * The client seed of a shared table: `hex(SHA256(shoe_id + "|" + "|".join(sorted("id:seed"))))`.
 * @param {string} shoeId
 * @param {Record<string, string>} playerSeeds  player id -> the seed that player sent
 * @returns {Promise<string>}
 */
export function tableClientSeed(shoeId, playerSeeds) {
  const entries = Object.entries(playerSeeds).map(([player, seed]) => `${player}:${seed}`);
  entries.sort(byCodePoint);
  return sha256Hex(`${shoeId}|${entries.join("|")}`);
}

/**
 * The key `K = HMAC(S, "baccarat-shoe-v1|" + shoe_id + "|" + client_seed)`.
 * @param {Uint8Array} serverSeed
 * @param {string} clientSeed
 * @param {string} shoeId
 * @returns {Promise<Uint8Array>}
 */
export async function orderKey(serverSeed, clientSeed, shoeId) {
  const mac = await hmacSha256(serverSeed);
  return mac(utf8(`${ALGORITHM}|${shoeId}|${clientSeed}`));
}

/**
 * `count` blocks of the stream of `K` from block `from`: `HMAC(K, uint64_be(i))`, concatenated.
 * @param {Uint8Array} key
 * @param {number} count
 * @param {number} [from]
 * @returns {Promise<Uint8Array>}
 */
export async function streamBlocks(key, count, from = 0) {
  const mac = await hmacSha256(key);
  const blocks = await Promise.all(
    Array.from({ length: count }, (_, n) => {
      const index = new Uint8Array(8);
      const view = new DataView(index.buffer);
      view.setUint32(0, Math.floor((from + n) / WORD_LIMIT));
      view.setUint32(4, (from + n) % WORD_LIMIT);
      return mac(index);
    }),
  );
  const data = new Uint8Array(32 * count);
  blocks.forEach((block, n) => {
    data.set(block, 32 * n);
  });
  return data;
}

/**
 * The stream's bytes read as consecutive big-endian u32 words.
 * @param {Uint8Array} bytes
 * @returns {{next: () => number, read: () => number}}  next throws StreamExhausted at the end
 */
function wordReader(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let read = 0;
  return {
    next() {
      if (4 * (read + 1) > bytes.length) throw new StreamExhausted();
      read += 1;
      return view.getUint32(4 * (read - 1));
    },
    read: () => read,
  };
}

/**
 * The first word value rejected for a draw in `[0, n)`: `(2**32 // n) * n`.
 * @param {number} n  1 to 2**32
 */
export function indexLimit(n) {
  if (!Number.isInteger(n) || n < 1 || n > WORD_LIMIT) throw new RangeError(`cannot draw an index in [0, ${n})`);
  return Math.floor(WORD_LIMIT / n) * n; // exact: every value is below 2**53
}

/**
 * An index in `[0, n)`: read words until one is below `indexLimit(n)`, return it mod n.
 * Never `u % n` alone, never a float. `rejected`, when given, gets every word thrown away.
 * @param {number} n
 * @param {() => number} nextWord
 * @param {{n: number, word: number, limit: number}[]} [rejected]
 */
export function unbiasedIndex(n, nextWord, rejected) {
  const limit = indexLimit(n);
  let word = nextWord();
  while (word >= limit) {
    rejected?.push({ n, word, limit });
    word = nextWord();
  }
  return word % n;
}

/**
 * Fisher–Yates from the top over `[0, size)`: for i = size-1 … 1, swap deck[i] and
 * deck[index(i + 1)].
 * @param {number} size
 * @param {() => number} nextWord
 * @returns {{order: number[], rejections: {n: number, word: number, limit: number}[]}}
 */
export function fisherYates(size, nextWord) {
  const deck = Array.from({ length: size }, (_, i) => i);
  /** @type {{n: number, word: number, limit: number}[]} */
  const rejections = [];
  for (let i = size - 1; i > 0; i -= 1) {
    const j = unbiasedIndex(i + 1, nextWord, rejections);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return { order: deck, rejections };
}

/**
 * @typedef {object} DerivedOrder
 * @property {Uint8Array} key  K
 * @property {string} block0  the stream's first block, hex
 * @property {number[]} order  card numbers, position 0 dealt first (the card turned for the burn)
 * @property {number} wordsRead  u32 words the shuffle consumed
 * @property {{n: number, word: number, limit: number}[]} rejections  every word rejected
 */

/**
 * The card order of a shoe from its four inputs.
 * @param {Uint8Array} serverSeed
 * @param {string} clientSeed
 * @param {string} shoeId
 * @param {number} decks  1 to 8
 * @returns {Promise<DerivedOrder>}
 */
export async function deriveOrder(serverSeed, clientSeed, shoeId, decks) {
  if (serverSeed.length !== SEED_BYTES)
    throw new Error(`a server seed is ${SEED_BYTES} bytes, not ${serverSeed.length}`);
  if (!Number.isInteger(decks) || decks < 1 || decks > 8)
    throw new RangeError(`a shoe holds 1 to 8 decks, not ${decks}`);
  const size = 52 * decks;
  const key = await orderKey(serverSeed, clientSeed, shoeId);
  // Enough blocks for every draw unless a word is rejected; then again with one more block
  // (one draw in about 100,000 shoes rejects a word, so this is nearly always one pass).
  let blocks = Math.max(1, Math.ceil((size - 1) / WORDS_PER_BLOCK));
  for (;;) {
    const stream = await streamBlocks(key, blocks);
    const words = wordReader(stream);
    try {
      const { order, rejections } = fisherYates(size, words.next);
      return { key, block0: bytesToHex(stream.subarray(0, 32)), order, wordsRead: words.read(), rejections };
    } catch (error) {
      if (!(error instanceof StreamExhausted)) throw error;
      blocks += 1;
    }
  }
}

/**
 * The digest `hex(SHA256(uint16_be(c) for c in order))`, published with the reveal.
 * @param {number[]} order
 * @returns {Promise<string>}
 */
export function orderDigest(order) {
  const bytes = new Uint8Array(2 * order.length);
  const view = new DataView(bytes.buffer);
  order.forEach((card, i) => {
    view.setUint16(2 * i, card);
  });
  return sha256Hex(bytes);
}

// ---- cards and the drawing rules -------------------------------------------------------------

/**
 * A card number's code: rank `c % 13` (A 2 … 9 T J Q K), suit `(c // 13) % 4` (c d h s).
 * @param {number} card
 */
export function cardCode(card) {
  return RANKS[card % 13] + SUITS[Math.floor(card / 13) % 4];
}

/**
 * A card's baccarat value: A = 1, 2–9 their pips, ten and faces 0.
 * @param {number} card
 */
export function cardPoint(card) {
  const rank = card % 13;
  return rank >= 9 ? 0 : rank + 1;
}

/**
 * A canonical card code (`"Td"`) as the number of that card in the first deck, or null.
 * @param {unknown} code
 * @returns {number | null}
 */
export function parseCardCode(code) {
  if (typeof code !== "string" || code.length !== 2) return null;
  const rank = RANKS.indexOf(code[0]);
  const suit = SUITS.indexOf(code[1]);
  return rank < 0 || suit < 0 ? null : 13 * suit + rank;
}

/**
 * The units digit of the sum of the cards' values.
 * @param {number[]} cards
 */
export function handTotal(cards) {
  return cards.reduce((sum, card) => sum + cardPoint(card), 0) % 10;
}

/** A two-card 8 or 9 is a natural: nobody draws. @param {number} twoCardTotal */
export function isNatural(twoCardTotal) {
  return twoCardTotal >= 8;
}

/** Without a natural, Player draws on 0–5 and stands on 6–7. @param {number} total */
export function playerDraws(total) {
  return total <= 5;
}

/**
 * The Banker's tableau: one row per Banker two-card total 0–7 (8 and 9 are naturals), one
 * column per value of the Player's third card, 0 (ten, face) to 9; D draws, S stands. When
 * Player stood, Banker plays like Player: draws on 0–5, stands on 6–7.
 *
 *   Banker 0–2 draws whatever the Player's third card; 3 draws unless it is an 8; 4 draws on
 *   2–7; 5 on 4–7; 6 on 6–7; 7 always stands.
 */
export const BANKER_TABLEAU = Object.freeze([
  // Player's third card:  0123456789
  "DDDDDDDDDD", // Banker 0
  "DDDDDDDDDD", // Banker 1
  "DDDDDDDDDD", // Banker 2
  "DDDDDDDDSD", // Banker 3
  "SSDDDDDDSS", // Banker 4
  "SSSSDDDDSS", // Banker 5
  "SSSSSSDDSS", // Banker 6
  "SSSSSSSSSS", // Banker 7
]);

/**
 * Whether Banker draws, by its two-card total and the value of the Player's third card (null
 * when Player stood). Naturals are decided before: Banker 8 or 9 never draws.
 * @param {number} total
 * @param {number | null} playerThird
 */
export function bankerDraws(total, playerThird) {
  if (total >= 8) return false;
  if (playerThird === null) return total <= 5;
  return BANKER_TABLEAU[total][playerThird] === "D";
}

/**
 * @typedef {object} DealtCoup
 * @property {number[]} cards  in deal order: P1 B1 P2 B2, Player's third, Banker's third
 * @property {string[]} codes  the same as card codes
 * @property {number} playerTotal
 * @property {number} bankerTotal
 * @property {"player" | "banker" | "tie"} winner
 */

/**
 * Deal one coup, taking each card from `draw` only when the rules call for it.
 * @param {() => number} draw
 * @returns {DealtCoup}
 */
export function dealCoup(draw) {
  const [p1, b1, p2, b2] = [draw(), draw(), draw(), draw()];
  const player = [p1, p2];
  const banker = [b1, b2];
  if (!isNatural(handTotal(player)) && !isNatural(handTotal(banker))) {
    /** @type {number | null} */
    let third = null;
    if (playerDraws(handTotal(player))) {
      player.push(draw());
      third = cardPoint(player[2]);
    }
    if (bankerDraws(handTotal(banker), third)) banker.push(draw());
  }
  const cards = [p1, b1, p2, b2, ...player.slice(2), ...banker.slice(2)];
  const playerTotal = handTotal(player);
  const bankerTotal = handTotal(banker);
  const winner = playerTotal > bankerTotal ? "player" : bankerTotal > playerTotal ? "banker" : "tie";
  return { cards, codes: cards.map(cardCode), playerTotal, bankerTotal, winner };
}

/**
 * @typedef {object} Procedure  how a shoe is dealt (a record's `procedure`, with its decks)
 * @property {number} decks
 * @property {boolean} burn
 * @property {number} cutCardFromEnd
 * @property {"one-more" | "finish"} lastCoup
 */

/**
 * @typedef {object} ReplayedShoe
 * @property {string[]} burn  the burned cards, the turned card first
 * @property {number} cutPosition  index of the first card behind the cut card
 * @property {DealtCoup[]} coups  every coup the shoe deals
 */

/**
 * Deal a whole shoe from its order: burn (the first card turned, as many more burned as its
 * value, ten and faces 10), then coups while at least six cards are left; the coup that deals
 * the card at `cutPosition` or beyond brings the cut card out, and then one more coup is dealt
 * (`one-more`) or none (`finish`).
 * @param {number[]} order
 * @param {Procedure} procedure
 * @returns {ReplayedShoe}
 */
export function replayShoe(order, procedure) {
  const burned = procedure.burn ? 1 + (cardPoint(order[0]) || 10) : 0;
  if (order.length - burned < MAX_COUP_CARDS) throw new Error("the burn leaves fewer cards than one coup needs");
  const cutPosition = order.length - procedure.cutCardFromEnd;
  let position = burned;
  const draw = () => {
    position += 1;
    return order[position - 1];
  };
  /** @type {DealtCoup[]} */
  const coups = [];
  let lastCoupDue = false;
  let finished = false;
  while (!finished && order.length - position >= MAX_COUP_CARDS) {
    coups.push(dealCoup(draw));
    if (lastCoupDue) finished = true;
    else if (position > cutPosition) {
      // This coup dealt the card behind the cut card: the cut card came out.
      if (procedure.lastCoup === "finish") finished = true;
      else lastCoupDue = true;
    }
  }
  return { burn: order.slice(0, burned).map(cardCode), cutPosition, coups };
}

/**
 * Deal exactly one coup from given card codes (the drawing rules alone, without the order).
 * @param {number[]} cards
 * @returns {DealtCoup}
 */
function dealExactly(cards) {
  let next = 0;
  const coup = dealCoup(() => {
    if (next >= cards.length) throw new Error(`the drawing rules need more than these ${cards.length} cards`);
    next += 1;
    return cards[next - 1];
  });
  if (next !== cards.length) {
    throw new Error(`the drawing rules deal ${next} cards here, the record has ${cards.length}`);
  }
  return coup;
}

// ---- a record --------------------------------------------------------------------------------

/**
 * @typedef {object} Failure  one thing a record gets wrong (indices from 0, as in baccarat verify)
 * @property {number | null} coup
 * @property {number | null} card
 * @property {string} field
 * @property {string} path  a JSON path in the record: `commitment`, `coups[2].cards[1]`, `coups[9]`
 * @property {string} message
 */

/**
 * @typedef {object} CoupCheck
 * @property {number} number  from 1
 * @property {boolean} ok
 * @property {string} reason  the first failure in words ("" when ok)
 */

/**
 * @typedef {object} Check
 * @property {boolean | null} ok  null: not checked (say why in message)
 * @property {string} message
 */

/**
 * @typedef {object} VerifyReport
 * @property {boolean} ok  everything checked holds, and the seed was revealed
 * @property {boolean} revealed
 * @property {string} shoeId
 * @property {string} clientSeed
 * @property {Check} commitment
 * @property {Check} digest
 * @property {Check} burn
 * @property {CoupCheck[]} coups  one per coup of the record
 * @property {number} missing  coups the shoe deals that the record lacks
 * @property {number} notDealt  coups left in the order of a shoe the record says ended early
 * @property {Failure[]} failures  every failure, record-level and per coup
 * @property {DerivedOrder | null} derived  the rebuilt order (null when it cannot be)
 * @property {string} summary  one line
 */

/** @type {Record<string, string>} */
const REQUIRED = {
  algorithm: "string",
  shoe_id: "string",
  decks: "integer",
  ruleset: "object",
  procedure: "object",
  commitment: "string",
  client_seed: "string",
  cut_position: "integer",
  coups: "array",
};
/** @type {Record<string, string>} */
const REVEALED = { server_seed: "string", digest: "string", burn: "array" };

/**
 * @param {unknown} value
 * @param {string} kind
 */
function hasType(value, kind) {
  if (kind === "integer") return Number.isInteger(value);
  if (kind === "array") return Array.isArray(value);
  if (kind === "object") return typeof value === "object" && value !== null && !Array.isArray(value);
  return typeof value === kind;
}

/** @param {unknown} value */
function py(value) {
  // A value as the Python verifier quotes it: strings in single quotes.
  return typeof value === "string" ? `'${value}'` : JSON.stringify(value);
}

/**
 * @param {number | null} coup
 * @param {number | null} card
 * @param {string} field
 */
function pathOf(coup, card, field) {
  const inner = card === null ? field : `${field}[${card}]`;
  if (coup === null) return inner;
  return inner ? `coups[${coup}].${inner}` : `coups[${coup}]`;
}

/**
 * Check a shoe record (`baccarat-shoe-record/1`): the commitment, the order's digest, the burn
 * and every coup against the shoe replayed from the revealed seed. Throws RecordError when the
 * object is not a record at all.
 * @param {any} record
 * @returns {Promise<VerifyReport>}
 */
export async function verifyRecord(record) {
  if (!hasType(record, "object")) throw new RecordError("not a shoe record: a JSON object is needed");
  if (record.format !== RECORD_FORMAT) {
    throw new RecordError(`not a shoe record: format is ${py(record.format)}, not '${RECORD_FORMAT}'`);
  }
  for (const [fields, required] of /** @type {[Record<string, string>, boolean][]} */ ([
    [REQUIRED, true],
    [REVEALED, false],
  ])) {
    for (const [name, kind] of Object.entries(fields)) {
      if (!(name in record)) {
        if (required) throw new RecordError(`not a complete shoe record: '${name}' is missing`);
      } else if (!hasType(record[name], kind)) {
        throw new RecordError(`'${name}' has the wrong type: ${JSON.stringify(record[name])}`);
      }
    }
  }

  /** @type {Failure[]} */
  const failures = [];
  /**
   * @param {string} field
   * @param {string} message
   * @param {number | null} [coup]
   * @param {number | null} [card]
   */
  const fail = (field, message, coup = null, card = null) => {
    failures.push({ coup, card, field, path: pathOf(coup, card, field), message });
  };
  /** @type {Check} */
  let commitmentCheck = { ok: null, message: "not checked: the server seed is not revealed" };
  /** @type {Check} */
  let digestCheck = { ok: null, message: "not checked: the server seed is not revealed" };
  /** @type {Check} */
  let burnCheck = { ok: null, message: "not checked: the server seed is not revealed" };

  const algorithmOk = record.algorithm === ALGORITHM;
  if (!algorithmOk) {
    fail("algorithm", `this verifier knows '${ALGORITHM}', not ${py(record.algorithm)}: the order is not checked`);
  }
  const procedure = readProcedure(record.decks, record.procedure, fail);
  if (procedure !== null) {
    const expected = 52 * procedure.decks - procedure.cutCardFromEnd;
    if (record.cut_position !== expected) {
      fail("cut_position", `should be ${expected}, the record says ${py(record.cut_position)}`);
    }
  }

  /** @type {DerivedOrder | null} */
  let derived = null;
  /** @type {DealtCoup[] | null} */
  let dealt = null;
  const revealed = "server_seed" in record;
  if (!revealed) {
    fail("server_seed", "not revealed yet: the order, digest and burn cannot be checked");
  } else if (algorithmOk && procedure !== null) {
    let seed = null;
    try {
      seed = parseServerSeed(record.server_seed);
    } catch (error) {
      fail("server_seed", error.message);
      commitmentCheck = { ok: false, message: error.message };
    }
    if (seed !== null) {
      const computed = await commitment(seed);
      commitmentCheck =
        computed === record.commitment
          ? { ok: true, message: `SHA-256 of the server seed is the commitment ${computed}` }
          : {
              ok: false,
              message: `SHA-256 of the server seed is ${computed}, the record commits to ${py(record.commitment)}: the seed or the commitment was changed`,
            };
      if (!commitmentCheck.ok) fail("commitment", commitmentCheck.message);
      derived = await deriveOrder(seed, record.client_seed, record.shoe_id, procedure.decks);
      const digest = await orderDigest(derived.order);
      if (!("digest" in record)) {
        digestCheck = { ok: false, message: "missing from a revealed record" };
      } else if (record.digest !== digest) {
        digestCheck = {
          ok: false,
          message: `the order rebuilt from server_seed, client_seed, shoe_id and decks has digest ${digest}, the record says ${py(record.digest)}`,
        };
      } else digestCheck = { ok: true, message: `the rebuilt order has the recorded digest ${digest}` };
      if (!digestCheck.ok) fail("digest", digestCheck.message);
      const shoe = replayShoe(derived.order, procedure);
      if (!("burn" in record)) {
        burnCheck = { ok: false, message: "missing from a revealed record" };
        fail("burn", burnCheck.message);
      } else {
        const before = failures.length;
        compareCards("burn", shoe.burn, record.burn, null, fail);
        burnCheck =
          failures.length === before
            ? { ok: true, message: `burned ${shoe.burn.length} cards: ${shoe.burn.join(" ") || "none"}` }
            : { ok: false, message: failures[failures.length - 1].message };
      }
      dealt = shoe.coups;
    }
  }

  /** @type {CoupCheck[]} */
  const coups = [];
  record.coups.forEach((/** @type {unknown} */ entry, /** @type {number} */ number) => {
    const before = failures.length;
    checkCoup(number, entry, dealt, fail);
    const own = failures.slice(before);
    coups.push({
      number: number + 1,
      ok: own.length === 0,
      reason: own.map((failure) => describe(failure)).join("; "),
    });
  });
  let missing = 0;
  let notDealt = 0;
  const endedEarly = record.ended_early ?? false;
  const short = dealt !== null && record.coups.length < dealt.length ? dealt.length - record.coups.length : 0;
  if (typeof endedEarly !== "boolean") {
    fail("ended_early", `must be true or false, not ${py(endedEarly)}`);
  } else if (short > 0 && endedEarly) {
    notDealt = short; // an operator's new shoe: the rest of the order was never dealt
  } else if (short > 0 && dealt !== null) {
    missing = short;
    fail(
      "",
      `missing: the shoe deals ${dealt.length} coups under its last-coup rule, the record stops after ${record.coups.length}`,
      record.coups.length,
    );
  } else if (dealt !== null && endedEarly) {
    fail("ended_early", "the record holds every coup the shoe deals: it did not end early");
  }

  const report = {
    ok: failures.length === 0,
    revealed,
    shoeId: record.shoe_id,
    clientSeed: record.client_seed,
    commitment: commitmentCheck,
    digest: digestCheck,
    burn: burnCheck,
    coups,
    missing,
    notDealt,
    failures,
    derived,
    summary: "",
  };
  report.summary = summarize(report);
  return report;
}

/**
 * A failure in words, as `baccarat verify` prints it (`coup 3, card 2 (coups[2].cards[1]): …`).
 * @param {Failure} failure
 */
export function describe(failure) {
  if (failure.coup === null) return `${failure.path}: ${failure.message}`;
  const where = `coup ${failure.coup + 1}${failure.card === null ? "" : `, card ${failure.card + 1}`}`;
  return `${where} (${failure.path}): ${failure.message}`;
}

/** @param {VerifyReport} report */
function summarize(report) {
  const good = report.coups.filter((coup) => coup.ok).length;
  const total = report.coups.length;
  if (!report.revealed) {
    return `Not revealed yet: ${good} of ${total} coups follow the drawing rules; the order cannot be checked before the seed is revealed.`;
  }
  if (report.ok) {
    const early = report.notDealt
      ? ` The shoe was ended early: the ${report.notDealt} coups left in its order were not dealt.`
      : "";
    return `Verified: the seed matches its commitment, the order its digest, and all ${total} coups were dealt from it.${early}`;
  }
  const parts = [];
  if (report.commitment.ok === false) parts.push("the seed does not match its commitment");
  if (report.digest.ok === false) parts.push("the order does not match its digest");
  if (report.burn.ok === false) parts.push("the burn differs");
  if (good < total) parts.push(`${total - good} of ${total} coups differ from the shoe`);
  if (report.missing) parts.push(report.missing === 1 ? "1 coup is missing" : `${report.missing} coups are missing`);
  const checked = ["commitment", "digest", "burn"];
  parts.push(...report.failures.filter((f) => f.coup === null && !checked.includes(f.field)).map(describe));
  return `Not verified: ${parts.join("; ")}.`;
}

/**
 * The record's procedure with its decks, or null (and a failure) when it is not valid.
 * @param {number} decks
 * @param {any} entry
 * @param {(field: string, message: string) => void} fail
 * @returns {Procedure | null}
 */
function readProcedure(decks, entry, fail) {
  const { burn, cut_card_from_end: cut, last_coup: last } = entry;
  if (typeof burn !== "boolean" || !Number.isInteger(cut) || (last !== "one-more" && last !== "finish")) {
    fail(
      "procedure",
      `needs burn (true/false), cut_card_from_end (an integer) and last_coup ('one-more' or 'finish'), not ${JSON.stringify(entry)}`,
    );
    return null;
  }
  if (decks < 1 || decks > 8) {
    fail("procedure", `a shoe holds 1 to 8 decks, not ${decks}`);
    return null;
  }
  if (cut < 0 || cut > 52 * decks) {
    fail("procedure", `cut_card_from_end must be 0 to ${52 * decks}, not ${cut}`);
    return null;
  }
  return { decks, burn, cutCardFromEnd: cut, lastCoup: last };
}

/**
 * Report the first card that differs (or the first missing or extra one).
 * @param {string} field
 * @param {string[]} expected
 * @param {unknown[]} found
 * @param {number | null} coup
 * @param {(field: string, message: string, coup?: number | null, card?: number | null) => void} fail
 */
function compareCards(field, expected, found, coup, fail) {
  for (let index = 0; index < Math.min(expected.length, found.length); index += 1) {
    if (expected[index] !== found[index]) {
      fail(field, `the shoe dealt ${py(expected[index])}, the record says ${py(found[index])}`, coup, index);
      return;
    }
  }
  if (expected.length !== found.length) {
    fail(
      field,
      `the shoe dealt ${expected.length} cards here, the record has ${found.length}`,
      coup,
      Math.min(expected.length, found.length),
    );
  }
}

/**
 * One coup of the record against the coup the shoe dealt (or, without the order, against the
 * drawing rules alone): its cards, totals and winner.
 * @param {number} number  from 0
 * @param {any} entry
 * @param {DealtCoup[] | null} dealt
 * @param {(field: string, message: string, coup?: number | null, card?: number | null) => void} fail
 */
function checkCoup(number, entry, dealt, fail) {
  if (!hasType(entry, "object")) {
    fail("", `a coup is a JSON object, not ${JSON.stringify(entry)}`, number);
    return;
  }
  /** @type {number[] | null} */
  let cards = null;
  if (!Array.isArray(entry.cards)) {
    fail("cards", `must be a list of card codes, not ${JSON.stringify(entry.cards ?? null)}`, number);
  } else {
    cards = [];
    for (const [index, code] of entry.cards.entries()) {
      const card = parseCardCode(code);
      if (card === null) {
        fail("cards", `${py(code)} is not a card code (a rank of A23456789TJQK, then a suit of cdhs)`, number, index);
        cards = null;
        break;
      }
      cards.push(card);
    }
  }
  /** @type {DealtCoup} */
  let coup;
  if (dealt !== null) {
    if (number >= dealt.length) {
      fail("", `the shoe ends after ${dealt.length} coups under its last-coup rule; this coup was never dealt`, number);
      return;
    }
    coup = dealt[number];
    if (cards !== null) compareCards("cards", coup.codes, entry.cards, number, fail);
  } else if (cards === null) {
    return;
  } else {
    try {
      coup = dealExactly(cards);
    } catch (error) {
      fail("cards", error.message, number);
      return;
    }
  }
  for (const [field, expected] of /** @type {[string, unknown][]} */ ([
    ["player_total", coup.playerTotal],
    ["banker_total", coup.bankerTotal],
    ["winner", coup.winner],
  ])) {
    if (entry[field] !== expected) {
      fail(field, `should be ${py(expected)}, the record says ${py(entry[field] ?? null)}`, number);
    }
  }
  // A coup voided after its cards were drawn: its cards are the order's, and it settles nothing.
  const voided = entry.voided ?? false;
  if (typeof voided !== "boolean") fail("voided", `must be true or false, not ${py(voided)}`, number);
  else if (voided && Array.isArray(entry.wagers) && entry.wagers.length > 0) {
    fail("wagers", "a voided coup settles no wager: every stake was returned", number);
  }
}
