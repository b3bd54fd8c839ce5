#!/usr/bin/env bash
# Gateway benchmark, in one run, printed as tables with ratios:
#  1. API intake: notifications accepted per second (each one recipient, committed to the store before the
#     202) over HTTP/1.1 with wrk and over HTTP/2 (h2c) with h2load, next to GET /healthz (no store: the HTTP
#     server's own ceiling), on SQLite;
#  2. a campaign's end-to-end rate: GATEWAY_CAMPAIGN_COUNT recipients (default 1,000,000) posted in NDJSON
#     pages of 10,000 until the last one is delivered to the mock APNs, against `pushbutton send` of the same
#     list and payload to the same mock, on SQLite and on PostgreSQL (a throwaway server started here), each
#     campaign against a send run right before it; GATEWAY_ROUNDS=N repeats the pairs and prints each store's
#     min / median / max ratio;
#  3. the server's peak memory (VmHWM) during each campaign;
#  4. CPU per recipient of every process on the path (gateway, PostgreSQL's server processes, the mock; send and
#     the mock), from /proc: on a machine of few cores their sum is what decides the rate.
# GATEWAY_EVENTS=1: instead of send against a campaign, each round runs the campaign with the event stream off
#  and on (every event type, `"webhook": {"events": {}}`, to Benchmarks/Support/event-receiver.py on
#  127.0.0.1, which checks each batch's signature), the order swapped every other round; each store's on ÷ off
#  rate and CPU, and the events received against those expected (a `notification.sent` per recipient and one
#  `campaign.finished`): a shortfall or a bad batch fails the run. GATEWAY_EVENTS_BATCH: events per request
#  (`"batch"`; unset: the build's default, 1000 since issue 35's relay, 100 before).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${GATEWAY_CAMPAIGN_COUNT:-1000000}
seconds=${GATEWAY_INTAKE_SECONDS:-5}
work=$(mktemp -d)
chmod 755 "$work"
pids=()
. Benchmarks/Support/postgres.sh
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 0.3
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  stop_postgres
  rm -rf "$work"
}
trap cleanup EXIT

# GATEWAY_BIN=PATH: a pushbutton built before (a copy of an earlier build, to measure it against this one).
if [ -n "${GATEWAY_BIN:-}" ]; then
  bin=$GATEWAY_BIN
else
  swift build -c release --product pushbutton >/dev/null
  bin=$(swift build -c release --show-bin-path)/pushbutton
fi

"$bin" mock-apns --h2c --port 0 --quiet >"$work/mock.out" 2>"$work/mock.err" &
mock_pid=$!
pids+=($mock_pid)
for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/mock.out" "$1"; }
mock_port=$(field port)
key=$(field auth_key)
cp Examples/manifest.json "$work/manifest.json"
secret=pb_sk_benchmark_secret_key
digest=$("$bin" serve --hash-key "$secret")

# CPU clock ticks a process has used, with its reaped children's (PostgreSQL's exited backends are the
# postmaster's); 0 once it is gone.
ticks() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# The PostgreSQL server's ticks: the postmaster's (with the backends it reaped) and its live children's.
pg_ticks() {
  [ -n "$pg_dir" ] || { echo 0; return; }
  local master total=0
  master=$(head -1 "$pg_dir/data/postmaster.pid")
  for pid in $master $(pgrep -P "$master"); do total=$((total + $(ticks "$pid"))); done
  echo "$total"
}
per_recipient() { echo "$1 * 1000000 / $(getconf CLK_TCK) / $count" | bc -l; } # ticks -> µs each

config() { # store workers [receiver-port: the event stream on, to it]
  local webhook=
  [ -n "${3:-}" ] && webhook="\"webhook\": {\"url\": \"http://127.0.0.1:$3/events\", \"secret\": \"$events_secret\",
    \"events\": {${GATEWAY_EVENTS_BATCH:+\"batch\": $GATEWAY_EVENTS_BATCH}}},"
  cat >"$work/gateway.json" <<JSON
{
  "listen": {"host": "127.0.0.1", "port": 0},
  "store": "$1", $webhook
  "workers": {"count": $2, "batchSize": ${GATEWAY_BATCH:-1000}, "pollMilliseconds": 20},
  "limits": {"maxBodyBytes": 8388608, "maxRecipients": 10000},
  "apps": [{"id": "chat", "topic": "com.example.chatter", "manifest": "manifest.json",
    "environment": {"host": "127.0.0.1", "port": $mock_port, "h2c": true}, "connections": 2,
    "auth": {"key": "$key", "keyId": "MOCKKEY001", "teamId": "MOCKTEAM01"}, "secretKeys": ["$digest"]}]
}
JSON
}

