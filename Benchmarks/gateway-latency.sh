#!/usr/bin/env bash
# Gateway latency benchmark (issue 34): how long one transactional notification takes through the gateway,
# next to APNsClient.send in-process (the floor), in one run, printed as a table.
#
# Open-loop arrivals (Benchmarks/Support/open-loop-post.py): single notifications at a fixed rate, each started
# at its planned instant whether or not the earlier ones were answered, so a stall counts against every request
# it holds up. For each rate (LATENCY_RATES, default "10 100 1000") and store (SQLite: one `pushbutton serve`;
# PostgreSQL: two processes on one database, the posts alternating between them):
#   - POST → 202 (the notification is committed) and POST → the mock APNs received it (the mock's --record
#     arrival time, on the same real-time clock), p50 / p99 / p99.9 / max in ms, from the planned start;
#   - the floor: LatencyBenchmark, APNsClient.send in-process at the same rate against the same mock, the same
#     two columns (the APNs answer, and the mock's arrival);
#   - "added": the gateway's arrival latency minus the floor's, at p50 and p99;
# and each gateway's CPU while idle over LATENCY_IDLE_SECONDS (default 10), as % of one core. Under a row, the
# requests not answered 2xx or never at the mock, by status (0: no answer, with what failed in the load
# generator) and whether they reached the mock, and what the gateways wrote to stderr meanwhile.
#
# LATENCY_SECONDS per rate (default 30); QUICK=1: 3 s per rate and 3 s idle. GATEWAY_BIN=PATH: the pushbutton
# whose `serve` is measured (a build from before, say); GATEWAY_BIN_BEFORE=PATH adds that build's gateway rows
# next to this one's in the same run (the mock and the floor always come from this tree's release build).
# LATENCY_STORES="sqlite postgres" (default both). LATENCY_PG_STATEMENTS=1: PostgreSQL's statements per notification
# (pg_stat_statements, all calls on the run's database divided by the notifications posted) after each run, and the
# most called ones. The gateways run with the documented defaults but for the
# store (2 workers, batches of 500, the default poll interval).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${LATENCY_SECONDS:-30}
idle_seconds=${LATENCY_IDLE_SECONDS:-10}
if [ -n "${QUICK:-}" ]; then seconds=3; idle_seconds=3; fi
rates=${LATENCY_RATES:-"10 100 1000"}
stores=${LATENCY_STORES:-"sqlite postgres"}
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

# LATENCY_TOOL_DIR=DIR: a directory holding pushbutton and LatencyBenchmark built before (no build here).
if [ -n "${LATENCY_TOOL_DIR:-}" ]; then
  bin_dir=$LATENCY_TOOL_DIR
else
  swift build -c release --product pushbutton >/dev/null
  swift build -c release --product LatencyBenchmark >/dev/null
  bin_dir=$(swift build -c release --show-bin-path)
fi
tool=$bin_dir/pushbutton
floor_bin=$bin_dir/LatencyBenchmark
builds=()
labels=()
if [ -n "${GATEWAY_BIN_BEFORE:-}" ]; then builds+=("$GATEWAY_BIN_BEFORE"); labels+=("before"); fi
builds+=("${GATEWAY_BIN:-$tool}")
labels+=("$([ -n "${GATEWAY_BIN_BEFORE:-}" ] && echo after || echo gateway)")

record=$work/mock.ndjson
"$tool" mock-apns --h2c --port 0 --quiet --record "$record" >"$work/mock.out" 2>"$work/mock.err" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/mock.out" "$1"; }
mock_port=$(field port)
key=$(field auth_key)
cp Examples/manifest.json "$work/manifest.json"
secret=pb_sk_benchmark_secret_key
digest=$("$tool" serve --hash-key "$secret")

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }

config() { # file store
  cat >"$1" <<JSON
{
  "listen": {"host": "127.0.0.1", "port": 0},
  "store": "$2",
  "apps": [{"id": "chat", "topic": "com.example.chatter", "manifest": "manifest.json",
    "environment": {"host": "127.0.0.1", "port": $mock_port, "h2c": true}, "connections": 1,
    "auth": {"key": "$key", "keyId": "MOCKKEY001", "teamId": "MOCKTEAM01"}, "secretKeys": ["$digest"]}]
}
JSON
}

serve_pids=()
serve_urls=()
serve_names=()
start_serve() { # bin config name
  "$1" serve --config "$2" >"$work/$3.out" 2>"$work/$3.err" &
  local pid=$!
  pids+=($pid)
  for _ in $(seq 400); do grep -qs 'listening on' "$work/$3.out" && break; sleep 0.05; done
  local url
  url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/$3.out" | head -1)
  [ -n "$url" ] || { echo "$1 serve did not start:"; cat "$work/$3.out" "$work/$3.err"; exit 1; }
  serve_pids+=($pid)
  serve_urls+=("$url")
  serve_names+=("$3")
}
stop_serves() {
  for pid in "${serve_pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  serve_pids=()
  serve_urls=()
  serve_names=()
}

# What the gateways running now wrote to stderr (a failed commit, a lost connection), counted by line.
gateway_errors() {
  local name
  for name in "${serve_names[@]}"; do
    [ -s "$work/$name.err" ] || continue
    echo "     stderr of $name ($(wc -l <"$work/$name.err") lines), most frequent:"
    sed 's/[0-9a-f]\{8\}-[0-9a-f-]\{27\}/<id>/g' "$work/$name.err" | sort | uniq -c | sort -rn | head -3 | cut -c1-160 |
      sed 's/^/       /'
  done
}

