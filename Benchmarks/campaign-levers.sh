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
# LEVERS_LOCALIZED=1 (with LEVERS_BEFORE_BIN) runs instead "blang" and "lang": the campaign with "localized" text in
# 4 languages beside the default (5 payloads), to devices registered (straight into the store, before the first
# page) with a locale each in turn (fr-FR, de-DE, es-ES, it-IT, en-US: 80% read another language than the default),
# on the earlier build and this one, ratios to "blang"; each campaign also prints the payload rows and bytes stored
# (every payload table's sum(length(payload))) and the database's size at the end. LEVERS_STORE=postgres runs the
# campaigns on a throwaway PostgreSQL server started here (a fresh database each) instead of SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${LEVERS_COUNT:-100000}
rounds=${LEVERS_ROUNDS:-3}
localized=${LEVERS_LOCALIZED:-}
store_kind=${LEVERS_STORE:-sqlite}
work=$(mktemp -d)
chmod 755 "$work"
pids=()
. Benchmarks/Support/postgres.sh
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  stop_postgres
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

python3 - "$count" "$work" "$localized" <<'PY'
import sys
count, work, localized = int(sys.argv[1]), sys.argv[2], sys.argv[3]
page = 10000
header = '{"category": "message", "title": "Anna", "body": "Lunch tomorrow at noon?"'
if localized:
    header += (', "localized": {"fr": {"title": "Anna", "body": "Déjeuner demain à midi ?"}, '
               '"de": {"body": "Mittagessen morgen um zwölf?"}, "es": {"body": "¿Almorzamos mañana a mediodía?"}, '
               '"it": {"body": "Pranzo domani a mezzogiorno?"}}')
for start in range(0, count, page):
    with open(f"{work}/plain-{start // page:05d}.ndjson", "w") as out:
        if start == 0:
            out.write(header + '}\n')
        for i in range(start, min(start + page, count)):
            out.write("%064x\n" % (0xcd << 248 | i))
