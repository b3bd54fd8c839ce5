#!/usr/bin/env bash
# Audience counts (issue 35): POST /v1/apps/{app}/audience/count's store call on AUDIENCE_DEVICES devices
# (default 1,000,000) beside the floor, a plain count(*) of the app's active devices, rounds alternating, on
# SQLite (a file in a temporary directory) and PostgreSQL (a throwaway server started here). Prints `uptime`.
# Making the devices takes minutes; to count a database made before instead, AUDIENCE_SQLITE=PATH (a copy of it is
# counted, the file itself is left as it is) and AUDIENCE_POSTGRES=URL (counted where it is, no server started).
# The PostgreSQL started here has shared_buffers=1GB, what Install.md recommends for a million devices' audience.
set -euo pipefail
cd "$(dirname "$0")/.."
devices=${AUDIENCE_DEVICES:-1000000}
rounds=${AUDIENCE_ROUNDS:-5}
work=$(mktemp -d)
. Benchmarks/Support/postgres.sh
cleanup() {
  stop_postgres
  rm -rf "$work"
}
trap cleanup EXIT
if [ -n "${AUDIENCE_BIN:-}" ]; then
  bin=$AUDIENCE_BIN
else
  swift build -c release --product AudienceBenchmark >/dev/null
  bin=$(swift build -c release --show-bin-path)/AudienceBenchmark
fi
uptime
if [ -n "${AUDIENCE_SQLITE:-}" ]; then
  cp "$AUDIENCE_SQLITE" "$work/audience.db"
fi
"$bin" "sqlite:$work/audience.db" "$devices" "$rounds"
if [ -n "${AUDIENCE_POSTGRES:-}" ]; then
  "$bin" "$AUDIENCE_POSTGRES" "$devices" "$rounds"
  uptime
  exit 0
fi
start_postgres -c shared_buffers=1GB
"$bin" "postgres://postgres@127.0.0.1:$pg_port/postgres" "$devices" "$rounds"
uptime