# Each run's tokens start with a prefix of its own (set in this shell, not a subshell: the counter must move).
prefix_counter=0
prefix=
next_prefix() {
  prefix_counter=$((prefix_counter + 1))
  prefix=$(printf 'ab%04x' "$prefix_counter")
}

floor_file() { echo "$work/floor-$1.txt"; }
run_floor() { # rate
  next_prefix
  "$floor_bin" "$key" MOCKKEY001 MOCKTEAM01 "$mock_port" "$1" "$seconds" "$prefix" "$(floor_file "$1")"
  sleep 0.5 # the last records reach the file
  python3 Benchmarks/Support/latency-table.py "floor: APNsClient.send" "$(floor_file "$1")" "$record"
}

run_gateway() { # label rate
  next_prefix
  local load=$work/load-$prefix.txt
  python3 Benchmarks/Support/open-loop-post.py "$2" "$seconds" "$secret" "$prefix" "$load" "${serve_urls[@]}"
  # What the gateway still had queued reaches the mock (at most a few seconds).
  local expected got
  expected=$(wc -l <"$load")
  for _ in $(seq 100); do
    got=$(grep -c "\"token\":\"$prefix" "$record" || true)
    [ "$got" -ge "$expected" ] && break
    sleep 0.1
  done
  python3 Benchmarks/Support/latency-table.py "$1" "$load" "$record" "$(floor_file "$2")"
  notifications=$expected
}

# Statements per notification on database $1 (LATENCY_PG_STATEMENTS=1), from pg_stat_statements.
pg_statements() {
  local sql="FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '$1')"
  psql -h 127.0.0.1 -p "$pg_port" -U postgres -d "$1" -AtF ' ' -c "
    SELECT sum(calls), round(sum(total_exec_time + total_plan_time)) $sql" | {
    read -r calls ms
    printf '   statements: %.1f a notification (%s calls, %s ms in the server, %s notifications)\n' \
      "$(echo "$calls / $notifications" | bc -l)" "$calls" "$ms" "$notifications"
  }
  psql -h 127.0.0.1 -p "$pg_port" -U postgres -d "$1" -AtF ' | ' -c "
    SELECT round(calls::numeric / $notifications, 2), regexp_replace(left(query, 100), '\s+', ' ', 'g')
    $sql ORDER BY calls DESC LIMIT 14" | sed 's/^/     /'
}

idle_cpu() { # label
  local before=() pid index=0 line="   idle CPU over ${idle_seconds} s, $1:"
  for pid in "${serve_pids[@]}"; do before+=("$(ticks "$pid")"); done
  sleep "$idle_seconds"
  for pid in "${serve_pids[@]}"; do
    line+=$(printf ' %.2f%%' "$(echo "($(ticks "$pid") - ${before[$index]}) * 100 / $(getconf CLK_TCK) / $idle_seconds" | bc -l)")
    index=$((index + 1))
  done
  echo "$line of a core"
}

printf 'gateway latency, open loop, %s s per rate; load average %s\n' "$seconds" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '   %-34s %-31s  | %s\n' "" "answer (202 / APNs 200), ms" "at the mock APNs, ms"
printf '   %-34s %7s %7s %7s %7s  |%7s %7s %7s %7s\n' "sender" p50 p99 p99.9 max p50 p99 p99.9 max
for store in $stores; do
  for rate in $rates; do
    printf '%s, %s/s (load average %s)\n' "$store" "$rate" "$(cut -d' ' -f1 /proc/loadavg)"
    run_floor "$rate"
    for index in "${!builds[@]}"; do
      if [ "$store" = sqlite ]; then
        config "$work/gateway.json" "sqlite:$work/latency-$index-$rate.db"
        start_serve "${builds[$index]}" "$work/gateway.json" serve
        label="${labels[$index]}, SQLite"
      else
        if [ -z "$pg_dir" ]; then
          if [ -n "${LATENCY_PG_STATEMENTS:-}" ]; then
            start_postgres -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.max=1000
          else
            start_postgres
          fi
        fi
        psql -h 127.0.0.1 -p "$pg_port" -U postgres -qc "CREATE DATABASE bench_${index}_$rate" >/dev/null
        [ -n "${LATENCY_PG_STATEMENTS:-}" ] &&
          psql -h 127.0.0.1 -p "$pg_port" -U postgres -d "bench_${index}_$rate" -qc "CREATE EXTENSION pg_stat_statements" >/dev/null
        config "$work/gateway.json" "postgres://postgres@127.0.0.1:$pg_port/bench_${index}_$rate"
        start_serve "${builds[$index]}" "$work/gateway.json" serve-a
        start_serve "${builds[$index]}" "$work/gateway.json" serve-b
        label="${labels[$index]}, PostgreSQL x2"
      fi
      # Counted from here: not the migrations at start.
      if [ "$store" = postgres ] && [ -n "${LATENCY_PG_STATEMENTS:-}" ]; then
        psql -h 127.0.0.1 -p "$pg_port" -U postgres -d "bench_${index}_$rate" -qAtc "SELECT pg_stat_statements_reset()" >/dev/null
      fi
      run_gateway "$label" "$rate"
      gateway_errors
      if [ "$store" = postgres ] && [ -n "${LATENCY_PG_STATEMENTS:-}" ]; then pg_statements "bench_${index}_$rate"; fi
      if [ "$rate" = "$(echo "$rates" | awk '{ print $NF }')" ]; then idle_cpu "$label"; fi
      stop_serves
    done
  done
done
printf '\n   (targets, added = gateway minus floor at the mock: p50 <= 3 ms and p99 <= 15 ms at 100/s, p99 <= 30 ms at 1,000/s; idle CPU <= 1%% of a core)\n'
uptime
