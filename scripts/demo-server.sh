#!/usr/bin/env bash
# make demo-server: the gateway on SQLite in front of the mock APNs — register a device, post a notification
# with buttons, read its outcome — with every request shown as the curl command it is. Files stay in DIR.
set -euo pipefail
BIN=${BIN:-.build/debug/pushbutton}
DIR=${1:-.build/demo-server}
rm -rf "$DIR"
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

cleanup() {
  [ -n "${GATEWAY_PID:-}" ] && kill "$GATEWAY_PID" 2>/dev/null && wait "$GATEWAY_PID" 2>/dev/null || true
  [ -n "${MOCK_PID:-}" ] && kill "$MOCK_PID" 2>/dev/null && wait "$MOCK_PID" 2>/dev/null || true
}
trap cleanup EXIT

# 1. A mock APNs (cleartext HTTP/2) that generates a provider key, and says where it listens.
"$BIN" mock-apns --h2c --port 0 --quiet >"$DIR/mock.out" 2>"$DIR/mock.err" &
MOCK_PID=$!
for _ in $(seq 100); do [ -s "$DIR/mock.out" ] && break; sleep 0.05; done
MOCK_LINE=$(head -1 "$DIR/mock.out")
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$MOCK_LINE" "$1"; }
MOCK_PORT=$(field port)
AUTH_KEY=$(field auth_key)
echo "mock APNs on 127.0.0.1:$MOCK_PORT"

# 2. Keys (only their digests go into the configuration), the manifest, the configuration.
SECRET=$("$BIN" serve --generate-key secret | sed -n 's/^key: *//p')
PUBLISHABLE=$("$BIN" serve --generate-key publishable | sed -n 's/^key: *//p')
cp Examples/manifest.json "$DIR/manifest.json"
cat >"$DIR/gateway.json" <<JSON
{
  "listen": {"host": "127.0.0.1", "port": 0},
  "store": "sqlite:gateway.db",
  "workers": {"count": 2, "pollMilliseconds": 50},
  "apps": [{
    "id": "chatter", "topic": "com.example.chatter", "manifest": "manifest.json",
    "environment": {"host": "127.0.0.1", "port": $MOCK_PORT, "h2c": true},
    "auth": {"key": "$AUTH_KEY", "keyId": "$(field key_id)", "teamId": "$(field team_id)"},
    "secretKeys": ["$("$BIN" serve --hash-key "$SECRET")"],
    "publishableKeys": ["$("$BIN" serve --hash-key "$PUBLISHABLE")"]
  }]
}
JSON

# 3. The gateway.
"$BIN" serve --config "$DIR/gateway.json" >"$DIR/gateway.out" 2>"$DIR/gateway.err" &
GATEWAY_PID=$!
for _ in $(seq 200); do [ -s "$DIR/gateway.out" ] && break; sleep 0.05; done
head -1 "$DIR/gateway.out"
URL=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$DIR/gateway.out" | head -1)
TOKEN=$(printf 'd3a1%.0s' $(seq 16))

show() { echo; echo "\$ $1"; }

show "curl -s -X PUT $URL/v1/apps/chatter/devices/$TOKEN -H 'Authorization: Bearer \$PUBLISHABLE' -d '{\"locale\": \"fr-FR\", \"app_version\": \"2.0\", \"user_id\": \"anna\"}'"
curl -s -X PUT "$URL/v1/apps/chatter/devices/$TOKEN" -H "Authorization: Bearer $PUBLISHABLE" \
  -d '{"locale": "fr-FR", "app_version": "2.0", "user_id": "anna"}'
echo

BODY='{"to": {"user": "anna"}, "category": "message", "title": "Ben", "body": "Lunch at noon?",
 "buttons": {"like": [{"action": "pushbutton.callback", "args": {"url": "https://api.example.com/messages/42/like"}}]},
 "action_args": {"message_id": 42}}'
show "curl -s $URL/v1/apps/chatter/notifications -H 'Authorization: Bearer \$SECRET' -H 'Idempotency-Key: demo-1' -d '$BODY'"
ANSWER=$(curl -s "$URL/v1/apps/chatter/notifications" -H "Authorization: Bearer $SECRET" -H "Idempotency-Key: demo-1" -d "$BODY")
echo "$ANSWER"
ID=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['id'])" "$ANSWER")

sleep 0.5
show "curl -s $URL/v1/notifications/$ID -H 'Authorization: Bearer \$SECRET'"
curl -s "$URL/v1/notifications/$ID" -H "Authorization: Bearer $SECRET"
echo

show "curl -s $URL/v1/apps/chatter/notifications -H 'Authorization: Bearer \$SECRET' -d '{\"to\": {\"user\": \"anna\"}, \"category\": \"mesage\", \"body\": \"typo\"}'"
curl -s "$URL/v1/apps/chatter/notifications" -H "Authorization: Bearer $SECRET" \
  -d '{"to": {"user": "anna"}, "category": "mesage", "body": "typo"}'
echo
echo
echo "files in $DIR (gateway.json, gateway.db); the keys of this run: SECRET=$SECRET PUBLISHABLE=$PUBLISHABLE"
