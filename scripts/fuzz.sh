#!/usr/bin/env bash
# Builds each libFuzzer target (with AddressSanitizer) from the Pushbutton module's sources, plus the
# files a target names on a "// fuzz-sources:" first line (from other modules that need no C library),
# and runs it for a bounded time on a corpus seeded from Examples/ and Fuzz/seeds/<target>/. Prints the
# runs executed; fails on any crash.
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
  [ -d "Fuzz/seeds/$name" ] && cp Fuzz/seeds/"$name"/* "$corpus"/
  extra=$(sed -n '1s|^// fuzz-sources:||p' "$target")
  if [ -n "$extra" ]; then
    # Those files are compiled into this one module, so the internal PushbuttonSupport target is compiled in
    # too and their `import PushbuttonSupport` lines are dropped (from copies under .fuzz/).
    copies=.fuzz/sources-$name
    rm -rf "$copies" && mkdir -p "$copies"
    for file in $extra; do sed '/^import PushbuttonSupport$/d' "$file" >"$copies/$(basename "$file")"; done
    extra="$(find "$copies" -name '*.swift' | sort) $(find Sources/PushbuttonSupport -name '*.swift' | sort)"
  fi
  echo "fuzz: building $name"
  # The compiler's output (the extra files' `import Pushbutton` names the module being built, a warning;
  # the linker's notes about sanitizer symbols) is shown only when the build fails.
  if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -package-name Pushbutton -module-name Pushbutton \
    $sources $extra "$target" -o "$binary" 2>".fuzz/$name.build.log"; then
    cat ".fuzz/$name.build.log"
    echo "fuzz: $name does not build"
    exit 1
  fi
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
