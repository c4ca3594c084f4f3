// Reads the API's table JSON (GET /api/tables/{id}, the feed's snapshot) into the few things
// the views draw. Views never reach into the server's JSON themselves, so a renamed field is a
// change in this file alone.

const PHASES = {
  open: "Place your bets",
  closed: "No more bets",
  dealt: "Dealing",
  settled: "Result",
  voided: "Round void",
};

/** Words for a round phase. */
export function phaseWords(phase) {
  return PHASES[phase] ?? "Waiting for the dealer";
}

export function tableId(table) {
  return table.id;
}

/** The rule set's {name, title, description}. */
export function ruleset(table) {
  return table.ruleset ?? {};
}

/** The table's display name: its rule set's title. */
export function tableName(table) {
  return ruleset(table).title ?? table.id;
}

/** The bets offered: {name: {label, description, pays, min_stake, max_stake}}, in catalogue order. */
export function offeredBets(table) {
  return table.bets ?? {};
}

/** Chip denominations in minor units, smallest first. */
export function chips(table) {
  return [...(table.chips ?? [])].sort((a, b) => a - b);
}

/** The table-wide limits: {min, max} in minor units (null when unknown). */
export function limits(table) {
  return { min: table.limits?.min ?? null, max: table.limits?.max ?? null };
}

/** The dealer's settings: {betting_ms, reveal_ms, result_ms, dealing}. */
export function settings(table) {
  return table.settings ?? {};
}

/** "face-up" or "face-down". */
export function dealing(table) {
  return settings(table).dealing === "face-down" ? "face-down" : "face-up";
}

/** The current round: {id, number, phase, closes_at (epoch ms)}, or null. */
export function currentRound(table) {
  const round = table.round;
  if (!round) return null;
  // The API gives the deadline as ISO text (closes_at) and as epoch ms (closes_at_ms).
  const closes = Number.isFinite(round.closes_at_ms) ? round.closes_at_ms : Date.parse(round.closes_at);
  return { ...round, closes_at: closes };
}

/** The round in an event (round_open carries closes_at_ms too). */
export function roundFromEvent(event) {
  return currentRound({ round: { id: event.round_id, number: event.number, phase: "open", closes_at: event.closes_at, closes_at_ms: event.closes_at_ms } });
}

/** The cards of the current round revealed so far: [{hand, position, index, card}]. */
export function revealedCards(table) {
  return table.cards ?? [];
}

/** The current round's result once all its cards are revealed, else null. */
export function result(table) {
  return table.result ?? null;
}

/** The roads snapshot. */
export function roads(table) {
  return table.roads ?? null;
}

/** The shoe in play: {id, number, algorithm, decks, commitment, cards_left}. */
export function shoe(table) {
  return table.shoe ?? null;
}

/** The last ended shoe with its revealed seed ({id, server_seed, digest}), or null. */
export function finishedShoe(table) {
  return table.previous_shoe ?? null;
}

/** How many connections watch the table. */
export function watching(table) {
  return table.watching ?? 0;
}

/** The caller's stakes still in play, from GET /api/rounds/{id}'s bets: {spot: minor}. */
export function openStakes(roundView) {
  const stakes = {};
  for (const bet of roundView?.bets ?? []) {
    if (bet.outcome === null || bet.outcome === undefined) stakes[bet.spot] = (stakes[bet.spot] ?? 0) + bet.stake;
  }
  return stakes;
}