serve_pid=
serve_url=
start_serve() {
  rm -f "$work/serve.out" # not the last run's, which says where that one listened
  "$bin" serve --config "$work/gateway.json" >"$work/serve.out" 2>"$work/serve.err" &
  serve_pid=$!
  pids+=($serve_pid)
  # Its first lines may come before it listens (migrations on a new store): wait for the one that says so.
  for _ in $(seq 400); do grep -qs 'listening on' "$work/serve.out" && break; sleep 0.05; done
  serve_url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/serve.out" | head -1)
  [ -n "$serve_url" ] || { cat "$work/serve.err"; exit 1; }
}
stop_serve() {
  kill "$serve_pid" 2>/dev/null || true
  wait "$serve_pid" 2>/dev/null || true
}

if [ -z "${GATEWAY_CAMPAIGN_ONLY:-}${GATEWAY_EVENTS:-}" ]; then
# 1. Intake. wrk posts one notification per request (a fresh token from a counter, so nothing collapses).
config "sqlite:$work/intake.db" 2
start_serve
cat >"$work/post.lua" <<LUA
local counter = 0
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer $secret"
request = function()
  counter = counter + 1
  local body = string.format('{"to": {"tokens": ["%064x"]}, "category": "message", "title": "Anna", "body": "Lunch?"}', counter)
  return wrk.format(nil, "/v1/apps/chat/notifications", nil, body)
end
LUA
wrk_rate() { grep -oE 'Requests/sec: *[0-9.]+' "$1" | grep -oE '[0-9.]+$' | cut -d. -f1; }
wrk -t 2 -c 32 -d "${seconds}s" -H "Authorization: Bearer $secret" "$serve_url/healthz" >"$work/wrk-health.txt"
wrk -t 2 -c 32 -d "${seconds}s" -s "$work/post.lua" "$serve_url" >"$work/wrk-post.txt"
printf '{"to": {"tokens": ["%064x"]}, "category": "message", "title": "Anna", "body": "Lunch?"}' 7 >"$work/body.json"
h2_requests=$(( $(wrk_rate "$work/wrk-post.txt") * seconds ))
h2load -n 100000 -c 8 -m 32 "$serve_url/healthz" >"$work/h2-health.txt" 2>&1
h2load -n "$h2_requests" -c 8 -m 32 -H "authorization: Bearer $secret" -d "$work/body.json" \
  "$serve_url/v1/apps/chat/notifications" >"$work/h2-post.txt" 2>&1
h2_rate() { grep -oE 'finished in [0-9.]+[a-z]+, [0-9.]+ req/s' "$1" | grep -oE '[0-9.]+ req/s' | cut -d. -f1; }
h2_ok() { grep -oE '[0-9]+ 2xx' "$1" | grep -oE '^[0-9]+'; }
stop_serve
health1=$(wrk_rate "$work/wrk-health.txt"); post1=$(wrk_rate "$work/wrk-post.txt")
health2=$(h2_rate "$work/h2-health.txt"); post2=$(h2_rate "$work/h2-post.txt")
printf '\n1. API intake on SQLite (one pushbutton serve, 2 workers sending meanwhile; %s s per wrk run)\n' "$seconds"
printf '   %-58s %12s   %s\n' "route, client" "requests/s" "ratio"
printf '   %-58s %12s   %s\n' "GET /healthz, wrk (HTTP/1.1, 32 connections)" "$health1" "1.00"
printf '   %-58s %12s   %.2f of /healthz\n' "POST notifications, wrk (HTTP/1.1, 32 connections)" "$post1" \
  "$(echo "$post1 / $health1" | bc -l)"
