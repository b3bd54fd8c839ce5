# A throwaway PostgreSQL 15 server for a benchmark script (run as root: the server runs as the postgres user).
# `. Benchmarks/Support/postgres.sh`; `start_postgres [SERVER OPTIONS]` initialises and starts one on 127.0.0.1 with
# trust authentication and sets pg_dir and pg_port; `stop_postgres` (from the script's exit trap) stops it at once
# and removes its files, and does nothing when none was started.
pg_dir=
pg_port=
start_postgres() {
  pg_dir=$(mktemp -d)
  chown postgres:postgres "$pg_dir"
  pg_port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
  runuser -u postgres -- /usr/lib/postgresql/15/bin/initdb -D "$pg_dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
  runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D "$pg_dir/data" -l "$pg_dir/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_dir $*" start >/dev/null
}
stop_postgres() {
  [ -n "$pg_dir" ] || return 0
  runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$pg_dir"
}
