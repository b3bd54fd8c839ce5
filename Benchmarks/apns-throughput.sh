#!/usr/bin/env bash
# APNs sender benchmark, in one run:
#  1. nghttpd (TLS, --echo-upload) on 127.0.0.1: h2load (a C client doing only HTTP/2: the limit) against
#     `pushbutton send` (its nghttp2 transport), on 1 and 4 connections;
#  2. the mock APNs (`pushbutton mock-apns`: TLS, provider tokens verified, apns-id echoed): h2load,
#     `pushbutton send` and python3-aioapns (the peer: it needs an apns-id in every answer, which nghttpd
#     does not send), on 1 connection with 100 and with 1000 notifications in flight;
#  3. pushbutton's peak memory while sending APNS_MEMORY_COUNT notifications to the mock.
# Every sender sends the same interactive payload to distinct tokens with token-auth headers.
# Every client keeps the same number of streams open per connection (APNS_STREAMS): nghttpd's
# --echo-upload collapses with many concurrent uploads (h2load on this machine: 19,000 requests/s with 10
# streams, 6,700 with 100, the server at full CPU), so the nghttpd rows use 20. Each
# rate is the best of APNS_ROUNDS runs, and the rounds alternate between clients.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${APNS_COUNT:-100000}
peer_count=${APNS_PEER_COUNT:-10000}
memory_count=${APNS_MEMORY_COUNT:-1000000}
rounds=${APNS_ROUNDS:-3}
nghttpd_streams=${APNS_NGHTTPD_STREAMS:-20}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

swift build -c release --product pushbutton >/dev/null
bin=$(swift build -c release --show-bin-path)/pushbutton

# The mock writes a CA, a server certificate and a provider key; nghttpd serves the same certificate.
"$bin" mock-apns --port 0 --self-signed "$work/tls" --quiet >"$work/mock.out" 2>"$work/mock.err" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
mock_port=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['port'])" "$work/mock.out")
key="$work/tls/AuthKey_MOCKKEY001.p8"
mkdir -p "$work/htdocs"
# A fresh nghttpd for every measurement: a long-lived one slows down as it goes (after a few hundred
# thousand echoed uploads it spends its CPU on its own bookkeeping), which would favour whoever runs first.
nghttpd_pid=
fresh_nghttpd() {
  [ -n "$nghttpd_pid" ] && kill -9 "$nghttpd_pid" 2>/dev/null && wait "$nghttpd_pid" 2>/dev/null || true
  nghttpd --echo-upload -n 1 --htdocs="$work/htdocs" 0 "$work/tls/server-key.pem" "$work/tls/server.pem" \
    >"$work/nghttpd.log" 2>&1 &
  nghttpd_pid=$!
  pids+=($nghttpd_pid)
  nghttpd_port=
  for _ in $(seq 50); do
    nghttpd_port=$(ss -ltnpH 2>/dev/null | grep "pid=$nghttpd_pid," | grep -oE ':[0-9]+ ' | head -1 | tr -d ': ' || true)
    [ -n "$nghttpd_port" ] && break
    sleep 0.1
  done
}

"$bin" payload --category message --title Anna --body "Lunch tomorrow at noon?" \
  --button 'like=pushbutton.callback:{"url":"https://api.example.com/messages/42/like"}' >"$work/payload.json"
python3 -c "import sys; [print('%064x' % (0xab << 248 | i)) for i in range(int(sys.argv[1]))]" "$count" >"$work/tokens.txt"
python3 -c "import sys; [print('%064x' % (0xcd << 248 | i)) for i in range(int(sys.argv[1]))]" "$memory_count" >"$work/many.txt"
# A valid provider token for h2load (PyJWT signs it with the mock's key).
jwt=$(python3 -c "import jwt, sys, time; print(jwt.encode({'iss': 'MOCKTEAM01', 'iat': int(time.time())}, open(sys.argv[1]).read(), algorithm='ES256', headers={'kid': 'MOCKKEY001'}))" "$key")

h2load_rate() { # PORT CONNECTIONS COUNT STREAMS
  h2load -n "$3" -c "$2" -m "$4" -d "$work/payload.json" -H "authorization: bearer $jwt" \
    -H "apns-topic: com.example.chatter" -H "apns-push-type: alert" -H "apns-priority: 10" \
    "https://127.0.0.1:$1/3/device/$(printf 'ab%.0s' {1..32})" >"$work/h2load.out"
  grep -oE '[0-9.]+ req/s' "$work/h2load.out" | grep -oE '^[0-9.]+'
}
ours() { # PORT CONNECTIONS TOKENS TRANSPORT STREAMS (per connection)
  /usr/bin/time -f "peak_kib=%M cpu=%U %S" "$bin" send --key "$key" --key-id MOCKKEY001 --team-id MOCKTEAM01 \
    --topic com.example.chatter --host 127.0.0.1 --port "$1" --ca "$work/tls/ca.pem" --tokens "$3" \
    --payload "$work/payload.json" --connections "$2" --in-flight $(($5 * $2)) 2>"$work/send.err" >/dev/null || true
  rate=$(grep -oE '\(([0-9]+)/s\)' "$work/send.err" | grep -oE '[0-9]+')
  peak=$(grep -oE 'peak_kib=[0-9]+' "$work/send.err" | cut -d= -f2)
  delivered=$(grep -oE 'delivered [0-9]+' "$work/send.err" | head -1 | grep -oE '[0-9]+')
  cpu=$(grep -oE 'cpu=[0-9.]+ [0-9.]+' "$work/send.err" | cut -d= -f2 | awk '{ print $1 + $2 }')
  echo "$rate $peak $delivered $cpu"
}
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f%%", 100 * a / b }'; }

best() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 > b + 0) ? a : b }'; }

printf '\n1. nghttpd, TLS, %d notifications, %d-byte payload, %d streams per connection, best of %d\n' "$count" \
  "$(wc -c <"$work/payload.json")" "$nghttpd_streams" "$rounds"
printf '   %-54s %10s\n' "" "notifications/s"
for connections in 1 4; do
  limit=0 nghttp2=0
  for _ in $(seq "$rounds"); do
    fresh_nghttpd
    limit=$(best "$limit" "$(h2load_rate "$nghttpd_port" "$connections" "$count" "$nghttpd_streams")")
    fresh_nghttpd
    read -r rate peak_nghttp2 delivered cpu < <(ours "$nghttpd_port" "$connections" "$work/tokens.txt" nghttp2 "$nghttpd_streams")
    nghttp2=$(best "$nghttp2" "$rate")
  done
  printf '   %-54s %10.0f\n' "h2load, $connections connection(s) (the limit)" "$limit"
  printf '   %-54s %10s   %s of h2load, peak %s MiB\n' "pushbutton send (nghttp2), $connections connection(s)" \
    "$nghttp2" "$(percent "$nghttp2" "$limit")" "$(mib "$peak_nghttp2")"
done

head -n "$peer_count" "$work/tokens.txt" >"$work/peer-tokens.txt"
printf '\n2. mock APNs (tokens verified), TLS, 1 connection, best of %d                notifications/s\n' "$rounds"
for depth in 100 1000; do
  mock_limit=0 rate=0
  for _ in $(seq "$rounds"); do
    mock_limit=$(best "$mock_limit" "$(h2load_rate "$mock_port" 1 "$count" "$depth")")
    read -r this peak delivered cpu < <(ours "$mock_port" 1 "$work/tokens.txt" nghttp2 "$depth")
    rate=$(best "$rate" "$this")
  done
  peer=$(/usr/bin/time -f "cpu=%U %S" -o "$work/peer.time" /usr/bin/python3 scripts/aioapns-send.py --port "$mock_port" --ca "$work/tls/ca.pem" --key "$key" \
    --key-id MOCKKEY001 --team-id MOCKTEAM01 --topic com.example.chatter --count "$peer_count" --in-flight "$depth")
  peer_rate=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['rate'])" "$peer")
  peer_ok=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['ok'])" "$peer")
  printf '   %-54s %10.0f\n' "h2load, $depth streams" "$mock_limit"
  printf '   %-54s %10s   %s of h2load, %s delivered\n' "pushbutton send, $depth in flight" "$rate" \
    "$(percent "$rate" "$mock_limit")" "$delivered"
  printf '   %-54s %10.0f   %s of %s delivered\n' "python3-aioapns, $depth in flight (the peer)" "$peer_rate" \
    "$peer_ok" "$peer_count"
  peer_cpu=$(grep -oE 'cpu=[0-9.]+ [0-9.]+' "$work/peer.time" | cut -d= -f2 | awk '{ print $1 + $2 }')
  printf '   pushbutton send is %.1fx aioapns (the target is 20x); h2load, the C limit, is %.1fx\n' \
    "$(awk -v a="$rate" -v b="$peer_rate" 'BEGIN { print a / b }')" \
    "$(awk -v a="$mock_limit" -v b="$peer_rate" 'BEGIN { print a / b }')"
  printf '   CPU per notification: pushbutton send %.1f µs, aioapns %.1f µs (%.0fx)\n' \
    "$(awk -v c="$cpu" -v n="$count" 'BEGIN { print 1e6 * c / n }')" \
    "$(awk -v c="$peer_cpu" -v n="$peer_count" 'BEGIN { print 1e6 * c / n }')" \
    "$(awk -v c="$cpu" -v n="$count" -v p="$peer_cpu" -v m="$peer_count" 'BEGIN { print (p / m) / (c / n) }')"
done

read -r rate peak delivered cpu < <(ours "$mock_port" 4 "$work/many.txt" nghttp2 250)
printf '\n3. memory: pushbutton send peaked at %s MiB sending %d notifications to the mock on 4 connections (%s/s, %s delivered); the target is under 64 MiB\n' \
  "$(mib "$peak")" "$memory_count" "$rate" "$delivered"