printf '   %-58s %12s   %.2f of HTTP/1.1 /healthz\n' "GET /healthz, h2load (HTTP/2, 8 connections x 32 streams)" "$health2" \
  "$(echo "$health2 / $health1" | bc -l)"
printf '   %-58s %12s   %.2f of HTTP/1.1 POST (%s answered 202)\n' "POST notifications, h2load (HTTP/2, 8 x 32)" "$post2" \
  "$(echo "$post2 / $post1" | bc -l)" "$(h2_ok "$work/h2-post.txt")"
fi

# 2. Campaigns against pushbutton send of the same list.
python3 - "$count" "$work" <<'PY'
import sys
count, work = int(sys.argv[1]), sys.argv[2]
with open(f"{work}/tokens.txt", "w") as tokens:
    for i in range(count):
        tokens.write("%064x\n" % (0xcd << 248 | i))
page = 10000
for start in range(0, count, page):
    with open(f"{work}/page-{start // page:05d}.ndjson", "w") as out:
        if start == 0:
            out.write('{"category": "message", "title": "Anna", "body": "Lunch tomorrow at noon?"}\n')
        for i in range(start, min(start + page, count)):
            out.write('{"token": "%064x"}\n' % (0xcd << 248 | i))
PY
"$bin" payload --category message --title Anna --body "Lunch tomorrow at noon?" >"$work/payload.json"

# One run of pushbutton send of the whole list: sets direct_rate and the CPU per recipient of send and the mock.
direct_send() {
  local mock_before direct_start direct
  mock_before=$(ticks "$mock_pid")
  direct_start=$(date +%s.%N)
  /usr/bin/time -f "cpu=%U %S" -o "$work/send.time" "$bin" send --key "$key" --key-id MOCKKEY001 --team-id MOCKTEAM01 \
    --topic com.example.chatter --host 127.0.0.1 --port "$mock_port" --h2c --tokens "$work/tokens.txt" \
    --payload "$work/payload.json" --connections 2 >/dev/null 2>"$work/send.err"
  direct=$(echo "$(date +%s.%N) - $direct_start" | bc -l)
  direct_rate=$(echo "$count / $direct" | bc -l)
  direct_mock=$(per_recipient $(($(ticks "$mock_pid") - mock_before)))
  direct_cpu=$(grep -oE 'cpu=[0-9.]+ [0-9.]+' "$work/send.time" | cut -d= -f2 |
    awk -v n="$count" '{ print ($1 + $2) * 1000000 / n }')
  printf '   %-58s %12.0f   1.00, send %.1f + mock %.1f µs CPU each\n' "pushbutton send --tokens (the same list, 2 connections)" \
    "$direct_rate" "$direct_cpu" "$direct_mock"
}

# The campaign's delivered count, read with curl and sed alone: the poll runs every 0.2 s on the cores the
# gateway uses, and a Python interpreter per poll (~0.1 s of CPU each here) took a fifth of one of them.
delivered_count() {
  curl -s -H "Authorization: Bearer $secret" "$serve_url/v1/campaigns/$1" |
    sed -nE 's/.*"delivered": ?([0-9]+).*/\1/p'
}

# GATEWAY_EVENTS=1: the stream's receiver, a fresh one for each campaign with the stream on (its counts start at 0).
events=${GATEWAY_EVENTS:-}
events_secret=pb_webhook_benchmark_secret_0123456789
receiver_pid=
receiver_port=
start_receiver() {
  rm -f "$work/receiver.port"
  python3 Benchmarks/Support/event-receiver.py "$events_secret" "$work/receiver.port" 2>"$work/receiver.err" &
  receiver_pid=$!
  pids+=($receiver_pid)
  for _ in $(seq 100); do [ -s "$work/receiver.port" ] && break; sleep 0.05; done
  receiver_port=$(cat "$work/receiver.port")
}
stop_receiver() {
  kill "$receiver_pid" 2>/dev/null || true
  wait "$receiver_pid" 2>/dev/null || true
}
receiver_counts() { curl -s "http://127.0.0.1:$receiver_port/counts"; }

