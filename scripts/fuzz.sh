#!/usr/bin/env bash
# Builds each libFuzzer target (with AddressSanitizer) from the Pushbutton module's sources and runs it
# for a bounded time on a corpus seeded from Examples/. Prints the runs executed; fails on any crash.
set -euo pipefail
seconds=${FUZZ_SECONDS:-60}
cd "$(dirname "$0")/.."
mkdir -p .fuzz
sources=$(find Sources/Pushbutton -name '*.swift' | sort)
for target in Fuzz/*Fuzzer.swift; do
  name=$(basename "$target" .swift)
  binary=.fuzz/$name
  corpus=.fuzz/corpus-$name
  mkdir -p "$corpus"
  cp Examples/*.json Examples/payloads/*.json "$corpus"/ 2>/dev/null || true
  echo "fuzz: building $name"
  swiftc -sanitize=fuzzer,address -parse-as-library -O -package-name Pushbutton -module-name Pushbutton \
    $sources "$target" -o "$binary"
  echo "fuzz: running $name for ${seconds}s"
  log=.fuzz/$name.log
  if ! "$binary" -max_total_time="$seconds" -max_len=8192 -timeout=10 -artifact_prefix=.fuzz/ "$corpus" >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz: $name FAILED (crash input saved under .fuzz/)"
    exit 1
  fi
  runs=$(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1)
  echo "fuzz: $name: $runs, no crash"
done
