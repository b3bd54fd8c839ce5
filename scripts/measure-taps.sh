#!/usr/bin/env bash
# Measures the tap loop's server side: a campaign of N recipients through `pushbutton serve` (SQLite) to the
# mock APNs, then N taps posted in batches of 500 (one curl at a time), then GET /stats for the campaign, the
# category and the app, and one batch that is only parsed and checked (422) or only duplicates.
# Usage: BIN=.build/release/pushbutton N=20000 scripts/measure-taps.sh   (files in a temporary directory)
set -euo pipefail
BIN=${BIN:-.build/debug/pushbutton}
N=${N:-20000}
DIR=$(mktemp -d)
cleanup() { kill ${GW:-} ${MOCK:-} 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$DIR"; }
trap cleanup EXIT
"$BIN" mock-apns --h2c --port 0 --quiet >"$DIR/mock.out" 2>"$DIR/mock.err" & MOCK=$!
for _ in $(seq 100); do [ -s "$DIR/mock.out" ] && break; sleep 0.05; done
L=$(head -1 "$DIR/mock.out"); f() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$L" "$1"; }
SECRET=$("$BIN" serve --generate-key secret | sed -n 's/^key: *//p')
PUB=$("$BIN" serve --generate-key publishable | sed -n 's/^key: *//p')
cp Examples/manifest.json "$DIR/manifest.json"
cat >"$DIR/gateway.json" <<JSON
{"listen": {"host": "127.0.0.1", "port": 0}, "store": "sqlite:gateway.db",
 "workers": {"count": 2, "pollMilliseconds": 20}, "limits": {"maxBodyBytes": 67108864, "maxRecipients": 1000000},
 "apps": [{"id": "chatter", "topic": "com.example.chatter", "manifest": "manifest.json",
   "environment": {"host": "127.0.0.1", "port": $(f port), "h2c": true},
   "auth": {"key": "$(f auth_key)", "keyId": "$(f key_id)", "teamId": "$(f team_id)"},
   "secretKeys": ["$("$BIN" serve --hash-key "$SECRET")"], "publishableKeys": ["$("$BIN" serve --hash-key "$PUB")"]}]}
JSON
"$BIN" serve --config "$DIR/gateway.json" >"$DIR/gw.out" 2>"$DIR/gw.err" & GW=$!
for _ in $(seq 200); do [ -s "$DIR/gw.out" ] && break; sleep 0.05; done
URL=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$DIR/gw.out" | head -1)
python3 - "$DIR" "$N" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
with open(d + "/campaign.ndjson", "w") as f:
    f.write(json.dumps({"category": "message", "body": "Hi"}) + "\n")
    for i in range(n): f.write(json.dumps({"token": "%064x" % (i + 1)}) + "\n")
PY
ID=$(curl -s "$URL/v1/apps/chatter/campaigns" -H "Authorization: Bearer $SECRET" --data-binary @"$DIR/campaign.ndjson" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
while :; do
  FIN=$(curl -s "$URL/v1/campaigns/$ID" -H "Authorization: Bearer $SECRET" | python3 -c 'import json,sys; print(json.load(sys.stdin)["finished"])')
  [ "$FIN" = "$N" ] && break; sleep 0.5
done
BUTTON=$(python3 -c 'import json; m=json.load(open("Examples/manifest.json")); c=[c for c in m["categories"] if c["identifier"]=="message"][0]; print(c["actions"][0]["identifier"])')
python3 - "$DIR" "$N" "$ID" "$BUTTON" <<'PY'
import json, sys, uuid
d, n, cid, button = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
for b in range(0, n, 500):
    taps = [{"event_id": str(uuid.uuid4()), "token": "%064x" % (i + 1), "notification": cid, "campaign": cid,
             "category": "message", "response": "button", "button": button, "foreground": False,
             "latency_ms": i % 5000, "at": "2026-12-01T10:00:00Z"} for i in range(b, min(n, b + 500))]
    open("%s/taps-%06d.json" % (d, b), "w").write(json.dumps({"taps": taps}))
PY
START=$(date +%s.%N)
for file in "$DIR"/taps-*.json; do
  curl -s -o /dev/null -w "%{http_code} %{time_pretransfer} %{time_starttransfer} %{time_total}\n" -H "Expect:" "$URL/v1/apps/chatter/taps" -H "Authorization: Bearer $PUB" --data-binary @"$file" >> "$DIR/times.txt"
done
END=$(date +%s.%N)
if grep -vq "^200 " "$DIR/times.txt"; then echo "a batch was refused:" >&2; grep -v "^200 " "$DIR/times.txt" >&2; exit 1; fi
python3 -c "import sys; n=int(sys.argv[1]); t=float(sys.argv[3])-float(sys.argv[2]); print(f'taps: {n} in {t:.2f} s = {n/t:.0f} taps/s (batches of 500, one curl each)')" "$N" "$START" "$END"
for q in "campaign=$ID" "category=message" ""; do
  T=$(curl -s -o "$DIR/stats.json" -w '%{time_total}' "$URL/v1/apps/chatter/stats?$q" -H "Authorization: Bearer $SECRET")
  T2=$(curl -s -o /dev/null -w '%{time_total}' "$URL/v1/apps/chatter/stats?$q" -H "Authorization: Bearer $SECRET")
  echo "stats ?$q: first ${T}s, again ${T2}s: $(python3 -c 'import json; s=json.load(open("'$DIR'/stats.json")); print(s["delivered"], s["responses"], s["response_rate"], s["time_to_tap_ms"])')"
done
# Parsing and checking alone: the last event invalid, so nothing is stored (422).
python3 - "$DIR" <<'PY'
import json, sys
d = sys.argv[1]
b = json.load(open(d + "/taps-000000.json"))
b["taps"][-1]["response"] = "swipe"
open(d + "/invalid.json", "w").write(json.dumps(b))
PY
for i in 1 2 3; do curl -s -o /dev/null -w "invalid batch: %{http_code} %{time_total}\n" -H "Expect:" "$URL/v1/apps/chatter/taps" -H "Authorization: Bearer $PUB" --data-binary @"$DIR/invalid.json"; done
for i in 1 2 3; do curl -s -o /dev/null -w "duplicate batch: %{http_code} %{time_total}\n" -H "Expect:" "$URL/v1/apps/chatter/taps" -H "Authorization: Bearer $PUB" --data-binary @"$DIR/taps-000000.json"; done
