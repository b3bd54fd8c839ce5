#!/usr/bin/env bash
# Two builds of `pushbutton send` side by side: the same mock APNs (build B's), the same tokens and payload,
# one TLS connection, the builds alternating round by round (A B, B A, …) so both see the same machine. Prints
# each run's CPU seconds (user + system) per 100,000 notifications and wall time, then each build's median,
# min and max and B's median over A's. For "did this change make the sender dearer", where a whole
# apns-throughput.sh run per build sees a different machine (this VM drifts ±30% within minutes).
#   SENDER_A=old/pushbutton SENDER_B=new/pushbutton [SENDER_ROUNDS=10] [SENDER_DEPTH=1000] [SENDER_COUNT=200000] \
#     Benchmarks/sender-ab.sh
set -euo pipefail
a=${SENDER_A:?SENDER_A: the first pushbutton binary}
b=${SENDER_B:?SENDER_B: the second pushbutton binary}
rounds=${SENDER_ROUNDS:-10}
depth=${SENDER_DEPTH:-1000}
count=${SENDER_COUNT:-200000}
scratch=/dev/shm
[ -d "$scratch" ] && [ -w "$scratch" ] || scratch=${TMPDIR:-/tmp}
work=$(mktemp -d "$scratch/pushbutton-sender-ab.XXXXXX")
mock=
cleanup() {
  [ -n "$mock" ] && kill -9 "$mock" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

"$b" mock-apns --port 0 --self-signed "$work/tls" --quiet >"$work/mock.out" 2>"$work/mock.err" &
mock=$!
for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
port=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['port'])" "$work/mock.out")
python3 -c "
import sys
with open(sys.argv[1], 'w') as tokens:
    tokens.writelines('%064x\n' % (0xab << 248 | i) for i in range(int(sys.argv[2])))" "$work/tokens.txt" "$count"
"$b" payload --category message --title Anna --body "Lunch tomorrow at noon?" \
  --button 'like=pushbutton.callback:{"url":"https://api.example.com/messages/42/like"}' >"$work/payload.json"

echo "sender A: $a"
echo "sender B: $b"
echo "$count notifications a run to the mock, $depth streams on one connection, $rounds rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
# run NAME BINARY: one send, one result line ("A 0.812 1.62": CPU s per 100,000, wall s) in $work/results.
run() {
  /usr/bin/time -o "$work/time" -f "%U %S %e" "$2" send --key "$work/tls/AuthKey_MOCKKEY001.p8" \
    --key-id MOCKKEY001 --team-id MOCKTEAM01 --topic com.example.chatter --host 127.0.0.1 --port "$port" \
    --ca "$work/tls/ca.pem" --tokens "$work/tokens.txt" --payload "$work/payload.json" --connections 1 \
    --in-flight "$depth" >/dev/null 2>"$work/err"
  delivered=$(grep -oE 'delivered [0-9]+' "$work/err" | head -1 | grep -oE '[0-9]+' || echo 0)
  if [ "$delivered" != "$count" ]; then
    echo "sender $1 delivered $delivered of $count: $(tail -1 "$work/err")" >&2
    exit 1
  fi
  read -r user system elapsed <"$work/time"
  python3 -c "import sys; u, s, e, n = map(float, sys.argv[2:]); print('%s %.3f %.2f' % (sys.argv[1], (u + s) * 100000 / n, e))" \
    "$1" "$user" "$system" "$elapsed" "$count" | tee -a "$work/results"
}
for round in $(seq "$rounds"); do
  if ((round % 2)); then run A "$a"; run B "$b"; else run B "$b"; run A "$a"; fi
done
python3 - "$work/results" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, cpu, wall = line.split()
    runs.setdefault(name, []).append((float(cpu), float(wall)))
medians = {}
for name in sorted(runs):
    cpu = [r[0] for r in runs[name]]
    wall = [r[1] for r in runs[name]]
    medians[name] = statistics.median(cpu)
    print("%s: CPU s per 100,000 median %.3f (min %.3f, max %.3f); wall median %.2f s"
          % (name, medians[name], min(cpu), max(cpu), statistics.median(wall)))
print("B / A, median CPU per notification: %.2f" % (medians["B"] / medians["A"]))
PY
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