# After the last delivery of a campaign with the stream on (started at $1, $2 s before): waits until the receiver
# has every event (a `notification.sent` a recipient and the `campaign.finished`) or none came for
# GATEWAY_EVENTS_STALL s (default 60); sets drained_cpu (the gateway's µs a recipient, to then) and events_line,
# and records a shortfall in failures.txt.
stream_drain() {
  local expected=$((count + 1)) distinct=0 seen=-1 still=0 stall=$((${GATEWAY_EVENTS_STALL:-60} * 5))
  while [ "$distinct" -lt "$expected" ] && [ "$still" -lt "$stall" ]; do
    distinct=$(receiver_counts | sed -nE 's/.*"distinct": ?([0-9]+).*/\1/p')
    distinct=${distinct:-0}
    if [ "$distinct" = "$seen" ]; then still=$((still + 1)); else still=0; seen=$distinct; fi
    [ "$distinct" -lt "$expected" ] && sleep 0.2
  done
  drained_cpu=$(per_recipient "$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")")
  local receiver_cpu
  receiver_cpu=$(per_recipient "$(ticks "$receiver_pid")")
  receiver_counts >"$work/counts.json"
  events_line=$(python3 - "$work/counts.json" "$count" "$(echo "$1 + $2" | bc -l)" "$receiver_cpu" \
    "$drained_cpu" 2>&1 <<'PY'
import json, sys
counts, count, delivered_at = json.load(open(sys.argv[1])), int(sys.argv[2]), float(sys.argv[3])
receiver_cpu, gateway_cpu = float(sys.argv[4]), float(sys.argv[5])
kinds = counts["distinct_by_type"]
problems = []
if kinds != {"notification.sent": count, "campaign.finished": 1}:
    problems.append("distinct events by type %s, expected notification.sent %d and campaign.finished 1" % (kinds, count))
# A campaign whose queue empties before its last page is in finishes then (documented): noted, not a failure.
early = ((counts["finished"] or {}).get("counts") or {}).get("delivered", count)
if counts["bad_batches"]:
    problems.append("%d bad batches (%s)" % (counts["bad_batches"], counts["bad_reason"]))
lag = counts["last_at"] - delivered_at if counts["last_at"] else float("nan")
print("events %d of %d (%s), %d batches, %d repeats; the last %.1f s after the last delivery; "
      "gateway %.1f µs each to then, receiver %.1f µs"
      % (counts["distinct"], count + 1, ", ".join("%s %d" % kv for kv in sorted(kinds.items())), counts["batches"],
         counts["repeats"], lag, gateway_cpu, receiver_cpu))
if early != count:
    print("(campaign.finished came early, at %d delivered: its queue emptied before the last page was in)" % early)
for problem in problems:
    print("FAILED: " + problem)
PY
  )
  if grep -q FAILED <<<"$events_line"; then
    printf 'round %s, %s: %s\n' "$round" "$store" "$(grep FAILED <<<"$events_line" | tr '\n' ' ')" >>"$work/failures.txt"
  fi
}

