#!/usr/bin/env bash
# Idle gateway CPU after a burst (issue 34: "idle gateway CPU <= 1% of a core"), two builds side by side.
#
# For each round (IDLE_ROUNDS, default 2) and each build (GATEWAY_BIN_BEFORE when given, then GATEWAY_BIN or this
# tree's release build), alternating: a fresh `pushbutton serve` on SQLite with the documented defaults sends
# IDLE_BURST_RATE notifications a second (default 1,000) for IDLE_BURST_SECONDS (default 10) to the mock APNs
# (open-loop, Benchmarks/Support/open-loop-post.py), then sits idle; its CPU over three 10-second windows after the
# burst, in % of one core. A gateway that leaves work behind a burst (timers, retries, cleanup) shows it here, not
# in a measurement of a gateway that never sent anything.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${IDLE_ROUNDS:-2}
rate=${IDLE_BURST_RATE:-1000}
burst=${IDLE_BURST_SECONDS:-10}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
if [ -z "${GATEWAY_BIN:-}" ]; then swift build -c release --product pushbutton >/dev/null; fi
tool=${GATEWAY_BIN:-$(swift build -c release --show-bin-path)/pushbutton}
builds=()
labels=()
if [ -n "${GATEWAY_BIN_BEFORE:-}" ]; then builds+=("$GATEWAY_BIN_BEFORE"); labels+=(before); fi
builds+=("$tool")
labels+=("$([ -n "${GATEWAY_BIN_BEFORE:-}" ] && echo after || echo gateway)")

"$tool" mock-apns --h2c --port 0 --quiet >"$work/mock.out" 2>"$work/mock.err" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/mock.out" "$1"; }
cp Examples/manifest.json "$work/manifest.json"
secret=pb_sk_benchmark_secret_key
cat >"$work/gateway.json" <<JSON
{
  "listen": {"host": "127.0.0.1", "port": 0},
  "store": "sqlite:$work/gateway.db",
  "apps": [{"id": "chat", "topic": "com.example.chatter", "manifest": "manifest.json",
    "environment": {"host": "127.0.0.1", "port": $(field port), "h2c": true}, "connections": 1,
    "auth": {"key": "$(field auth_key)", "keyId": "MOCKKEY001", "teamId": "MOCKTEAM01"},
    "secretKeys": ["$("$tool" serve --hash-key "$secret")"]}]
}
JSON
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

printf 'idle gateway CPU after %s notifications/s for %s s (SQLite), %% of a core; load average %s\n' \
  "$rate" "$burst" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '   %-8s %5s  %9s %9s %9s   %s\n' build round "0-10 s" "10-20 s" "20-30 s" "load"
for round in $(seq "$rounds"); do
  for index in "${!builds[@]}"; do
    rm -f "$work"/gateway.db*
    "${builds[$index]}" serve --config "$work/gateway.json" >"$work/serve.out" 2>"$work/serve.err" &
    pid=$!
    pids+=($pid)
    for _ in $(seq 200); do grep -qs 'listening on' "$work/serve.out" && break; sleep 0.05; done
    url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/serve.out" | head -1)
    [ -n "$url" ] || { echo "serve did not start:"; cat "$work/serve.out" "$work/serve.err"; exit 1; }
    python3 Benchmarks/Support/open-loop-post.py "$rate" "$burst" "$secret" "$(printf 'ab%04x' "$round$index")" \
      "$work/load.txt" "$url"
    windows=()
    for _ in 1 2 3; do
      before=$(ticks "$pid")
      sleep 10
      windows+=("$(echo "($(ticks "$pid") - $before) * 100 / $hz / 10" | bc -l)")
    done
    printf '   %-8s %5s  %8.2f%% %8.2f%% %8.2f%%   %s\n' "${labels[$index]}" "$round" "${windows[@]}" \
      "$(cut -d' ' -f1 /proc/loadavg)"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
  done
done
uptime
