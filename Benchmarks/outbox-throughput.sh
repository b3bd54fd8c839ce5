#!/usr/bin/env bash
# Outbox benchmark: durable taps per second committed one at a time (WAL, synchronous=FULL: one fsync per
# tap) and delivered end to end to a local backend, beside a plain `sqlite3` insert loop with the same
# settings as the reference on the same disk. Prints a table.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${OUTBOX_COUNT:-2000}
work=$(mktemp -d)
receiver_pid=
cleanup() {
  [ -n "$receiver_pid" ] && kill -9 "$receiver_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

swift build -c release --product OutboxBenchmark >/dev/null
bin=$(swift build -c release --show-bin-path)/OutboxBenchmark
field() { sed -E "s/.*$1=([^ ]+).*/\1/" <<<"$2"; }

# The reference: the sqlite3 shell inserting the same rows, each statement its own transaction.
{
  echo "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
  echo "CREATE TABLE outbox (id INTEGER PRIMARY KEY, idempotency_key TEXT UNIQUE, url TEXT, body BLOB, state TEXT, created_at REAL);"
  for ((i = 0; i < count; i++)); do
    echo "INSERT INTO outbox (idempotency_key, url, body, state, created_at) VALUES ('bench-$i', 'https://api.example.com/messages/$i/like', '{\"message\":$i}', 'pending', $i);"
  done
} >"$work/reference.sql"
start=$(date +%s.%N)
sqlite3 "$work/reference.sqlite" <"$work/reference.sql" >/dev/null
reference_seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')

ours=$("$bin" enqueue "$count" "$work/outbox.sqlite")

python3 scripts/tap-receiver.py --log "$work/received.ndjson" --max-seconds 600 >"$work/port" &
receiver_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
delivered=$("$bin" deliver "$work/outbox.sqlite" "http://127.0.0.1:$(head -1 "$work/port")")
received=$(wc -l <"$work/received.ndjson")

rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }
printf '\n%-58s %10s %10s\n' "outbox benchmark ($count taps, one durable commit each)" "taps/s" "seconds"
printf '%-58s %10s %10.3f\n' "sqlite3 shell: INSERT per transaction (reference)" "$(rate "$count" "$reference_seconds")" "$reference_seconds"
printf '%-58s %10s %10.3f\n' "Pushbutton Outbox.enqueue (check duplicates, cap, insert)" \
  "$(rate "$count" "$(field seconds "$ours")")" "$(field seconds "$ours")"
printf '%-58s %10s %10.3f\n' "Pushbutton drain to a local HTTP backend (URLSession)" \
  "$(rate "$(field count "$delivered")" "$(field seconds "$delivered")")" "$(field seconds "$delivered")"
awk -v a="$(rate "$count" "$(field seconds "$ours")")" -v b="$(rate "$count" "$reference_seconds")" \
  'BEGIN { printf "\nratio: durable enqueue runs at %.0f%% of the plain sqlite3 insert loop\n", 100 * a / b }'
echo "backend received $received requests for $(field count "$delivered") delivered taps"