PY
# The devices of a localized campaign, each with a locale in turn (the tokens of the list), written straight into
# the store once the gateway has made its tables: registering 100,000 over HTTP is not what is measured.
register_devices() { # store-url
  local locales="CASE i % 5 WHEN 0 THEN 'fr-FR' WHEN 1 THEN 'de-DE' WHEN 2 THEN 'es-ES' WHEN 3 THEN 'it-IT' ELSE 'en-US' END"
  if [ "$store_kind" = postgres ]; then
    psql -q "$1" -c "INSERT INTO devices (app, token, environment, locale, tags, registered_at, updated_at, active)
      SELECT 'chat', 'cd' || lpad(to_hex(i), 62, '0'), 'production', $locales, '[]', 0, 0, 1
      FROM generate_series(0, $count - 1) AS i"
  else
    sqlite3 "${1#sqlite:}" "PRAGMA busy_timeout = 10000;
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $count)
      INSERT INTO devices (app, token, environment, locale, tags, registered_at, updated_at, active)
      SELECT 'chat', printf('cd%062x', i), 'production', $locales, '[]', 0, 0, 1 FROM n" >/dev/null
  fi
}
# What the campaign's payloads take in the store: rows and bytes over every payload table the database has.
payload_storage() { # store-url
  local tables="payloads shared_payloads variant_payloads language_payloads" sql= table
  for table in $tables; do
    if [ "$store_kind" = postgres ]; then
      [ "$(psql -Atq "$1" -c "SELECT to_regclass('$table') IS NOT NULL")" = t ] || continue
    else
      [ -n "$(sqlite3 "${1#sqlite:}" "SELECT name FROM sqlite_master WHERE name = '$table'")" ] || continue
    fi
    sql+="${sql:+ UNION ALL }SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(payload)), 0) AS b FROM $table"
  done
  if [ "$store_kind" = postgres ]; then
    psql -Atq -F ' ' "$1" -c "SELECT SUM(n), SUM(b), pg_database_size(current_database()) FROM ($sql) AS t"
  else
    local db=${1#sqlite:}
    echo "$(sqlite3 -separator ' ' "$db" "SELECT SUM(n), SUM(b) FROM ($sql)") $(cat "$db" "$db-wal" 2>/dev/null | wc -c)"
  fi
}
[ "$store_kind" = postgres ] && start_postgres
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
  "store": "$1",
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
# gateway's CPU µs per recipient, then the payload rows, their bytes and the database's bytes at the end.
campaign() {
  local kind=$1 db="$work/$1-$2.db" run=$bin url
  case $kind in before | bquiet | blang) run=$before_bin ;; esac
  url="sqlite:$db"
  if [ "$store_kind" = postgres ]; then
    url="postgres://postgres@127.0.0.1:$pg_port/bench_$1_$2"
    psql -q "postgres://postgres@127.0.0.1:$pg_port/postgres" -c "CREATE DATABASE bench_$1_$2"
  fi
  cat_config "$url" "$kind"
  rm -f "$work/serve.out"
  "$run" serve --config "$work/gateway.json" >"$work/serve.out" 2>"$work/serve.err" &
  serve_pid=$!
  pids+=($serve_pid)
  for _ in $(seq 400); do grep -qs 'listening on' "$work/serve.out" && break; sleep 0.05; done
  serve_url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/serve.out" | head -1)
  [ -n "$serve_url" ] || { cat "$work/serve.err" >&2; exit 1; }
  [ -n "$localized" ] && register_devices "$url"
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
  echo "$count / ($ended - $started)" | bc -l
  echo "($after - $before) * 1000000 / $(getconf CLK_TCK) / $count" | bc -l
  payload_storage "$url" | tr ' ' '\n'
  if [ "$store_kind" = postgres ]; then
    psql -q "postgres://postgres@127.0.0.1:$pg_port/postgres" -c "DROP DATABASE bench_$1_$2"
  fi
  rm -f "$db"*
}

kinds="plain quiet levers"
[ -n "$before_bin" ] && kinds="before $kinds bquiet"
base=plain
if [ -n "$localized" ]; then
  [ -n "$before_bin" ] || { echo "LEVERS_LOCALIZED needs LEVERS_BEFORE_BIN (the build to compare with)" >&2; exit 2; }
  kinds="blang lang"
  base=blang
fi
printf 'A %d-recipient campaign on %s, alternating rounds (rate: recipients/s; CPU: gateway µs each; ratio to %s;\n' \
  "$count" "$store_kind" "$base"
printf '   payload rows and MiB stored, the database MiB at the end)\n'
printf '   %-6s %-16s %-7s %10s %10s %8s %8s %10s %9s %9s\n' round "load average" kind rate CPU "rate ×" "CPU ×" \
  "payloads" "MiB" "db MiB"
for round in $(seq "$rounds"); do
  # The order alternates too (reversed every other round): a machine warming up favours no kind.
  order=$kinds
  [ $((round % 2)) -eq 0 ] && order=$(echo "$kinds" | tr ' ' '\n' | tac | tr '\n' ' ')
  declare -A rate cpu load rows bytes dbsize
  for kind in $order; do
    load[$kind]=$(cut -d' ' -f1-3 /proc/loadavg)
    mapfile -t figures < <(campaign "$kind" "$round")
    rate[$kind]=${figures[0]}
    cpu[$kind]=${figures[1]}
    rows[$kind]=${figures[2]}
    bytes[$kind]=${figures[3]}
    dbsize[$kind]=${figures[4]}
  done
  for kind in $kinds; do
    rate_ratio=$(echo "${rate[$kind]} / ${rate[$base]}" | bc -l)
    cpu_ratio=$(echo "${cpu[$kind]} / ${cpu[$base]}" | bc -l)
    printf '   %-6s %-16s %-7s %10.0f %10.2f %8.3f %8.3f %10d %9.2f %9.1f\n' "$round" "${load[$kind]}" "$kind" \
      "${rate[$kind]}" "${cpu[$kind]}" "$rate_ratio" "$cpu_ratio" "${rows[$kind]}" \
      "$(echo "${bytes[$kind]} / 1048576" | bc -l)" "$(echo "${dbsize[$kind]} / 1048576" | bc -l)"
    echo "$rate_ratio" >>"$work/rate-$kind.txt"
    echo "$cpu_ratio" >>"$work/cpu-$kind.txt"
  done
done
for kind in $kinds; do
  [ "$kind" = "$base" ] && continue
  for what in rate cpu; do
    sort -n "$work/$what-$kind.txt" | awk -v kind="$kind" -v what="$what" '{ r[NR] = $1 } END {
      printf "   %-7s %-4s median ratio to '"$base"' over %d rounds: %.3f (min %.3f, max %.3f)\n", kind, what, NR,
        r[int((NR + 1) / 2)], r[1], r[NR] }'
  done
done
uptime
