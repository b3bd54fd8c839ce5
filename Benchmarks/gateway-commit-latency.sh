#!/usr/bin/env bash
# Commit latency benchmark (issue 34): POST /v1/apps/{app}/notifications → 202 (the notification committed,
# durably, before the answer) with 1, 32 and 256 concurrent clients (closed loop: wrk, one request at a time
# per connection), p50 / p99, on SQLite and on PostgreSQL, next to the floor: a raw INSERT + COMMIT loop with
# as many clients on the same kind of database (SQLite in WAL with synchronous=FULL, as the gateway opens it;
# PostgreSQL with its defaults), printed as ratios. On PostgreSQL it also prints WAL fsyncs per commit
# (pg_stat_wal.wal_sync over requests answered 202): below 1 when concurrent commits share an fsync.
#
# COMMIT_CLIENTS (default "1 32 256"), COMMIT_SECONDS per run (default 10; QUICK=1: 3), COMMIT_STORES
# (default "sqlite postgres"), COMMIT_ROUNDS (default 2: gateway and floor alternate, round after round),
# COMMIT_WORKERS (default 0: the intake alone; 2 to send meanwhile). GATEWAY_BIN=PATH: the pushbutton measured;
# GATEWAY_BIN_BEFORE=PATH adds that build's rows next to it, round after round (each build on a database of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${COMMIT_SECONDS:-10}
if [ -n "${QUICK:-}" ]; then seconds=3; fi
clients_list=${COMMIT_CLIENTS:-"1 32 256"}
stores=${COMMIT_STORES:-"sqlite postgres"}
rounds=${COMMIT_ROUNDS:-2}
workers=${COMMIT_WORKERS:-0}
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

if [ -n "${GATEWAY_BIN:-}" ]; then
  bin=$GATEWAY_BIN
else
  swift build -c release --product pushbutton >/dev/null
  bin=$(swift build -c release --show-bin-path)/pushbutton
fi
builds=()
labels=()
if [ -n "${GATEWAY_BIN_BEFORE:-}" ]; then builds+=("$GATEWAY_BIN_BEFORE"); labels+=("before"); fi
builds+=("$bin")
labels+=("$([ -n "${GATEWAY_BIN_BEFORE:-}" ] && echo after || echo gateway)")

"$bin" mock-apns --h2c --port 0 --quiet >"$work/mock.out" 2>"$work/mock.err" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/mock.out" "$1"; }
mock_port=$(field port)
key=$(field auth_key)
cp Examples/manifest.json "$work/manifest.json"
secret=pb_sk_benchmark_secret_key
digest=$("$bin" serve --hash-key "$secret")

config() { # store
  cat >"$work/gateway.json" <<JSON
{
  "listen": {"host": "127.0.0.1", "port": 0},
  "store": "$1",
  "workers": {"count": $workers},
  "apps": [{"id": "chat", "topic": "com.example.chatter", "manifest": "manifest.json",
    "environment": {"host": "127.0.0.1", "port": $mock_port, "h2c": true}, "connections": 1,
    "auth": {"key": "$key", "keyId": "MOCKKEY001", "teamId": "MOCKTEAM01"}, "secretKeys": ["$digest"]}]
}
JSON
}

serve_pid=
serve_url=
start_serve() { # bin
  "$1" serve --config "$work/gateway.json" >"$work/serve.out" 2>"$work/serve.err" &
  serve_pid=$!
  pids+=($serve_pid)
  for _ in $(seq 400); do grep -qs 'listening on' "$work/serve.out" && break; sleep 0.05; done
  serve_url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/serve.out" | head -1)
  [ -n "$serve_url" ] || { cat "$work/serve.err"; exit 1; }
}
stop_serve() { kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; }

pg() { PGOPTIONS="-c client_min_messages=warning" psql -h 127.0.0.1 -p "$pg_port" -U postgres -qAt "$@"; }

cat >"$work/post.lua" <<LUA
local counter = 0
local thread_id = 0
setup = function(thread) thread_id = thread_id + 1; thread:set("tid", thread_id) end
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer $secret"
request = function()
  counter = counter + 1
  local body = string.format('{"to": {"tokens": ["%02x%062x"]}, "category": "message", "title": "Anna", "body": "Lunch?"}', tid or 0, counter)
  return wrk.format(nil, "/v1/apps/chat/notifications", nil, body)
end
LUA

# The gateway at `clients` connections: "p50 p99 requests" (ms, ms, answered).
gateway_run() { # clients
  local threads=2
  [ "$1" -lt 2 ] && threads=1
  wrk -t "$threads" -c "$1" -d "${seconds}s" --latency -s "$work/post.lua" "$serve_url" >"$work/wrk.txt"
  python3 - "$work/wrk.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def ms(label):
    m = re.search(r"^\s*%s%%\s+([0-9.]+)(us|ms|s)\s*$" % label, text, re.M)
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
requests = int(re.search(r"([0-9]+) requests in", text).group(1))
errors = re.search(r"Non-2xx or 3xx responses: ([0-9]+)", text)
print("%.2f %.2f %d" % (ms("50"), ms("99"), requests - (int(errors.group(1)) if errors else 0)))
PY
}

