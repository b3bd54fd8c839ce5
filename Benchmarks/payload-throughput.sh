#!/usr/bin/env bash
# Payload benchmark: Pushbutton's build+write+validate against Foundation's JSONEncoder on the same
# 1,000,000 personalized interactive payloads, in one run. Each mode runs in its own process, so each
# peak memory figure is that mode's own. JSONEncoder is measured twice: with sorted keys and `/` unescaped,
# which writes byte for byte what Pushbutton writes (the ratio that counts), and with its default output
# (as APNSwift uses it). PAYLOAD_ROUNDS rounds (default 3) alternate the modes; the table gives each mode's
# median rate, and the ratios are per round (wall time and CPU time, which waits for a busy machine's cores
# do not count), median over the rounds. The load average is printed with the table.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${PAYLOAD_COUNT:-1000000}
rounds=${PAYLOAD_ROUNDS:-3}
swift build -c release --product PayloadBenchmark >/dev/null
bin=$(swift build -c release --show-bin-path)/PayloadBenchmark

field() { sed -E "s/.*$1=([^ ]+).*/\1/" <<<"$2"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

"$bin" verify 10000 >/dev/null && echo "check: 10,000 payloads: Pushbutton, its template and JSONEncoder (sorted keys, / unescaped) write the same bytes; JSONEncoder's default output parses to the same values"
modes="jsonencoder ours jsonencoder-default template"
declare -A lines
for round in $(seq "$rounds"); do
  for mode in $modes; do lines[$mode]+="$("$bin" "$mode" "$count")"$'\n'; done
done
ours_small=$("$bin" ours $((count / 10)))
load=$(uptime | sed 's/.*load average: //')

rate() { awk -v n="$(field count "$1")" -v s="$(field seconds "$1")" 'BEGIN { printf "%.0f\n", n / s }'; }
# Per round: a mode's figure divided by JSONEncoder's (same bytes) of the same round.
ratios() {
  paste -d'|' <(grep . <<<"${lines[$1]}") <(grep . <<<"${lines[jsonencoder]}") | while IFS='|' read -r ours theirs; do
    awk -v a="$(field "$2" "$ours")" -v b="$(field "$2" "$theirs")" 'BEGIN { printf "%.2f\n", b / a }'
  done | median
}
printf '\n%-58s %12s %10s %10s %11s %9s\n' "payload benchmark ($count payloads, $rounds rounds, median)" "payloads/s" "seconds" "CPU s" "avg bytes" "peak MiB"
for mode in jsonencoder jsonencoder-default ours template; do
  case "$mode" in
    ours) name="Pushbutton Payload: build + write + validate" ;;
    template) name="Pushbutton PayloadTemplate: render + check" ;;
    jsonencoder) name="Foundation JSONEncoder, same bytes: build + encode" ;;
    *) name="Foundation JSONEncoder, default output: build + encode" ;;
  esac
  text=$(grep . <<<"${lines[$mode]}")
  rates=$(while read -r line; do rate "$line"; done <<<"$text" | median)
  seconds=$(while read -r line; do field seconds "$line"; done <<<"$text" | median)
  cpu=$(while read -r line; do field cpu "$line"; done <<<"$text" | median)
  first=$(head -1 <<<"$text")
  printf '%-58s %12s %10.3f %10.3f %11.1f %9.1f\n' "$name" "$rates" "$seconds" "$cpu" \
    "$(awk -v b="$(field bytes "$first")" -v n="$(field count "$first")" 'BEGIN { print b / n }')" \
    "$(awk -v k="$(field peak_kib "$first")" 'BEGIN { print k / 1024 }')"
done
printf '\nratios to JSONEncoder writing the same bytes (target: at least 8x), median of %d rounds, by wall / CPU time:\n' "$rounds"
printf '  typed Payload %sx / %sx; PayloadTemplate %sx / %sx\n' "$(ratios ours seconds)" "$(ratios ours cpu)" \
  "$(ratios template seconds)" "$(ratios template cpu)"
printf '  JSONEncoder default output against the same-bytes setting: %sx / %sx (above 1: the default is faster)\n' \
  "$(ratios jsonencoder-default seconds)" "$(ratios jsonencoder-default cpu)"
ours_last=$(grep . <<<"${lines[ours]}" | tail -1)
awk -v small="$(field peak_kib "$ours_small")" -v large="$(field peak_kib "$ours_last")" -v n="$count" \
  'BEGIN { printf "memory: peak %.1f MiB for %d payloads, %.1f MiB for %d (flat: it does not grow with the count)\n", large / 1024, n, small / 1024, n / 10 }'
echo "load average at the end (1, 5, 15 min): $load"
