#!/usr/bin/env bash
# What issue 35's levers cost a campaign that does not use them, and one that does: the same campaign of
# LEVERS_COUNT recipients (default 100,000, pages of 10,000), end to end to the mock APNs, on SQLite, in one
# binary, alternating rounds (LEVERS_ROUNDS, default 3; a fresh gateway and database per campaign):
#   plain   the app has no quiet hours, frequency cap or throttle (the lever code paths inactive: the lease
#           looks at each notification's columns and stops);
#   quiet   the app has quiet hours (a window that does not cover the run's hour, UTC): every lease re-checks
#           each recipient's device (its zone and window read from the store), none is held;
#   levers  quiet hours as above and a frequency cap no recipient reaches (every send recorded per device).
# LEVERS_BEFORE_BIN=PATH adds "before" and "bquiet": the plain and the quiet campaign on an earlier build (one
# without the lease-time quiet-hours check): what that check adds, to either. Printed per campaign: the rate (recipients a second, first POST to last delivered) and the
# gateway's CPU per recipient (from /proc, user + system), each kind's ratio to the plain campaign of its round,
# and the median ratios. LEVERS_BIN=PATH uses a pushbutton built before (default: a release build here).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${LEVERS_COUNT:-100000}
rounds=${LEVERS_ROUNDS:-3}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${LEVERS_BIN:-}" ]; then
  bin=$LEVERS_BIN
else
  swift build -c release --product pushbutton >/dev/null
  bin=$(swift build -c release --show-bin-path)/pushbutton
fi
before_bin=${LEVERS_BEFORE_BIN:-}
uptime
"$bin" mock-apns --h2c --port 0 --quiet >"$work/mock.out" 2>"$work/mock.err" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/mock.out" "$1"; }
mock_port=$(field port)
key=$(field auth_key)
cp Examples/manifest.json "$work/manifest.json"
secret=pb_sk_benchmark_secret_key
digest=$("$bin" serve --hash-key "$secret")

python3 - "$count" "$work" <<'PY'
import sys
count, work = int(sys.argv[1]), sys.argv[2]
page = 10000
for start in range(0, count, page):
    with open(f"{work}/plain-{start // page:05d}.ndjson", "w") as out:
        if start == 0:
            out.write('{"category": "message", "title": "Anna", "body": "Lunch tomorrow at noon?"}\n')
        for i in range(start, min(start + page, count)):
            out.write("%064x\n" % (0xcd << 248 | i))
