#!/usr/bin/env bash
# make chaos: network faults between hosts (issue 32). Gateway A runs in a network namespace joined to the host by a
# veth pair (10.78.0.0/24); gateway B, PostgreSQL and the mock APNs run on the host. Both gateways reach PostgreSQL
# through a relay that holds each chunk 1 ms and the mock through one that holds each chunk 30 ms, in both
# directions (scripts/delay_relay.py: this kernel has no sch_netem, fq, fq_codel or cake; tbf exists but only caps a
# rate, so its queueing delay would follow the load, not a fixed latency; the relay delays per chunk at the
# application layer, not per packet). Four campaigns, one after the other, with those delays:
#   delay      nothing else;
#   loss       iptables' statistic match drops 5% of the packets between A and both relays, each way;
#   partition  A's packets to PostgreSQL are black-holed (a drop, not a refusal) for PARTITION_SECONDS mid-campaign,
#              then healed;
#   apnscut    A's packets to and from the APNs relay are black-holed for APNS_CUT_SECONDS mid-campaign, then
#              healed: A's requests under way time out (the packets are held, not lost, so they may reach the mock
#              when the link heals), its new connections cannot be made (its circuit holds the queue), B sends on.
# Checks: each campaign's recipients are all stored, each with one final outcome, none failed, each apns-id reached
# the mock; the mock's repeats of an apns-id stay within the outcomes refused for a lease that had passed on, and,
# where A's link to APNs was cut, within those and the attempts that did not settle their recipient (timed out,
# lost with their connection: pushbutton_apns_attempts_inconclusive_total) — what the docs bound. One summary line
# per scenario. Needs root, ip netns and iptables.
set -euo pipefail
BIN=${BIN:-$PWD/.build/debug/pushbutton}
SCRIPTS=$(cd "$(dirname "$0")" && pwd)
# Absolute: PostgreSQL resolves its socket directory (-k) from its data directory.
DIR=$(realpath -m "${1:-$PWD/.build/chaos}")
DELAY_RECIPIENTS=${CHAOS_DELAY_RECIPIENTS:-5000}
LOSS_RECIPIENTS=${CHAOS_LOSS_RECIPIENTS:-10000}
RECIPIENTS=${CHAOS_RECIPIENTS:-20000}
PARTITION_SECONDS=${PARTITION_SECONDS:-20}
APNS_CUT_RECIPIENTS=${CHAOS_APNS_CUT_RECIPIENTS:-20000}
APNS_CUT_SECONDS=${APNS_CUT_SECONDS:-20}
LOSS=${CHAOS_LOSS:-0.05}
DB_DELAY_MS=${CHAOS_DB_DELAY_MS:-1}
APNS_DELAY_MS=${CHAOS_APNS_DELAY_MS:-30}
NS=pbchaos-gw
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
rm -rf "$DIR"; mkdir -p "$DIR"; chown postgres:postgres "$DIR"
echo "chaos: load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
cleanup() {
  set +e
  for pid in ${A_PID:-} ${B_PID:-} ${MOCK_PID:-} ${PG_RELAY_PID:-} ${APNS_RELAY_PID:-}; do kill "$pid" 2>/dev/null; done
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
# One TCP segment per packet on the veth (no segmentation offload), so the loss below drops segments as a wire
# would, not 64 KB offload units.
ip link set dev pbc0 gso_max_segs 1; ip netns exec "$NS" ip link set dev pbc1 gso_max_segs 1

PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
runuser -u postgres -- "$PG_BIN/initdb" -D "$DIR/pg" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null
runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$DIR/pg" -l "$DIR/pg.log" -w -o \
  "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $DIR -c fsync=off -c max_connections=200" start >/dev/null

"$BIN" mock-apns --h2c --host 127.0.0.1 --port 0 --quiet --record "$DIR/mock.ndjson" >"$DIR/mock.out" 2>"$DIR/mock.err" &
MOCK_PID=$!
for _ in $(seq 200); do [ -s "$DIR/mock.out" ] && break; sleep 0.05; done
MOCK_LINE=$(head -1 "$DIR/mock.out")
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$MOCK_LINE" "$1"; }

# The "links": every gateway's connections to PostgreSQL and APNs go through a delaying relay on 10.78.0.1.
relay() { # NAME TARGET_PORT DELAY_MS; prints the relay's port, its pid in $DIR/NAME.pid
  python3 "$SCRIPTS/delay_relay.py" 10.78.0.1 0 127.0.0.1 "$2" "$3" >"$DIR/$1.out" 2>"$DIR/$1.err" &
  echo $! >"$DIR/$1.pid"
  for _ in $(seq 200); do [ -s "$DIR/$1.out" ] && break; sleep 0.05; done
  python3 -c 'import json,sys; print(json.load(sys.stdin)["port"])' <"$DIR/$1.out"
}
PG_RELAY=$(relay pg-relay "$PG_PORT" "$DB_DELAY_MS"); PG_RELAY_PID=$(cat "$DIR/pg-relay.pid")
APNS_RELAY=$(relay apns-relay "$(field port)" "$APNS_DELAY_MS"); APNS_RELAY_PID=$(cat "$DIR/apns-relay.pid")
STORE="postgres://postgres@10.78.0.1:$PG_RELAY/postgres"

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
    "environment": {"host": "10.78.0.1", "port": $APNS_RELAY, "h2c": true},
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
A_URL=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$DIR/a.out" | head -1)
AUTH="Authorization: Bearer $SECRET"

sql() { psql -Atq -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -c "$1"; }
metric() { # URL NAME: the family's sum over its labels
  curl -s --max-time 5 -H "$AUTH" "$1/metrics" | awk -v name="$2" '$1 == name || index($1, name "{") == 1 { n += $2 } END { print n + 0 }'
}
late_total() { echo $(($(metric "$A_URL" pushbutton_late_outcomes_refused_total) + $(metric "$URL" pushbutton_late_outcomes_refused_total))); }
inconclusive_total() { echo $(($(metric "$A_URL" pushbutton_apns_attempts_inconclusive_total) + $(metric "$URL" pushbutton_apns_attempts_inconclusive_total))); }
finished() { sql "SELECT count(*) FROM deliveries WHERE notification_id = '$CAMPAIGN' AND state IN ('delivered','rejected','failed')"; }
page() { for i in $(seq "$1" "$2"); do printf '{"token":"%064x"}\n' "$i"; done; }
# Tokens differ between campaigns (FIRST_TOKEN), so a repeat in the mock's record belongs to one campaign; the
# notification's body names the scenario.
campaign() { # SCENARIO RECIPIENTS FIRST_TOKEN: sets CAMPAIGN and STARTED
  local first=$3 last=$(($3 + $2 - 1)) from
  STARTED=$(date +%s.%N)
  { echo "{\"category\":\"message\",\"title\":\"Hello\",\"body\":\"$1\"}"; page "$first" $((first + 9999 < last ? first + 9999 : last)); } >"$DIR/p.ndjson"
  CAMPAIGN=$(curl -s "$URL/v1/apps/chatter/campaigns" -H "$AUTH" --data-binary @"$DIR/p.ndjson" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  from=$((first + 10000))
  while [ "$from" -le "$last" ]; do
    page "$from" $((from + 9999 < last ? from + 9999 : last)) >"$DIR/p.ndjson"
    curl -s -o /dev/null "$URL/v1/campaigns/$CAMPAIGN/recipients" -H "$AUTH" --data-binary @"$DIR/p.ndjson"
    from=$((from + 10000))
  done
}
wait_finished() { # RECIPIENTS: waits (at most 300 s) for every recipient's final outcome; sets ELAPSED
  local deadline=$(($(date +%s) + 300))
  while [ "$(finished)" -lt "$1" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.2; done
  ELAPSED=$(python3 -c "import time; print(f'{time.time() - $STARTED:.1f}')")
}
# Per scenario: its campaign, recipients, time, A's share and the refused late outcomes counted from its start to
# the next one's (a late outcome lands when A's stalled connection carries again, possibly after the campaign).
SCENARIOS=()
declare -A SC_CAMPAIGN SC_RECIPIENTS SC_ELAPSED SC_A_SENT SC_LATE_FROM SC_INCONCLUSIVE_FROM
a_sent() { metric "$A_URL" pushbutton_notifications_sent_total; }
begin() { SC_LATE_FROM[$1]=$(late_total); SC_INCONCLUSIVE_FROM[$1]=$(inconclusive_total); SC_A_FROM=$(a_sent); SCENARIOS+=("$1"); }
end() { SC_CAMPAIGN[$1]=$CAMPAIGN; SC_RECIPIENTS[$1]=$2; SC_ELAPSED[$1]=$ELAPSED; SC_A_SENT[$1]=$(($(a_sent) - SC_A_FROM)); }

# 1. The delays alone.
begin delay
campaign delay "$DELAY_RECIPIENTS" 1
wait_finished "$DELAY_RECIPIENTS"
end delay "$DELAY_RECIPIENTS"

# 2. The delays and 5% loss on A's links to both relays, each way, for the whole campaign.
# The drop rule sits in a chain of its own, reached from OUTPUT and INPUT by A's traffic to and from the relays:
# the jumps count the packets it sees, and a flush removes it (deleting a statistic rule by its spec failed
# now and then with iptables-nft: "Bad rule").
loss_on() {
  ip netns exec "$NS" iptables -N PBLOSS
  ip netns exec "$NS" iptables -A PBLOSS -m statistic --mode random --probability "$LOSS" -j DROP
  ip netns exec "$NS" iptables -A OUTPUT -p tcp -d 10.78.0.1 -m multiport --dports "$PG_RELAY,$APNS_RELAY" -j PBLOSS
  ip netns exec "$NS" iptables -A INPUT -p tcp -s 10.78.0.1 -m multiport --sports "$PG_RELAY,$APNS_RELAY" -j PBLOSS
}
loss_off() { # sets SEEN and DROPPED
  read -r SEEN DROPPED < <(ip netns exec "$NS" iptables -nvxL |
    awk '$3 == "PBLOSS" { s += $1 } /statistic/ { d += $1 } END { print s + 0, d + 0 }')
  ip netns exec "$NS" iptables -F PBLOSS
}
begin loss
loss_on
campaign loss "$LOSS_RECIPIENTS" 1000001
wait_finished "$LOSS_RECIPIENTS"
loss_off
end loss "$LOSS_RECIPIENTS"

# 3. The delays and a partition between A and PostgreSQL mid-campaign.
begin partition
campaign partition "$RECIPIENTS" 2000001
while [ "$(finished)" -lt $((RECIPIENTS * 3 / 10)) ]; do sleep 0.2; done
held=$(sql "SELECT COALESCE(sum(size), 0) FROM queue_batches WHERE lease_token IS NOT NULL" || echo "?")
echo "chaos: partition: cut A from PostgreSQL at $(finished) of $RECIPIENTS finished (up to $held recipients leased by A and B)"
cut_at=$(date +%s)
ip netns exec "$NS" iptables -A OUTPUT -p tcp -d 10.78.0.1 --dport "$PG_RELAY" -j DROP
sleep "$PARTITION_SECONDS"
ip netns exec "$NS" iptables -D OUTPUT -p tcp -d 10.78.0.1 --dport "$PG_RELAY" -j DROP
echo "chaos: partition: healed after ${PARTITION_SECONDS}s at $(finished) of $RECIPIENTS finished"
wait_finished "$RECIPIENTS"
echo "chaos: partition: all finished $(($(date +%s) - cut_at))s after the cut"
end partition "$RECIPIENTS"
# A records what it sent before the cut once its connection carries again (TCP retransmits, keepalives): those
# outcomes are refused, since B took the leases over and recorded its own.
late_from=${SC_LATE_FROM[partition]}
for _ in $(seq 300); do [ "$(late_total)" -gt "$late_from" ] && break; sleep 0.3; done
# Then until they stop coming (each of A's workers' batches may land on its own), so the next scenario's count of
# refused outcomes is its own.
settled=$(late_total)
for _ in $(seq 20); do sleep 1; now_late=$(late_total); [ "$now_late" -eq "$settled" ] && break; settled=$now_late; done
echo "chaos: A's /readyz after the partition: $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$A_URL/readyz")"

# 4. The delays and A's link to APNs black-holed mid-campaign (both ways: a dead path, not a refusal). A's requests
# under way get no answer and time out (workers.apnsTimeoutSeconds, 10 s); a new connection cannot be made, so its
# tries are not attempts and A's circuit holds its queue; its leases are renewed meanwhile (PostgreSQL is reachable)
# or, given back, taken by B, which sends on. When the link heals, the bytes held in A's sockets reach the mock:
# a request that timed out and was sent again can be accepted twice, which only an inconclusive attempt allows.
begin apnscut
campaign apnscut "$APNS_CUT_RECIPIENTS" 3000001
while [ "$(finished)" -lt $((APNS_CUT_RECIPIENTS * 3 / 10)) ]; do sleep 0.2; done
cut_done=$(finished)
a_before=$(a_sent)
cut_at=$(date +%s.%N)
echo "chaos: apnscut: cut A from APNs at $cut_done of $APNS_CUT_RECIPIENTS finished"
ip netns exec "$NS" iptables -A OUTPUT -p tcp -d 10.78.0.1 --dport "$APNS_RELAY" -j DROP
ip netns exec "$NS" iptables -A INPUT -p tcp -s 10.78.0.1 --sport "$APNS_RELAY" -j DROP
sleep "$APNS_CUT_SECONDS"
circuit=$(metric "$A_URL" pushbutton_apns_circuit_open)
APNS_CUT_A_DURING=$(($(a_sent) - a_before))  # before the heal: what A finished while cut (outcomes it could record)
ip netns exec "$NS" iptables -D OUTPUT -p tcp -d 10.78.0.1 --dport "$APNS_RELAY" -j DROP
ip netns exec "$NS" iptables -D INPUT -p tcp -s 10.78.0.1 --sport "$APNS_RELAY" -j DROP
healed_at=$(date +%s.%N)
healed_done=$(finished)
APNS_CUT_PROGRESS=$((healed_done - cut_done))
echo "chaos: apnscut: healed after ${APNS_CUT_SECONDS}s at $healed_done of $APNS_CUT_RECIPIENTS finished ($APNS_CUT_PROGRESS during the cut, $APNS_CUT_A_DURING of them by A; A's circuit open at the heal: $circuit)"
wait_finished "$APNS_CUT_RECIPIENTS"
APNS_CUT_RECOVERY=$(python3 -c "import time; print(f'{time.time() - $healed_at:.1f}')")
echo "chaos: apnscut: all finished ${APNS_CUT_RECOVERY}s after the heal ($(python3 -c "import time; print(f'{time.time() - $cut_at:.1f}')")s after the cut)"
end apnscut "$APNS_CUT_RECIPIENTS"
# The bytes A's sockets held reach the mock within TCP's retransmission backoff after the heal (a few seconds):
# its record is read once the mock stops, after the gateways.
sleep 3
LATE_END=$(late_total)
INCONCLUSIVE_END=$(inconclusive_total)

# The gateways stop first, so they do not log the relays going away.
kill "$A_PID" "$B_PID"; wait "$A_PID" "$B_PID" 2>/dev/null || true; A_PID=; B_PID=
kill "$MOCK_PID"; wait "$MOCK_PID" 2>/dev/null || true; MOCK_PID=
# The relays were started in a subshell (not this shell's children): wait for the figures they print at exit.
kill "$PG_RELAY_PID" "$APNS_RELAY_PID"; PG_RELAY_PID=; APNS_RELAY_PID=
for _ in $(seq 100); do [ -s "$DIR/pg-relay.err" ] && [ -s "$DIR/apns-relay.err" ] && break; sleep 0.05; done
echo "chaos: mock: $(tr '\n' ' ' <"$DIR/mock.err")"
for name in pg-relay apns-relay; do echo "chaos: $(cat "$DIR/$name.err")"; done
echo "chaos: loss: $DROPPED of $SEEN packets between A and the relays dropped ($(python3 -c "print(f'{100 * $DROPPED / max($SEEN, 1):.1f}')")%)"
echo "chaos: A's log: $(grep -v warning "$DIR/a.err" | head -5 | cut -c1-160 | tr '\n' '|')"

# The mock's record, per scenario (the body): requests, distinct apns-ids, apns-ids accepted more than once.
python3 - "$DIR/mock.ndjson" >"$DIR/record.txt" <<'PY'
import collections, json, sys
ids = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1]):
    r = json.loads(line)
    ids[r["payload"]["aps"]["alert"]["body"]][r["apns_id"]] += 1
