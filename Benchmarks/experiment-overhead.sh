#!/usr/bin/env bash
# What an A/B experiment adds to a campaign (issue 36): the same campaign of EXPERIMENT_COUNT recipients (default
# 100,000, pages of 10,000) sent plain and as a 2-variant experiment (50/50, no holdout, no test phase: every
# recipient is sent), end to end to the mock APNs, on SQLite, alternating rounds (EXPERIMENT_ROUNDS, default 3,
# each a fresh gateway and database per campaign). Printed: each campaign's gateway CPU per recipient (from
# /proc, user + system), the experiment's ratio to the plain campaign of its round, and the median ratio. The
# target: at most 1.05.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${EXPERIMENT_COUNT:-100000}
rounds=${EXPERIMENT_ROUNDS:-3}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${GATEWAY_BIN:-}" ]; then
  bin=$GATEWAY_BIN
else
  swift build -c release --product pushbutton >/dev/null
  bin=$(swift build -c release --show-bin-path)/pushbutton
fi

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
headers = {
    "plain": '{"category": "message", "title": "Anna", "body": "Lunch tomorrow at noon?"}',
    "experiment": '{"category": "message", "title": "Anna", "variants": ['
    '{"name": "A", "share": 50, "body": "Lunch tomorrow at noon?"}, '
    '{"name": "B", "share": 50, "body": "Lunch tomorrow? Noon!"}]}',
}
page = 10000
for kind, header in headers.items():
    for start in range(0, count, page):
        with open(f"{work}/{kind}-{start // page:05d}.ndjson", "w") as out:
            if start == 0:
                out.write(header + "\n")
            for i in range(start, min(start + page, count)):
                out.write("%064x\n" % (0xcd << 248 | i))
PY

cat_config() {
  cat >"$work/gateway.json" <<JSON
{
  "listen": {"host": "127.0.0.1", "port": 0},
  "store": "sqlite:$1",
  "workers": {"count": 8, "batchSize": 1000, "pollMilliseconds": 20},
  "limits": {"maxBodyBytes": 8388608, "maxRecipients": 10000},
  "apps": [{"id": "chat", "topic": "com.example.chatter", "manifest": "manifest.json",
    "environment": {"host": "127.0.0.1", "port": $mock_port, "h2c": true}, "connections": 2,
    "auth": {"key": "$key", "keyId": "MOCKKEY001", "teamId": "MOCKTEAM01"}, "secretKeys": ["$digest"]}]
}
JSON
}

delivered_count() {
  curl -s -H "Authorization: Bearer $secret" "$serve_url/v1/campaigns/$1" | sed -nE 's/.*"delivered": ?([0-9]+).*/\1/p'
}

# One campaign of `kind` on a fresh gateway and database: prints the gateway's CPU µs per recipient.
campaign() {
  local kind=$1 db="$work/$1-$2.db"
  cat_config "$db"
  rm -f "$work/serve.out"
  "$bin" serve --config "$work/gateway.json" >"$work/serve.out" 2>"$work/serve.err" &
  serve_pid=$!
  pids+=($serve_pid)
  for _ in $(seq 400); do grep -qs 'listening on' "$work/serve.out" && break; sleep 0.05; done
  serve_url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/serve.out" | head -1)
  [ -n "$serve_url" ] || { cat "$work/serve.err" >&2; exit 1; }
  local before id finished=0
  before=$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")
  id=$(curl -s --max-time 600 -H "Authorization: Bearer $secret" --data-binary @"$work/$kind-00000.ndjson" \
    "$serve_url/v1/apps/chat/campaigns" | python3 -c "import json,sys; print(json.load(sys.stdin)['id'])")
  ls "$work"/"$kind"-*.ndjson | grep -v -- "-00000" |
    xargs -P 4 -I{} curl -s --max-time 600 -o /dev/null -H "Authorization: Bearer $secret" \
      --data-binary @{} "$serve_url/v1/campaigns/$id/recipients"
  while [ "$finished" -lt "$count" ]; do
    sleep 0.2
    finished=$(delivered_count "$id")
    finished=${finished:-0}
  done
  local after
  after=$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")
  kill "$serve_pid"
  wait "$serve_pid" 2>/dev/null || true
  rm -f "$db"*
  echo "($after - $before) * 1000000 / $(getconf CLK_TCK) / $count" | bc -l
}

printf 'A %d-recipient campaign on SQLite, plain and as a 2-variant experiment (50/50), alternating rounds\n' "$count"
printf '   %-8s %-14s %22s %22s %8s\n' "round" "load average" "plain µs CPU each" "experiment µs each" "ratio"
for round in $(seq "$rounds"); do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  # The order alternates too: a machine warming up (or cooling down) favours neither.
  if [ $((round % 2)) -eq 1 ]; then
    plain=$(campaign plain "$round"); experiment=$(campaign experiment "$round")
  else
    experiment=$(campaign experiment "$round"); plain=$(campaign plain "$round")
  fi
  ratio=$(echo "$experiment / $plain" | bc -l)
  printf '   %-8s %-14s %22.2f %22.2f %8.3f\n' "$round" "$load" "$plain" "$experiment" "$ratio"
  echo "$ratio" >>"$work/ratios.txt"
done
sort -n "$work/ratios.txt" | awk '{ r[NR] = $1 } END { printf "   median ratio over %d rounds: %.3f (min %.3f, max %.3f; target <= 1.05)\n", NR, r[int((NR + 1) / 2)], r[1], r[NR] }'
