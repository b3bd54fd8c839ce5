#!/usr/bin/env bash
# The demo of what works today: define (manifest + built-ins), check (lint), convert (legacy) and
# generate (codegen). Every step runs the real `pushbutton` binary and checks its exit status;
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
step 0 "The built-in categories (39, titles in six languages), shown in French" builtins --locale fr
step 0 "Lint the example app's manifest: clean, with a note on banner buttons" lint Examples/manifest.json
step 1 "Lint a manifest full of mistakes: each error says where, what and how to fix it" lint Examples/broken-manifest.json
step 0 "Convert an iOS 8 (legacy) manifest: warnings say what the modern API cannot keep" lint Examples/legacy-manifest.json
step 0 "Generate the app's registration code and string tables from the manifest" codegen Examples/manifest.json --output "$out/generated"
printf '\n--- %s/generated/NotificationCategories.swift (first lines) ---\n' "$out"
sed -n '1,20p' "$out/generated/NotificationCategories.swift"

echo
if [ "$failures" -eq 0 ]; then
  echo "demo: every step did what it should."
else
  echo "demo: $failures step(s) failed." >&2
  exit 1
fi
