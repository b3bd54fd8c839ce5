#!/usr/bin/env bash
# APNs sender benchmark: nghttpd (TLS, --echo-upload) on 127.0.0.1 as the server; in the same run, h2load
# (a C client doing only HTTP/2: the limit) and `pushbutton send`, both sending the same interactive
# payload with token-auth headers, on 1 and 4 connections; then pushbutton's peak memory for a long send.
# Prints notifications/s and ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${APNS_COUNT:-100000}
memory_count=${APNS_MEMORY_COUNT:-1000000}
work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

swift build -c release --product pushbutton >/dev/null
bin=$(swift build -c release --show-bin-path)/pushbutton
# A private CA and a certificate for 127.0.0.1 (the test server writes them and stops at once).
python3 scripts/apns-test-server.py --log /dev/null --tls-dir "$work/tls" --max-seconds 0.2 >/dev/null
mkdir -p "$work/htdocs"
nghttpd --echo-upload -n 1 --htdocs="$work/htdocs" 0 "$work/tls/server.key" "$work/tls/server.pem" >"$work/nghttpd.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
  port=$(ss -ltnpH 2>/dev/null | grep "pid=$server_pid," | grep -oE ':[0-9]+ ' | head -1 | tr -d ': ' || true)
  [ -n "$port" ] && break
  sleep 0.1
done
"$bin" payload --category message --title Anna --body "Lunch tomorrow at noon?" \
  --button 'like=pushbutton.callback:{"url":"https://api.example.com/messages/42/like"}' >"$work/payload.json"
python3 -c "import sys; [print('%064x' % (0xab << 248 | i)) for i in range(int(sys.argv[1]))]" "$count" >"$work/tokens.txt"
python3 -c "import sys; [print('%064x' % (0xcd << 248 | i)) for i in range(int(sys.argv[1]))]" "$memory_count" >"$work/many.txt"
python3 -c "
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization
print(ec.generate_private_key(ec.SECP256R1()).private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode(), end='')" >"$work/key.p8"
token=$("$bin" payload --body x >/dev/null; echo "eyJhbGciOiJFUzI1NiIsImtpZCI6IktFWTEyMzQ1NjcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.$(head -c 64 /dev/urandom | base64 -w0 | tr '+/' '-_' | tr -d '=')")

h2load_rate() {
  h2load -n "$count" -c "$1" -m 100 -d "$work/payload.json" -H "authorization: bearer $token" \
    -H "apns-topic: com.example.chatter" -H "apns-push-type: alert" -H "apns-priority: 10" \
    "https://127.0.0.1:$port/3/device/$(printf 'ab%.0s' {1..32})" | grep -oE '[0-9.]+ req/s' | grep -oE '^[0-9.]+'
}
ours() {
  /usr/bin/time -f "peak_kib=%M" "$bin" send --key "$work/key.p8" --key-id KEY1234567 --team-id TEAM123456 \
    --topic com.example.chatter --host 127.0.0.1 --port "$port" --ca "$work/tls/ca.pem" --tokens "$2" \
    --payload "$work/payload.json" --connections "$1" --in-flight 1000 2>"$work/send.err" >/dev/null
  rate=$(grep -oE '\(([0-9]+)/s\)' "$work/send.err" | grep -oE '[0-9]+')
  peak=$(grep -oE 'peak_kib=[0-9]+' "$work/send.err" | cut -d= -f2)
  echo "$rate $peak"
}

printf '\n%-52s %14s\n' "APNs sender benchmark ($count notifications, TLS, 222-byte payload)" "notifications/s"
for connections in 1 4; do
  limit=$(h2load_rate "$connections")
  read -r rate peak < <(ours "$connections" "$work/tokens.txt")
  printf '%-52s %14.0f\n' "h2load, $connections connection(s) (the limit)" "$limit"
  printf '%-52s %14s   %.0f%% of h2load, peak %.1f MiB\n' "pushbutton send, $connections connection(s)" "$rate" \
    "$(awk -v a="$rate" -v b="$limit" 'BEGIN { print 100 * a / b }')" "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')"
done
read -r rate peak < <(ours 4 "$work/many.txt")
printf '\nmemory: pushbutton send peaked at %.1f MiB sending %d notifications (%s/s); the target is under 64 MiB\n' \
  "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')" "$memory_count" "$rate"
echo "not measured yet: python3-aioapns (the peer client) against the same server"
