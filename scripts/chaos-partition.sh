#!/usr/bin/env bash
# make chaos: a network partition between one gateway and PostgreSQL (issue 32). Gateway A runs in a network
# namespace joined to the host by a veth pair (10.78.0.0/24); gateway B, PostgreSQL and the mock APNs run on the
# host. During a campaign A's traffic to PostgreSQL is dropped (iptables in A's namespace: a black hole, not a
# refusal) for PARTITION_SECONDS, then healed. Checks: every recipient ends with exactly one final outcome, and the
# mock's repeats of an apns-id stay within what A held when it was cut (its leases pass to B; its late outcomes
# are refused). Needs root, ip netns and iptables. tc netem (latency, loss) is not used: this machine's kernel has
# no sch_netem ("Specified qdisc kind is unknown") and no modprobe.
set -euo pipefail
BIN=${BIN:-$PWD/.build/debug/pushbutton}
# Absolute: PostgreSQL resolves its socket directory (-k) from its data directory.
DIR=$(realpath -m "${1:-$PWD/.build/chaos}")
RECIPIENTS=${CHAOS_RECIPIENTS:-20000}
PARTITION_SECONDS=${PARTITION_SECONDS:-20}
NS=pbchaos-gw
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
rm -rf "$DIR"; mkdir -p "$DIR"; chown postgres:postgres "$DIR"
cleanup() {
  set +e
  for pid in ${A_PID:-} ${B_PID:-} ${MOCK_PID:-}; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$DIR/pg" -m immediate stop >/dev/null 2>&1
  ip netns del "$NS" 2>/dev/null; ip link del pbc0 2>/dev/null
}
trap cleanup EXIT
ip netns del "$NS" 2>/dev/null || true; ip link del pbc0 2>/dev/null || true
ip netns add "$NS"
ip link add pbc0 type veth peer name pbc1
ip link set pbc1 netns "$NS"
ip addr add 10.78.0.1/24 dev pbc0; ip link set pbc0 up
ip netns exec "$NS" ip addr add 10.78.0.2/24 dev pbc1
ip netns exec "$NS" ip link set pbc1 up; ip netns exec "$NS" ip link set lo up

PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
runuser -u postgres -- "$PG_BIN/initdb" -D "$DIR/pg" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null
echo "host all all 10.78.0.0/24 trust" >>"$DIR/pg/pg_hba.conf"
runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$DIR/pg" -l "$DIR/pg.log" -w -o \
  "-c listen_addresses=127.0.0.1,10.78.0.1 -p $PG_PORT -k $DIR -c fsync=off -c max_connections=200" start >/dev/null
STORE="postgres://postgres@10.78.0.1:$PG_PORT/postgres"