# The floor: INSERT + COMMIT loops, `clients` at once, on SQLite (threads, a connection each) or PostgreSQL
# (pgbench): "p50 p99 commits".
floor_sqlite() { # clients
  python3 - "$work/floor.db" "$1" "$seconds" <<'PY'
import sqlite3, sys, threading, time
path, clients, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
setup = sqlite3.connect(path, isolation_level=None)
setup.execute("PRAGMA journal_mode=WAL")
setup.execute("CREATE TABLE IF NOT EXISTS floor (id INTEGER PRIMARY KEY, body BLOB)")
latencies, lock, end = [], threading.Lock(), time.monotonic() + seconds
def run():
    db = sqlite3.connect(path, isolation_level=None, timeout=60, check_same_thread=False)
    db.execute("PRAGMA synchronous=FULL")
    mine = []
    while time.monotonic() < end:
        start = time.monotonic()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO floor (body) VALUES (?)", (b"x" * 300,))
        db.execute("COMMIT")
        mine.append(time.monotonic() - start)
    with lock: latencies.extend(mine)
threads = [threading.Thread(target=run) for _ in range(clients)]
for t in threads: t.start()
for t in threads: t.join()
latencies.sort()
pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
print("%.2f %.2f %d" % (pick(0.5), pick(0.99), len(latencies)))
PY
}
floor_postgres() { # clients
  pg -c "CREATE TABLE IF NOT EXISTS floor (id bigserial PRIMARY KEY, body bytea)" -d floor
  echo "INSERT INTO floor (body) VALUES (decode(repeat('78', 300), 'hex'));" >"$work/floor.sql"
  local threads=2
  [ "$1" -lt 2 ] && threads=1
  rm -f "$work"/pgbench_log.*
  (cd "$work" && pgbench -h 127.0.0.1 -p "$pg_port" -U postgres -n -c "$1" -j "$threads" -T "$seconds" \
    -f floor.sql -l floor >/dev/null 2>"$work/pgbench.err")
  cat "$work"/pgbench_log.* | python3 -c '
import sys
latencies = sorted(int(line.split()[2]) for line in sys.stdin if line.strip())
pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] / 1000
print("%.2f %.2f %d" % (pick(0.5), pick(0.99), len(latencies)))'
}

printf 'Commit latency, POST → 202 (closed loop, wrk), %s s per run, %s round(s), gateway workers: %s; load: %s\n' \
  "$seconds" "$rounds" "$workers" "$(uptime | sed 's/.*load average: //')"
printf '%-10s %-7s %7s %5s  %-26s %-26s %s\n' store build clients round "gateway p50/p99 ms (req)" \
  "floor p50/p99 ms (commits)" "ratio p50, p99; WAL fsyncs per commit"
for store in $stores; do
  if [ "$store" = postgres ]; then
    start_postgres -c max_connections=400
    for index in "${!builds[@]}"; do pg -c "CREATE DATABASE gateway_$index" -d postgres; done
    pg -c "CREATE DATABASE floor" -d postgres
  fi
  for clients in $clients_list; do
    for round in $(seq "$rounds"); do
     for index in "${!builds[@]}"; do
      if [ "$store" = postgres ]; then
        config "postgres://postgres@127.0.0.1:$pg_port/gateway_$index"
      else
        config "sqlite:$work/gateway-$index.db"
      fi
      start_serve "${builds[$index]}"
      syncs=""
      [ "$store" = postgres ] && before=$(pg -d postgres -c "SELECT wal_sync FROM pg_stat_wal")
      read -r g50 g99 greq < <(gateway_run "$clients")
      if [ "$store" = postgres ]; then
        after=$(pg -d postgres -c "SELECT wal_sync FROM pg_stat_wal")
        syncs=$(python3 -c "print('%.2f' % (($after - $before) / max(1, $greq)))")
        before=$after
        read -r f50 f99 freq < <(floor_postgres "$clients")
        after=$(pg -d postgres -c "SELECT wal_sync FROM pg_stat_wal")
        syncs="$syncs gateway, $(python3 -c "print('%.2f' % (($after - $before) / max(1, $freq)))") floor"
      else
        read -r f50 f99 freq < <(floor_sqlite "$clients")
      fi
      printf '%-10s %-7s %7s %5s  %-26s %-26s %s\n' "$store" "${labels[$index]}" "$clients" "$round" \
        "$g50 / $g99 ($greq)" "$f50 / $f99 ($freq)" \
        "$(python3 -c "print('%.2f, %.2f' % ($g50 / max($f50, 0.001), $g99 / max($f99, 0.001)))")${syncs:+; $syncs}"
      stop_serve
     done
    done
  done
done
uptime