# GATEWAY_INTAKE_ONLY=1: no workers, and each campaign's figures end when its last page is in (the intake's
# own rate and CPU, the gateway's and PostgreSQL's, per recipient).
intake_only=${GATEWAY_INTAKE_ONLY:-}
campaign() { # label store-url sqlite|postgres [receiver-port: the event stream on, to it]
  config "$2" "$([ -n "$intake_only" ] && echo 0 || echo "${GATEWAY_WORKERS:-8}")" "${4:-}"
  start_serve
  local started id pages perf_pid= pg_before mock_before
  drained_cpu=
  pg_before=$(pg_ticks)
  mock_before=$(ticks "$mock_pid")
  # GATEWAY_PERF=FILE: a CPU profile of the server during the (first) campaign, for `perf report -i FILE` (with
  # GATEWAY_EVENTS, the first with the stream on, to its last event).
  if [ -n "${GATEWAY_PERF:-}" ] && [ ! -e "$GATEWAY_PERF" ] && { [ -z "$events" ] || [ -n "${4:-}" ]; }; then
    perf record -F 499 -g -p "$serve_pid" -o "$GATEWAY_PERF" >/dev/null 2>&1 &
    perf_pid=$!
  fi
  # GATEWAY_PERF_STAT=1: the server's context switches per recipient (perf stat), a figure that holds while
  # other work shares the cores (a virtual machine may count no instructions).
  local stat_pid=
  if [ -n "${GATEWAY_PERF_STAT:-}" ]; then
    perf stat -x, -e context-switches,cpu-migrations -p "$serve_pid" -o "$work/stat.txt" &
    stat_pid=$!
  fi
  started=$(date +%s.%N)
  id=$(curl -s --max-time 600 -H "Authorization: Bearer $secret" --data-binary @"$work/page-00000.ndjson" \
    "$serve_url/v1/apps/chat/campaigns" | python3 -c "import json,sys; print(json.load(sys.stdin)['id'])")
  # The other pages, GATEWAY_UPLOADS (default 4) at a time, as a backend with a large list would send them.
  ls "$work"/page-*.ndjson | grep -v page-00000 |
    xargs -P "${GATEWAY_UPLOADS:-4}" -I{} curl -s --max-time 600 -o /dev/null -H "Authorization: Bearer $secret" \
      --data-binary @{} "$serve_url/v1/campaigns/$id/recipients"
  local posted
  posted=$(echo "$(date +%s.%N) - $started" | bc -l)
  local finished=0
  [ -n "$intake_only" ] && finished=$count
  while [ "$finished" -lt "$count" ]; do
    sleep 0.2
    finished=$(delivered_count "$id")
    finished=${finished:-0}
  done
  local elapsed rate peak
  elapsed=$(echo "$(date +%s.%N) - $started" | bc -l)
  rate=$(echo "$count / $elapsed" | bc -l)
  peak=$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$serve_pid/status")
  local ticks cpu
  ticks=$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")
  cpu=$(echo "$ticks * 1000000 / $(getconf CLK_TCK) / $count" | bc -l)
  local mock_cpu pg_cpu
  mock_cpu=$(per_recipient $(($(ticks "$mock_pid") - mock_before)))
  [ -n "${4:-}" ] && stream_drain "$started" "$elapsed"
  if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" 2>/dev/null || true; fi
  if [ -n "$stat_pid" ]; then kill -INT "$stat_pid"; wait "$stat_pid" 2>/dev/null || true; fi
  stop_serve
  sleep 0.5 # the server's backends exit when the gateway's connections close, and are reaped
  pg_cpu=0
  [ "$3" = postgres ] && pg_cpu=$(per_recipient $(($(pg_ticks) - pg_before)))
  if [ -n "$events" ]; then # no send run: each arm against the other, in the summary
    printf '   %-58s %12.0f   peak %s MiB, %.1f µs CPU each (pages in at %.0f/s)\n' "$1" \
      "$rate" "$peak" "$cpu" "$(echo "$count / $posted" | bc -l)"
    printf '   %-58s %12s   gateway %.1f + PostgreSQL %.1f + mock %.1f = %.1f µs\n' \
      "  CPU per recipient, every process" "" "$cpu" "$pg_cpu" "$mock_cpu" "$(echo "$cpu + $pg_cpu + $mock_cpu" | bc -l)"
    # store round arm rate gateway-µs (to the last delivery) gateway-µs (to the last event) PostgreSQL-µs
    printf '%s %s %s %.1f %.2f %.2f %.2f\n' "$3" "$round" "$([ -n "${4:-}" ] && echo on || echo off)" "$rate" "$cpu" \
      "${drained_cpu:-$cpu}" "$pg_cpu" >>"$work/events.txt"
    return
  fi
  printf '   %-58s %12.0f   %.2f of pushbutton send, peak %s MiB, %.1f µs CPU each (pages in at %.0f/s)\n' "$1" \
    "$rate" "$(echo "$rate / $direct_rate" | bc -l)" "$peak" "$cpu" "$(echo "$count / $posted" | bc -l)"
  printf '%s %.3f %s\n' "$3" "$(echo "$rate / $direct_rate" | bc -l)" "$peak" >>"$work/ratios.txt"
  printf '   %-58s %12s   gateway %.1f + PostgreSQL %.1f + mock %.1f = %.1f µs (send: %.1f + mock %.1f = %.1f)\n' \
    "  CPU per recipient, every process" "" "$cpu" "$pg_cpu" "$mock_cpu" "$(echo "$cpu + $pg_cpu + $mock_cpu" | bc -l)" \
    "$direct_cpu" "$direct_mock" "$(echo "$direct_cpu + $direct_mock" | bc -l)"
  if [ -n "$stat_pid" ]; then
    awk -F, -v n="$count" '$3 ~ /context-switches/ { c = $1 } $3 ~ /cpu-migrations/ { m = $1 }
      END { printf "   %-58s %12s   %.3f context switches, %.3f migrations\n", "  the gateway per recipient (perf stat)", "", c / n, m / n }' "$work/stat.txt"
  fi
}