for body, c in ids.items():
    print(body, sum(c.values()), len(c), sum(1 for n in c.values() if n > 1), sum(n - 1 for n in c.values()))
PY
status=0
repeats_total=0
for i in "${!SCENARIOS[@]}"; do
  s=${SCENARIOS[$i]}
  CAMPAIGN=${SC_CAMPAIGN[$s]}; n=${SC_RECIPIENTS[$s]}
  next=${SCENARIOS[$((i + 1))]:-}
  if [ -n "$next" ]; then late=$((SC_LATE_FROM[$next] - SC_LATE_FROM[$s])); else late=$((LATE_END - SC_LATE_FROM[$s])); fi
  if [ -n "$next" ]; then inconclusive=$((SC_INCONCLUSIVE_FROM[$next] - SC_INCONCLUSIVE_FROM[$s])); else inconclusive=$((INCONCLUSIVE_END - SC_INCONCLUSIVE_FROM[$s])); fi
  stored=$(sql "SELECT count(*) FROM deliveries WHERE notification_id = '$CAMPAIGN'")
  failed=$(sql "SELECT count(*) FROM deliveries WHERE notification_id = '$CAMPAIGN' AND state = 'failed'")
  attempts=$(sql "SELECT COALESCE(max(attempts), 0) FROM deliveries WHERE notification_id = '$CAMPAIGN'")
  final=$(finished)
  states=$(sql "SELECT string_agg(state || ' ' || n, ', ' ORDER BY state) FROM (SELECT state, count(*) n FROM deliveries WHERE notification_id = '$CAMPAIGN' GROUP BY state) s")
  read -r _ requests distinct repeated extra < <(grep "^$s " "$DIR/record.txt" || echo "$s 0 0 0 0")
  echo "chaos: scenario $s: $n recipients, $stored stored, $final with a final outcome ($states; most attempts recorded $attempts); mock: $requests accepted, $distinct apns-ids, $repeated repeated ($extra extra); $late late outcomes refused; $inconclusive inconclusive attempts; A sent $((SC_A_SENT[$s])); campaign ${SC_ELAPSED[$s]} s"
  [ "$stored" -eq "$n" ] || { echo "chaos: FAIL: $s: $stored recipients stored, $n sent" >&2; status=1; }
  [ "$final" -eq "$n" ] || { echo "chaos: FAIL: $s: $final of $n with a final outcome" >&2; status=1; }
  [ "$distinct" -eq "$n" ] || { echo "chaos: FAIL: $s: $distinct apns-ids reached the mock for $n recipients" >&2; status=1; }
  # Nothing here lasts long enough to fail a recipient for good: tries that never reached APNs spend no attempt.
  [ "$failed" -eq 0 ] || { echo "chaos: FAIL: $s: $failed recipients failed" >&2; status=1; }
  if [ "$s" = apnscut ]; then
    # A repeat needs an attempt that may have reached APNs without settling its recipient, or a lease that moved.
    [ "$extra" -le $((inconclusive + late)) ] || { echo "chaos: FAIL: apnscut: $extra repeats, more than $inconclusive inconclusive attempts and $late late outcomes refused" >&2; status=1; }
    [ "$APNS_CUT_PROGRESS" -gt 0 ] || { echo "chaos: FAIL: apnscut: nothing finished while A was cut from APNs" >&2; status=1; }
  else
    repeats_total=$((repeats_total + extra))
  fi
  # Loss makes A slow, not stuck: it must have finished batches of its own.
  [ "$s" != loss ] || [ "$((SC_A_SENT[$s]))" -gt 0 ] || { echo "chaos: FAIL: A recorded no outcome under loss" >&2; status=1; }
done
duplicates=$(sed -n 's/.* \([0-9]*\) duplicate acceptance.*/\1/p' "$DIR/mock.err")
late_all=$((LATE_END - SC_LATE_FROM[delay]))
recorded_total=$(awk '{ n += $5 } END { print n + 0 }' "$DIR/record.txt")
echo "chaos: ${duplicates:-?} apns-ids accepted twice by the mock in all ($recorded_total in the record, $repeats_total before the APNs cut), $late_all late outcomes refused in all"
# A refused late outcome can land in the next scenario's window, so the bound for the first three is checked over
# the whole run (the APNs cut begins once the partition's have stopped coming, so it has none of them).
[ "$repeats_total" -le "$late_all" ] || { echo "chaos: FAIL: more repeats than outcomes refused for a lease that had passed on" >&2; status=1; }
[ "${duplicates:-0}" -eq "$recorded_total" ] || { echo "chaos: FAIL: the mock counted ${duplicates:-?} repeats, its record $recorded_total" >&2; status=1; }
echo "chaos: load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ $status -eq 0 ] && echo "chaos: ok: ${#SCENARIOS[@]} scenarios, each recipient one final outcome, repeats within refused late outcomes (and inconclusive attempts where APNs was cut)"
exit $status
