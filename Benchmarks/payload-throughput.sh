#!/usr/bin/env bash
# Payload benchmark: Pushbutton's build+write+validate against Foundation's JSONEncoder on the same
# 1,000,000 personalized interactive payloads, in one run. Each mode runs in its own process, so each
# peak memory figure is that mode's own. Prints a table with rates and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${PAYLOAD_COUNT:-1000000}
swift build -c release --product PayloadBenchmark >/dev/null
bin=$(swift build -c release --show-bin-path)/PayloadBenchmark

field() { sed -E "s/.*$1=([^ ]+).*/\1/" <<<"$2"; }

"$bin" verify 10000 >/dev/null && echo "check: 10,000 payloads from all three writers parse to equal JSON values"
ours=$("$bin" ours "$count")
template=$("$bin" template "$count")
ours_small=$("$bin" ours $((count / 10)))
foundation=$("$bin" jsonencoder "$count")

rate() { awk -v n="$(field count "$1")" -v s="$(field seconds "$1")" 'BEGIN { printf "%.0f", n / s }'; }
ours_rate=$(rate "$ours")
template_rate=$(rate "$template")
foundation_rate=$(rate "$foundation")
printf '\n%-46s %12s %10s %14s %12s\n' "payload benchmark ($count payloads)" "payloads/s" "seconds" "avg bytes" "peak MiB"
for line in "$foundation" "$ours" "$template"; do
  case "$(field mode "$line")" in
    ours) name="Pushbutton Payload: build + write + validate" ;;
    template) name="Pushbutton PayloadTemplate: render + check" ;;
    *) name="Foundation JSONEncoder: build + encode" ;;
  esac
  printf '%-46s %12s %10.3f %14.1f %12.1f\n' "$name" "$(rate "$line")" "$(field seconds "$line")" \
    "$(awk -v b="$(field bytes "$line")" -v n="$(field count "$line")" 'BEGIN { print b / n }')" \
    "$(awk -v k="$(field peak_kib "$line")" 'BEGIN { print k / 1024 }')"
done
awk -v a="$ours_rate" -v t="$template_rate" -v b="$foundation_rate" \
  'BEGIN { printf "\nratios to JSONEncoder (target: at least 8x): typed Payload %.1fx, PayloadTemplate %.1fx\n", a / b, t / b }'
awk -v small="$(field peak_kib "$ours_small")" -v large="$(field peak_kib "$ours")" -v n="$count" \
  'BEGIN { printf "memory: peak %.1f MiB for %d payloads, %.1f MiB for %d (flat: it does not grow with the count)\n", large / 1024, n, small / 1024, n / 10 }'