# Each campaign is measured against a run of send right before it (the machine's speed drifts between runs), the
# rounds alternating send and campaign, store after store; GATEWAY_ROUNDS (default 1) rounds, then each store's
# ratios as min / median / max.
rounds=${GATEWAY_ROUNDS:-1}
# GATEWAY_PG_STATEMENTS=1: PostgreSQL's time per statement (pg_stat_statements), printed after the first campaign.
start_gateway_postgres() {
  if [ -n "${GATEWAY_PG_STATEMENTS:-}" ]; then
    start_postgres -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on
  else
    start_postgres
  fi
}
pg_statements() { # database
  printf '\n   PostgreSQL, by statement (execution + planning ms, calls, rows; the most expensive first)\n'
  psql -h 127.0.0.1 -p "$pg_port" -U postgres -d "$1" -AtF ' | ' -c "
    SELECT round(total_exec_time + total_plan_time), calls, rows, regexp_replace(left(query, 110), '\\s+', ' ', 'g')
    FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 15" | sed 's/^/   /'
  # Row versions written: an update that changes no indexed column and finds room in its page is HOT (no
  # new index entries).
  printf '\n   PostgreSQL, deliveries (table | inserted | updated | of them HOT | dead now)\n'
  psql -h 127.0.0.1 -p "$pg_port" -U postgres -d "$1" -AtF ' | ' -c "
    SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_dead_tup FROM pg_stat_user_tables
    WHERE relname IN ('deliveries', 'queue_batches', 'stream_events') ORDER BY relname" | sed 's/^/   /'
}

stores=()
[ -z "${GATEWAY_POSTGRES_ONLY:-}" ] && stores+=(sqlite)
if [ -z "${GATEWAY_SQLITE_ONLY:-}" ]; then
  stores+=(postgres)
  start_gateway_postgres
fi
label_suffix=${intake_only:+", intake only"}
printf '\n2. a %d-recipient campaign, end to end to the mock APNs (pages of 10,000, %s at a time; %s workers x %s; 2 connections)\n' \
  "$count" "${GATEWAY_UPLOADS:-4}" "${GATEWAY_WORKERS:-8}" "${GATEWAY_BATCH:-1000}"
[ -n "$events" ] && printf '   (the stream: every event type, batches of %s, to a receiver on 127.0.0.1 that checks each signature)\n' \
  "${GATEWAY_EVENTS_BATCH:-the default}"
printf '   %-58s %12s   %s\n' "sender" "recipients/s" "$([ -n "$events" ] && echo "server" || echo "ratio")"
# One campaign on $store (this round's database; suffix $1 in its label), with the stream on when a receiver's
# port is given ($2).
store_campaign() { # label-suffix [receiver-port]
  if [ "$store" = sqlite ]; then
    campaign "pushbutton serve, SQLite$label_suffix$1" "sqlite:$work/campaign-$round.db" sqlite "${2:-}"
    rm -f "$work/campaign-$round.db"*
  else
    local database=bench$round${2:+_events}
    psql -h 127.0.0.1 -p "$pg_port" -U postgres -qc "CREATE DATABASE $database" >/dev/null
    [ -n "${GATEWAY_PG_STATEMENTS:-}" ] &&
      psql -h 127.0.0.1 -p "$pg_port" -U postgres -d "$database" -qc "CREATE EXTENSION pg_stat_statements" >/dev/null
    campaign "pushbutton serve, PostgreSQL (one process)$label_suffix$1" \
      "postgres://postgres@127.0.0.1:$pg_port/$database" postgres "${2:-}"
    [ -n "${GATEWAY_PG_STATEMENTS:-}" ] && [ "$round" = 1 ] && pg_statements "$database"
    psql -h 127.0.0.1 -p "$pg_port" -U postgres -qc "DROP DATABASE $database" >/dev/null
  fi
}
# The stream's arm: a campaign with a fresh receiver, then the events it got.
events_campaign() {
  start_receiver
  store_campaign ", stream on" "$receiver_port"
  stop_receiver
  sed 's/^/     /' <<<"$events_line"
}

