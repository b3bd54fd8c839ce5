#!/usr/bin/env bash
# Outbox benchmark, each figure beside the peer that sets its target, in the same run (median of
# OUTBOX_ROUNDS alternating rounds, min and max beside it):
# - enqueue: taps committed one at a time, each its own durable transaction (WAL, synchronous=FULL: one
#   fsync per tap), against the sqlite3 shell inserting the same rows into the same table (the outbox's own
#   schema, created by the benchmark) one statement per transaction with the same settings, on the same disk;
# - drain: the outbox delivering every tap to a local HTTP/1.1 backend (scripts/tap-receiver.py), against
#   curl posting the same requests (same headers and bodies) to a fresh instance of the same backend, on one
#   kept-alive connection and with --parallel (8 connections); the faster curl is the reference.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${OUTBOX_COUNT:-2000}
rounds=${OUTBOX_ROUNDS:-3}
work=$(mktemp -d)
receiver_pid=
cleanup() {
  [ -n "$receiver_pid" ] && kill -9 "$receiver_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# OUTBOX_BENCHMARK_BIN: a benchmark binary built elsewhere (an older commit's, for a before/after table).
if [ -n "${OUTBOX_BENCHMARK_BIN:-}" ]; then
  bin=$OUTBOX_BENCHMARK_BIN
else
  swift build -c release --product OutboxBenchmark >/dev/null
  bin=$(swift build -c release --show-bin-path)/OutboxBenchmark
fi
field() { sed -E "s/.*$1=([^ ]+).*/\1/" <<<"$2"; }
now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN { print e - s }'; }

{
  echo "PRAGMA synchronous=FULL;"
  for ((i = 0; i < count; i++)); do
    echo "INSERT INTO outbox (idempotency_key, url, method, body, state, created_at, next_attempt_at, expires_at, notification_id, action_id) VALUES ('bench-$i', 'https://api.example.com/messages/$i/like', 'POST', CAST('{\"message\":$i}' AS BLOB), 'pending', $i, $i, 9999999999, 'n$i', 'like');"
  done
} >"$work/reference.sql"

# curl's requests: what the outbox sends for each tap (its rebased URL, method, both headers, the body).
curl_config() {
  for ((i = 0; i < count; i++)); do
    [ "$i" -gt 0 ] && echo next
    printf 'url = "http://127.0.0.1:%s/messages/%s/like"\nrequest = "POST"\n' "$1" "$i"
    printf 'header = "Idempotency-Key: bench-%s"\nheader = "Content-Type: application/json"\n' "$i"
    printf 'data-binary = "{\\"message\\":%s}"\noutput = "/dev/null"\n' "$i"
  done
}

# Starts a fresh backend logging to $1; sets $port.
start_receiver() {
  : >"$work/port"
  python3 scripts/tap-receiver.py --log "$1" --max-seconds 600 >"$work/port" &
  receiver_pid=$!
  for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
  port=$(head -1 "$work/port")
}
stop_receiver() {
  kill "$receiver_pid" 2>/dev/null || true
  wait "$receiver_pid" 2>/dev/null || true
  receiver_pid=
}

declare -A results
record() { results[$1]="${results[$1]:-} $2"; }
for ((round = 1; round <= rounds; round++)); do
  rm -f "$work"/*.sqlite* "$work"/*.ndjson
  "$bin" schema "$work/reference.sqlite"
  start=$(now)
  sqlite3 "$work/reference.sqlite" <"$work/reference.sql" >/dev/null
  record shell "$(awk -v n="$count" -v s="$(since "$start")" 'BEGIN { print n / s }')"
  [ "$(sqlite3 "$work/reference.sqlite" 'SELECT count(*) FROM outbox')" = "$count" ]

  ours=$("$bin" enqueue "$count" "$work/outbox.sqlite")
  record enqueue "$(awk -v n="$count" -v s="$(field seconds "$ours")" 'BEGIN { print n / s }')"
  # The disk's fsync rate drifts with other load: each round's ratio is taken from back-to-back runs.
  record enqueue-ratio "$(awk -v a="${results[enqueue]##* }" -v b="${results[shell]##* }" 'BEGIN { print 100 * a / b }')"

  # (An older binary without group commit leaves its row empty.)
  senders="urlsession"
  if grouped=$("$bin" enqueue-group "$count" "$work/grouped.sqlite" 2>/dev/null); then
    record group "$(awk -v n="$count" -v s="$(field seconds "$grouped")" 'BEGIN { print n / s }')"
    senders="urlsession curl"
  fi

  # The same taps drained once per sender (the closed database is complete without its WAL).
  for sender in $senders; do
    cp "$work/outbox.sqlite" "$work/drain-$sender.sqlite"
    start_receiver "$work/drain-$sender.ndjson"
    delivered=$("$bin" deliver "$work/drain-$sender.sqlite" "http://127.0.0.1:$port" "$sender")
    stop_receiver
    [ "$(field count "$delivered")" = "$count" ] && [ "$(wc -l <"$work/drain-$sender.ndjson")" -ge "$count" ]
    record "drain-$sender" "$(awk -v n="$count" -v s="$(field seconds "$delivered")" 'BEGIN { print n / s }')"
  done

  for mode in sequential parallel; do
    start_receiver "$work/curl-$mode.ndjson"
    curl_config "$port" >"$work/curl.config"
    flags=(-s --fail -K "$work/curl.config")
    [ "$mode" = parallel ] && flags+=(--parallel --parallel-max 8)
    start=$(now)
    curl "${flags[@]}" 2>/dev/null # --parallel draws a progress meter even with -s; the count below checks
    record "curl-$mode" "$(awk -v n="$count" -v s="$(since "$start")" 'BEGIN { print n / s }')"
    stop_receiver
    [ "$(wc -l <"$work/curl-$mode.ndjson")" = "$count" ]
  done
done

# min median max of a space-separated list
stats() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END { printf "%.0f %.0f %.0f", v[1], v[int((NR + 1) / 2)], v[NR] }'; }
median() { stats "$1" | cut -d' ' -f2; }
row() {
  if [ -z "${results[$1]:-}" ]; then printf '%-62s %8s\n' "$2" "-"; return; fi
  read -r lo mid hi <<<"$(stats "${results[$1]}")"
  printf '%-62s %8s %8s %8s\n' "$2" "$mid" "$lo" "$hi"
}
printf '\n%-62s %8s %8s %8s\n' "outbox benchmark ($count taps, $rounds rounds)" "median/s" "min" "max"
row shell "sqlite3 shell: one INSERT per transaction, fsync each (reference)"
row enqueue "Outbox.enqueue, one tap per transaction (duplicate+cap check)"
row curl-sequential "curl: one kept-alive connection, one request at a time"
row curl-parallel "curl --parallel --parallel-max 8"
row group "Outbox.enqueue(contentsOf:), all taps at once (group commit)"
row drain-urlsession "Outbox.drain, URLSessionSender (8 at once; before: 1)"
row drain-curl "Outbox.drain, 8 at once, CurlSender (libcurl, Linux)"
echo
row enqueue-ratio "enqueue as % of the shell, per round (back to back)"
curl_best=$(awk -v a="$(median "${results[curl-sequential]}")" -v b="$(median "${results[curl-parallel]}")" \
  'BEGIN { print (a > b ? a : b) }')
awk -v e="$(median "${results[enqueue]}")" -v s="$(median "${results[shell]}")" \
  -v u="$(median "${results[drain-urlsession]}")" -v d="$(median "${results[drain-curl]:-0}")" -v c="$curl_best" \
  'BEGIN { printf "\nratios (medians): enqueue %.2fx the sqlite3 shell (target 0.90); drain %.2fx the faster curl with CurlSender, %.2fx with URLSessionSender (target 0.80)\n", e / s, d / c, u / c }'