PY
# A quiet window that does not cover the run: it starts 6 hours from now (UTC) and lasts an hour.
hour=$(date -u +%H)
quiet_start=$(printf '%02d:00' $(((10#$hour + 6) % 24)))
quiet_end=$(printf '%02d:00' $(((10#$hour + 7) % 24)))

cat_config() {
  local extra=
  case $2 in
  quiet | bquiet) extra="\"quiet_hours\": {\"start\": \"$quiet_start\", \"end\": \"$quiet_end\"}, \"default_time_zone\": \"UTC\"," ;;
  levers) extra="\"quiet_hours\": {\"start\": \"$quiet_start\", \"end\": \"$quiet_end\"}, \"default_time_zone\": \"UTC\", \"frequency_cap\": {\"max\": 1000, \"per_hours\": 24}," ;;
  esac
  cat >"$work/gateway.json" <<JSON
{
  "listen": {"host": "127.0.0.1", "port": 0},
  "store": "sqlite:$1",
  "workers": {"count": 8, "batchSize": 1000, "pollMilliseconds": 20},
  "limits": {"maxBodyBytes": 8388608, "maxRecipients": 10000},
  "apps": [{"id": "chat", "topic": "com.example.chatter", "manifest": "manifest.json", $extra
    "environment": {"host": "127.0.0.1", "port": $mock_port, "h2c": true}, "connections": 2,
    "auth": {"key": "$key", "keyId": "MOCKKEY001", "teamId": "MOCKTEAM01"}, "secretKeys": ["$digest"]}]
}
JSON
}

delivered_count() {
  curl -s -H "Authorization: Bearer $secret" "$serve_url/v1/campaigns/$1" | sed -nE 's/.*"delivered": ?([0-9]+).*/\1/p'
}

# One campaign of `kind` on a fresh gateway and database: prints its rate (recipients a second) and the
# gateway's CPU µs per recipient.
campaign() {
  local kind=$1 db="$work/$1-$2.db" run=$bin
  case $kind in before | bquiet) run=$before_bin ;; esac
  cat_config "$db" "$kind"
  rm -f "$work/serve.out"
  "$run" serve --config "$work/gateway.json" >"$work/serve.out" 2>"$work/serve.err" &
  serve_pid=$!
  pids+=($serve_pid)
  for _ in $(seq 400); do grep -qs 'listening on' "$work/serve.out" && break; sleep 0.05; done
  serve_url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/serve.out" | head -1)
  [ -n "$serve_url" ] || { cat "$work/serve.err" >&2; exit 1; }
  local before id finished=0
  before=$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")
  local started
  started=$(date +%s.%N)
  id=$(curl -s --max-time 600 -H "Authorization: Bearer $secret" --data-binary @"$work/plain-00000.ndjson" \
    "$serve_url/v1/apps/chat/campaigns" | python3 -c "import json,sys; print(json.load(sys.stdin)['id'])")
  ls "$work"/plain-*.ndjson | grep -v -- "-00000" |
    xargs -P 4 -I{} curl -s --max-time 600 -o /dev/null -H "Authorization: Bearer $secret" \
      --data-binary @{} "$serve_url/v1/campaigns/$id/recipients"
  while [ "$finished" -lt "$count" ]; do
    sleep 0.2
    finished=$(delivered_count "$id")
    finished=${finished:-0}
  done
  local after ended
  ended=$(date +%s.%N)
  after=$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")
  kill "$serve_pid"
  wait "$serve_pid" 2>/dev/null || true
  rm -f "$db"*
  echo "$count / ($ended - $started)" | bc -l
  echo "($after - $before) * 1000000 / $(getconf CLK_TCK) / $count" | bc -l
}

kinds="plain quiet levers"
[ -n "$before_bin" ] && kinds="before $kinds bquiet"
printf 'A %d-recipient campaign on SQLite, alternating rounds (rate: recipients/s; CPU: gateway µs each; ratio to plain)\n' "$count"
printf '   %-6s %-16s %-7s %10s %10s %8s %8s\n' round "load average" kind rate CPU "rate ×" "CPU ×"
for round in $(seq "$rounds"); do
  # The order alternates too (reversed every other round): a machine warming up favours no kind.
  order=$kinds
  [ $((round % 2)) -eq 0 ] && order=$(echo "$kinds" | tr ' ' '\n' | tac | tr '\n' ' ')
  declare -A rate cpu load
  for kind in $order; do
    load[$kind]=$(cut -d' ' -f1-3 /proc/loadavg)
    mapfile -t figures < <(campaign "$kind" "$round")
    rate[$kind]=${figures[0]}
    cpu[$kind]=${figures[1]}
  done
  for kind in $kinds; do
    rate_ratio=$(echo "${rate[$kind]} / ${rate[plain]}" | bc -l)
    cpu_ratio=$(echo "${cpu[$kind]} / ${cpu[plain]}" | bc -l)
    printf '   %-6s %-16s %-7s %10.0f %10.2f %8.3f %8.3f\n' "$round" "${load[$kind]}" "$kind" "${rate[$kind]}" \
      "${cpu[$kind]}" "$rate_ratio" "$cpu_ratio"
    echo "$rate_ratio" >>"$work/rate-$kind.txt"
    echo "$cpu_ratio" >>"$work/cpu-$kind.txt"
  done
done
for kind in $kinds; do
  [ "$kind" = plain ] && continue
  for what in rate cpu; do
    sort -n "$work/$what-$kind.txt" | awk -v kind="$kind" -v what="$what" '{ r[NR] = $1 } END {
      printf "   %-7s %-4s median ratio to plain over %d rounds: %.3f (min %.3f, max %.3f)\n", kind, what, NR,
        r[int((NR + 1) / 2)], r[1], r[NR] }'
  done
done
uptime
