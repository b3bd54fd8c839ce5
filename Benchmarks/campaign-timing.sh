#!/usr/bin/env bash
# Campaign timing (issue 35), through `pushbutton serve` (SQLite) and `pushbutton mock-apns --record`, each
# figure beside its reference (the schedule a perfect sender would keep) as a ratio:
#  1. throttle accuracy: a TIMING_COUNT-recipient campaign (default 6,000) at TIMING_RATE a minute (default
#     3,000): first to last APNs arrival against (count - 1) / rate minutes (2 min: ±5% is the target), and the
#     largest number of arrivals in any 1-second window against the rate's share of a second (50);
#  2. scheduled-send lateness: TIMING_SCHEDULED notifications (default 20), each with a `send_at` a second
#     apart, posted at once; `send_at` to its APNs arrival, p50 / p99 / max (target: at most 1 s).
# TIMING_BIN=PATH uses a pushbutton built before (default: a release build of this checkout). Prints `uptime`.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${TIMING_COUNT:-6000}
rate=${TIMING_RATE:-3000}
scheduled=${TIMING_SCHEDULED:-20}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 0.3
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
if [ -n "${TIMING_BIN:-}" ]; then
  bin=$TIMING_BIN
else
  swift build -c release --product pushbutton >/dev/null
  bin=$(swift build -c release --show-bin-path)/pushbutton
fi
uptime

"$bin" mock-apns --h2c --port 0 --quiet --record "$work/arrivals.ndjson" >"$work/mock.out" 2>"$work/mock.err" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/mock.out" "$1"; }
mock_port=$(field port)
key=$(field auth_key)
cp Examples/manifest.json "$work/manifest.json"
secret=pb_sk_benchmark_secret_key
digest=$("$bin" serve --hash-key "$secret")
cat >"$work/gateway.json" <<JSON
{
  "listen": {"host": "127.0.0.1", "port": 0},
  "store": "sqlite:$work/gateway.db",
  "workers": {"count": 2, "batchSize": 500, "pollMilliseconds": 1000},
  "limits": {"maxRecipients": 10000},
  "apps": [{"id": "chat", "topic": "com.example.chatter", "manifest": "manifest.json",
    "environment": {"host": "127.0.0.1", "port": $mock_port, "h2c": true},
    "auth": {"key": "$key", "keyId": "MOCKKEY001", "teamId": "MOCKTEAM01"}, "secretKeys": ["$digest"]}]
}
JSON
"$bin" serve --config "$work/gateway.json" >"$work/serve.out" 2>"$work/serve.err" &
pids+=($!)
for _ in $(seq 400); do grep -qs 'listening on' "$work/serve.out" && break; sleep 0.05; done
url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/serve.out" | head -1)
[ -n "$url" ] || { cat "$work/serve.err"; exit 1; }

# 1. A throttled campaign; tokens 0xaa… so its arrivals are told from the scheduled ones (0xbb…).
python3 - "$count" "$rate" "$work/campaign.ndjson" <<'PY'
import sys
count, rate, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open(path, "w") as out:
    out.write('{"category": "message", "title": "Sale", "body": "Today only", "throttle_per_minute": %d}\n' % rate)
    for i in range(count):
        out.write("%064x\n" % (0xAA << 248 | i))
PY
curl -sf "$url/v1/apps/chat/campaigns" -H "Authorization: Bearer $secret" --data-binary @"$work/campaign.ndjson" \
  >"$work/campaign.json"
expected=$(echo "($count - 1) * 60 / $rate" | bc -l)
deadline=$(echo "$expected * 1.5 + 30" | bc | cut -d. -f1)
for _ in $(seq "$deadline"); do
  [ "$(grep -c '"aa0000' "$work/arrivals.ndjson" 2>/dev/null || echo 0)" -ge "$count" ] && break
  sleep 1
done

# 2. Scheduled notifications, one a second from 3 s ahead, posted at once.
python3 - "$scheduled" "$work" "$url" "$secret" <<'PY'
import json, sys, time, urllib.request
n, work, url, secret = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
start = int(time.time()) + 3
plan = {}
for i in range(n):
    at = start + i
    token = "%064x" % (0xBB << 248 | i)
    body = {"to": {"tokens": [token]}, "category": "message", "title": "At", "body": "Now",
            "send_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))}
    request = urllib.request.Request(url + "/v1/apps/chat/notifications", json.dumps(body).encode(),
                                     {"Authorization": "Bearer " + secret, "Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
    plan[token] = at
json.dump(plan, open(work + "/plan.json", "w"))
PY
sleep $((scheduled + 6))

python3 - "$work" "$count" "$rate" <<'PY'
import json, sys
work, count, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
campaign, scheduled = [], {}
plan = json.load(open(work + "/plan.json"))
for line in open(work + "/arrivals.ndjson"):
    record = json.loads(line)
    token = record.get("token") or record.get("device_token") or ""
    at = record["received_at_us"] / 1e6
    if token.startswith("aa"):
        campaign.append(at)
    elif token in plan:
        scheduled.setdefault(token, at)
campaign.sort()
expected = (count - 1) * 60 / rate
print("\n1. Throttle accuracy: %d recipients at %d a minute (reference: an even schedule)" % (count, rate))
if len(campaign) < count:
    print("   only %d of %d arrived" % (len(campaign), count))
if campaign:
    took = campaign[-1] - campaign[0]
    burst, j = 0, 0
    for i in range(len(campaign)):
        while campaign[i] - campaign[j] >= 1.0:
            j += 1
        burst = max(burst, i - j + 1)
    share = rate / 60
    # Whole seconds from the first arrival, and the largest gap: the lease takes a second's worth at once
    # (SendRate's burst), so a sliding window may hold two of those clumps.
    buckets = {}
    for at in campaign:
        buckets[int(at - campaign[0])] = buckets.get(int(at - campaign[0]), 0) + 1
    gap = max(b - a for a, b in zip(campaign, campaign[1:])) if len(campaign) > 1 else 0
    print("   %-44s %10s %10s %8s" % ("", "ours", "reference", "ratio"))
    print("   %-44s %10.1f %10.1f %8.3f" % ("first to last arrival, s", took, expected, took / expected))
    print("   %-44s %10d %10.0f %8.2f" % ("largest 1-second burst (sliding window)", burst, share, burst / share))
    print("   %-44s %10d %10.0f %8.2f" % ("largest whole second from the first", max(buckets.values()), share,
                                          max(buckets.values()) / share))
    print("   %-44s %10.3f %10.3f %8.2f" % ("longest gap between arrivals, s", gap, 60 / rate, gap * rate / 60))
late = sorted(scheduled[t] - plan[t] for t in scheduled)
print("\n2. Scheduled-send lateness: send_at to APNs arrival, %d notifications (reference: 1 s target)" % len(plan))
if late:
    def pct(p):
        return late[min(len(late) - 1, int(round(p / 100 * (len(late) - 1))))]
    print("   p50 %.3f s   p99 %.3f s   max %.3f s   (ratio p99 / 1 s: %.2f); %d of %d arrived" %
          (pct(50), pct(99), late[-1], pct(99), len(late), len(plan)))
PY
uptime