for round in $(seq "$rounds"); do
  [ "$rounds" -gt 1 ] && printf '   round %d of %d (load average %s)\n' "$round" "$rounds" "$(cut -d' ' -f1 /proc/loadavg)"
  for store in "${stores[@]}"; do
    if [ -z "$events" ]; then
      direct_send
      store_campaign ""
    elif [ $((round % 2)) = 1 ]; then
      store_campaign ", stream off"
      events_campaign
    else
      events_campaign
      store_campaign ", stream off"
    fi
  done
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
if [ -n "$events" ]; then
  printf '\n   %-58s %s\n' "each store over $rounds round(s), stream on ÷ off of a round" \
    "rate: min / median / max; gateway CPU a recipient: median"
  for store in "${stores[@]}"; do
    awk -v s="$store" '$1 == s { r[$2, $3] = $4; c[$2, $3] = $5; d[$2, $3] = $6; p[$2, $3] = $7; if ($2 > n) n = $2 }
      END {
        for (i = 1; i <= n; i++) printf "%s %s %s %s %s %s %s %s\n", r[i, "on"] / r[i, "off"], r[i, "off"], r[i, "on"],
          c[i, "on"] / c[i, "off"], d[i, "on"] / c[i, "off"], (d[i, "on"] + p[i, "on"]) / (c[i, "off"] + p[i, "off"]), c[i, "off"], d[i, "on"]
      }' "$work/events.txt" | sort -n >"$work/events-$store.txt"
    printf '   %-58s %.2f / %.2f / %.2f× (off %.0f, on %.0f recipients/s, medians)\n' "$store, rate on ÷ off" \
      "$(head -1 "$work/events-$store.txt" | cut -d' ' -f1)" "$(cut -d' ' -f1 "$work/events-$store.txt" | median)" \
      "$(tail -1 "$work/events-$store.txt" | cut -d' ' -f1)" "$(cut -d' ' -f2 "$work/events-$store.txt" | median)" \
      "$(cut -d' ' -f3 "$work/events-$store.txt" | median)"
    printf '   %-58s %.2f× to the last delivery, %.2f× to the last event (off %.1f µs, on %.1f µs to the last event)\n' \
      "$store, gateway CPU a recipient on ÷ off" "$(cut -d' ' -f4 "$work/events-$store.txt" | median)" \
      "$(cut -d' ' -f5 "$work/events-$store.txt" | median)" "$(cut -d' ' -f7 "$work/events-$store.txt" | median)" \
      "$(cut -d' ' -f8 "$work/events-$store.txt" | median)"
    [ "$store" = postgres ] && printf '   %-58s %.2f×\n' "postgres, gateway + PostgreSQL CPU on (to the last event) ÷ off" \
      "$(cut -d' ' -f6 "$work/events-$store.txt" | median)"
  done
  if [ -s "$work/failures.txt" ]; then
    printf '\n   FAILED: not every event arrived, or not as sent:\n'
    sed 's/^/   /' "$work/failures.txt"
    exit 1
  fi
  printf '\n   (every event arrived, signed: a notification.sent per recipient and the campaign.finished)\n'
  exit 0
fi
if [ "$rounds" -gt 1 ]; then
  printf '\n   %-58s %s\n' "each store over $rounds rounds" "ratio to the send run before it: min / median / max, peak MiB max"
  for store in "${stores[@]}"; do
    awk -v s="$store" '$1 == s { print $2, $3 }' "$work/ratios.txt" | sort -n |
      awk -v s="$store" '{ r[NR] = $1; if ($2 > p) p = $2 }
        END { printf "   %-58s %.2f / %.2f / %.2f, %d MiB\n", s, r[1], r[int((NR + 1) / 2)], r[NR], p }'
  done
fi
printf '\n   (the target: a campaign at 50%% or more of pushbutton send; the server flat and under 128 MiB)\n'
