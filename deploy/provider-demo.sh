#!/usr/bin/env bash
# Provider mode on one machine: the game server, the reference operator wallet beside it as the
# operator's platform, one operator with a rupiah player, and a signed launch link to open.
# `make serve-provider` runs it; Ctrl-C stops both processes. Nothing here is needed in
# production: an operator runs its own wallet (docs/wallet.md) and launches its own players.
set -euo pipefail
BIN=${BIN:-.venv/bin}
PORT=${PORT:-8000}
WALLET_PORT=${WALLET_PORT:-8800}
DIR=${DIR:-$(mktemp -d -t baccarat-provider-XXXXXX)}
DB="sqlite:///$DIR/game.sqlite"
export BACCARAT_SEED_KEY=${BACCARAT_SEED_KEY:-$(python3 -c 'import secrets; print(secrets.token_hex(32))')}

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT INT TERM
wait_for() { for _ in $(seq 1 100); do curl -fs -o /dev/null "$1" && return 0; sleep 0.2; done; echo "no answer from $1" >&2; exit 1; }

"$BIN/baccarat" serve --locale id --tables standard-idr,ez-idr --port "$PORT" --db "$DB" &
pids+=($!)
wait_for "http://127.0.0.1:$PORT/healthz"

secret=$("$BIN/baccarat" operator add demo-casino --name "Kasino Demo" --currency IDR \
  --wallet-url "http://127.0.0.1:$WALLET_PORT" --db "$DB" | tail -n 1)
BACCARAT_WALLET_SECRET=$secret "$BIN/baccarat" wallet reference --port "$WALLET_PORT" \
  --db "$DIR/wallet.sqlite" --operator-id demo-casino --game-url "http://127.0.0.1:$PORT" &
pids+=($!)
wait_for "http://127.0.0.1:$WALLET_PORT/admin/health"

curl -fsS -X POST "http://127.0.0.1:$WALLET_PORT/admin/players" -H 'Content-Type: application/json' \
  -d '{"player_id": "budi", "balance": 5000000, "currency": "IDR"}' >/dev/null
launch() {
  curl -fsS -X POST "http://127.0.0.1:$WALLET_PORT/admin/launch" -H 'Content-Type: application/json' \
    -d '{"player_id": "budi", "display_name": "Budi", "language": "id", "table_id": "standard-idr"}' |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["launch_url"])'
}
echo
echo "Game server:   http://127.0.0.1:$PORT   (data in $DIR)"
echo "Wallet:        http://127.0.0.1:$WALLET_PORT   (player budi holds Rp 5.000.000)"
echo "Open this launch link within 2 minutes (each link works once):"
echo "  $(launch)"
echo "A new link: curl -X POST http://127.0.0.1:$WALLET_PORT/admin/launch -H 'Content-Type: application/json' -d '{\"player_id\": \"budi\"}'"
wait
