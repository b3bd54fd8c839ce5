#!/usr/bin/env bash
# The demo of what works today: define (manifest + built-ins), check (lint), convert (legacy),
# generate (codegen), build and check interactive payloads, simulate taps on a device, and deliver
# background taps through the durable outbox. Every step runs the real `pushbutton` binary and checks its exit status;
# the demo exits 0 only when every step did what it should.
set -uo pipefail
bin=${1:?usage: demo.sh PUSHBUTTON_BINARY OUTPUT_DIR}
out=${2:?usage: demo.sh PUSHBUTTON_BINARY OUTPUT_DIR}
failures=0

step() {
  local expected=$1 title=$2
  shift 2
  printf '\n\033[1m▶ %s\033[0m\n$ pushbutton %s\n' "$title" "$*"
  local started=$(date +%s%N)
  "$bin" "$@"
  local status=$?
  local elapsed=$(( ($(date +%s%N) - started) / 1000000 ))
  if [ "$status" -eq "$expected" ]; then
    printf '  ✓ exit %d as expected (%d ms)\n' "$status" "$elapsed"
  else
    printf '  ✗ exit %d, expected %d\n' "$status" "$expected"
    failures=$((failures + 1))
  fi
}

rm -rf "$out" && mkdir -p "$out"
manifest=Examples/manifest.json
step 0 "The built-in categories (39, titles in six languages), shown in French" builtins --locale fr
step 0 "Lint the example app's manifest: clean, with a note on banner buttons" lint Examples/manifest.json
step 1 "Lint a manifest full of mistakes: each error says where, what and how to fix it" lint Examples/broken-manifest.json
step 0 "Convert an iOS 8 (legacy) manifest: warnings say what the modern API cannot keep" lint Examples/legacy-manifest.json
step 0 "Generate the app's registration code and string tables from the manifest" codegen Examples/manifest.json --output "$out/generated"
step 0 "Build a payload whose Like button calls the backend, validated against the manifest" \
  payload --category message --title Anna --body "Lunch tomorrow?" \
  --button 'like=pushbutton.callback:{"url":"https://api.example.com/messages/42/like"}' \
  --body-action 'pushbutton.deeplink:{"url":"chatter://conversation/anna"}' --arg id=42 --manifest Examples/manifest.json
step 0 "Check the example payloads against the manifest (per-button actions, action_args, dynamic buttons)" \
  lint -q Examples/manifest.json Examples/payloads/message.json Examples/payloads/friend-request.json Examples/payloads/dynamic.json
step 1 "A payload with a misspelt category: the device would show no buttons, so it is refused" \
  lint -q Examples/manifest.json Examples/payloads/broken.json
step 1 "A URL action on a background button would silently do nothing on the phone: refused" \
  payload --category message --body "x" --button 'like=pushbutton.open_url:{"url":"https://example.com"}' --manifest Examples/manifest.json
step 0 "Simulate a device: a background Like button calls the backend; the completion handler runs once" \
  simulate Examples/payloads/message.json --manifest "$manifest" --tap like
step 0 "A typed reply, on a French phone" \
  simulate Examples/payloads/message.json --manifest "$manifest" --tap reply --text "À midi !" --locale fr
step 0 "A tap on the body opens the deep link" simulate Examples/payloads/message.json --manifest "$manifest" --tap body
step 0 "Buttons defined by the payload itself are registered on the fly" \
  simulate Examples/payloads/dynamic.json --manifest "$manifest" --tap going
step 1 "A misspelt category: the phone shows no buttons at all, so the tap cannot happen" \
  simulate Examples/payloads/broken.json --manifest "$manifest" --tap track
# The outbox: background callbacks are committed durably on the device, then delivered to a backend
# (a local one that fails 30% of requests) and summarised.
python3 scripts/tap-receiver.py --log "$out/received.ndjson" --fail-rate 0.3 --seed 3 --max-seconds 120 >"$out/port" &
receiver=$!
trap 'kill -9 $receiver 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$out/port" ] && break; sleep 0.1; done
step 0 "A background Like, committed to the durable outbox before the completion handler runs" \
  simulate Examples/payloads/message.json --manifest "$manifest" --tap like --outbox "$out/taps.sqlite"
step 0 "A reply, committed the same way" \
  simulate Examples/payloads/message.json --manifest "$manifest" --tap reply --text "On my way" --outbox "$out/taps.sqlite"
step 0 "A body tap (nothing to deliver, but it is logged)" \
  simulate Examples/payloads/message.json --manifest "$manifest" --tap body --outbox "$out/taps.sqlite"
step 0 "The outbox before delivery" outbox status "$out/taps.sqlite"
step 0 "Deliver to the flaky local backend, retrying with backoff until nothing is waiting" \
  outbox drain "$out/taps.sqlite" --endpoint "http://127.0.0.1:$(head -1 "$out/port")" --until-empty --base-backoff 0.05
step 0 "The outbox after delivery" outbox status "$out/taps.sqlite"
step 0 "Tap statistics" stats "$out/taps.sqlite"
printf '\n--- %s/generated/NotificationCategories.swift (first lines) ---\n' "$out"
sed -n '1,20p' "$out/generated/NotificationCategories.swift"

echo
if [ "$failures" -eq 0 ]; then
  echo "demo: every step did what it should."
else
  echo "demo: $failures step(s) failed." >&2
  exit 1
fi