"$BIN" mock-apns --h2c --host 10.78.0.1 --port 0 --quiet >"$DIR/mock.out" 2>"$DIR/mock.err" &
MOCK_PID=$!
for _ in $(seq 200); do [ -s "$DIR/mock.out" ] && break; sleep 0.05; done
MOCK_LINE=$(head -1 "$DIR/mock.out")
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$MOCK_LINE" "$1"; }
SECRET=$("$BIN" serve --generate-key secret | sed -n 's/^key: *//p')
cp Examples/manifest.json "$DIR/manifest.json"
config() {
  cat >"$DIR/$1.json" <<JSON
{
  "listen": {"host": "$2", "port": 0},
  "store": "$STORE",
  "workers": {"count": 2, "batchSize": 200, "leaseSeconds": 5, "pollMilliseconds": 200},
  "limits": {"maxRecipients": 10000},
  "apps": [{
    "id": "chatter", "topic": "com.example.chatter", "manifest": "manifest.json",
    "environment": {"host": "10.78.0.1", "port": $(field port), "h2c": true},
    "auth": {"key": "$(field auth_key)", "keyId": "$(field key_id)", "teamId": "$(field team_id)"},
    "secretKeys": ["$("$BIN" serve --hash-key "$SECRET")"]
  }]
}
JSON
}
config a 10.78.0.2; config b 127.0.0.1
start() { # NAME [netns...]
  local name=$1; shift
  "$@" "$BIN" serve --config "$DIR/$name.json" >"$DIR/$name.out" 2>"$DIR/$name.err" &
  echo $!
}
A_PID=$(start a ip netns exec "$NS")
for _ in $(seq 400); do [ -s "$DIR/a.out" ] && break; sleep 0.05; done
B_PID=$(start b)
for _ in $(seq 400); do [ -s "$DIR/b.out" ] && break; sleep 0.05; done
URL=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$DIR/b.out" | head -1)
[ -n "$URL" ] || { echo "chaos: gateway B did not start: $(cat "$DIR/b.err")" >&2; exit 1; }
grep -q listening "$DIR/a.out" || { echo "chaos: gateway A did not start: $(cat "$DIR/a.err")" >&2; exit 1; }
AUTH="Authorization: Bearer $SECRET"
page() { for i in $(seq "$1" "$2"); do printf '{"token":"%064x"}\n' "$i"; done; }
{ echo '{"category":"message","title":"Hello","body":"partition"}'; page 1 10000; } >"$DIR/p1.ndjson"
CAMPAIGN=$(curl -s "$URL/v1/apps/chatter/campaigns" -H "$AUTH" --data-binary @"$DIR/p1.ndjson" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
start_page=10001
while [ "$start_page" -le "$RECIPIENTS" ]; do
  page "$start_page" $((start_page + 9999 < RECIPIENTS ? start_page + 9999 : RECIPIENTS)) >"$DIR/p.ndjson"
  curl -s -o /dev/null "$URL/v1/campaigns/$CAMPAIGN/recipients" -H "$AUTH" --data-binary @"$DIR/p.ndjson"
  start_page=$((start_page + 10000))
done
sql() { psql -Atq -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -c "$1"; }
finished() { sql "SELECT count(*) FROM deliveries WHERE notification_id = '$CAMPAIGN' AND state IN ('delivered','rejected','failed')"; }
while [ "$(finished)" -lt $((RECIPIENTS * 3 / 10)) ]; do sleep 0.2; done
held=$(sql "SELECT COALESCE(sum(size), 0) FROM queue_batches WHERE lease_token IS NOT NULL" || echo "?")
echo "chaos: cut A from PostgreSQL at $(finished) of $RECIPIENTS finished (up to $held recipients leased by A and B)"
cut_at=$(date +%s)
ip netns exec "$NS" iptables -A OUTPUT -p tcp -d 10.78.0.1 --dport "$PG_PORT" -j DROP
sleep "$PARTITION_SECONDS"
ip netns exec "$NS" iptables -D OUTPUT -p tcp -d 10.78.0.1 --dport "$PG_PORT" -j DROP
echo "chaos: healed after ${PARTITION_SECONDS}s at $(finished) of $RECIPIENTS finished"
deadline=$(($(date +%s) + 300))
while [ "$(finished)" -lt "$RECIPIENTS" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.5; done
echo "chaos: all finished $(($(date +%s) - cut_at))s after the cut"
# A records what it sent before the cut once its connection carries again (TCP retransmits, keepalives): those
# outcomes are refused, since B took the leases over and recorded its own.
A_URL=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$DIR/a.out" | head -1)
late=0
for _ in $(seq 300); do
  late=$(curl -s --max-time 2 -H "$AUTH" "$A_URL/metrics" | awk '/^pushbutton_late_outcomes_refused_total/ {print $2}')
  [ "${late:-0}" -gt 0 ] && break
  sleep 0.3
done
echo "chaos: A's late outcomes refused (the lease had moved): ${late:-0}; A's /readyz: $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$A_URL/readyz")"
sql "SELECT state, count(*) FROM deliveries WHERE notification_id = '$CAMPAIGN' GROUP BY state ORDER BY state" | sed 's/^/chaos: state /'
total=$(sql "SELECT count(*) FROM deliveries WHERE notification_id = '$CAMPAIGN'")
final=$(finished)
kill "$MOCK_PID"; wait "$MOCK_PID" 2>/dev/null || true; MOCK_PID=
echo "chaos: mock: $(tr '\n' ' ' <"$DIR/mock.err")"
echo "chaos: A's log: $(grep -v warning "$DIR/a.err" | head -5 | cut -c1-160 | tr '\n' '|')"
status=0
duplicates=$(sed -n 's/.* \([0-9]*\) duplicate acceptance.*/\1/p' "$DIR/mock.err")
echo "chaos: ${duplicates:-?} apns-ids accepted twice by the mock, ${late:-0} late outcomes refused"
[ "${duplicates:-0}" -le "${late:-0}" ] || { echo "chaos: FAIL: more repeats than outcomes A lost to the partition" >&2; status=1; }
[ "$total" -eq "$RECIPIENTS" ] || { echo "chaos: FAIL: $total recipients stored, $RECIPIENTS sent" >&2; status=1; }
[ "$final" -eq "$RECIPIENTS" ] || { echo "chaos: FAIL: $final of $RECIPIENTS with a final outcome" >&2; status=1; }
[ $status -eq 0 ] && echo "chaos: ok: $RECIPIENTS recipients, each one final outcome"
exit $status
