#!/usr/bin/env python3
"""Benchmarks/gateway-latency.sh's table: joins a load file (`token planned_us answered_us status` lines from
open-loop-post.py or LatencyBenchmark) with the mock's --record file by token, and prints one row: answer and
mock-arrival latency p50 / p99 / p99.9 / max in ms, and how many of the planned requests never arrived; when some
were not answered 2xx or never arrived, a line under it says which: each status (0: no answer, with what failed in
the load generator) and whether those reached the mock, and how many answered 2xx never did (acknowledged, lost).

  latency-table.py LABEL LOAD_FILE RECORD_FILE [FLOOR_LOAD_FILE]

With FLOOR_LOAD_FILE (the same rate through APNsClient.send in-process) it adds the added latency: gateway
minus floor, at p50 and p99 of the arrival times."""
import json
import sys


def percentile(values, fraction):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(fraction * len(values)))]


def arrivals(record_file):
    seen = {}
    with open(record_file) as file:
        for line in file:
            if line.strip():
                entry = json.loads(line)
                seen.setdefault(entry["token"], entry["received_at_us"])  # the first acceptance
    return seen


def measure(load_file, seen, failures=None):
    answer, arrival, missing, errors = [], [], 0, 0
    with open(load_file) as file:
        for line in file:
            if not line.strip():
                continue
            token, planned, answered, status, *failure = line.split()
            planned, answered = int(planned), int(answered)
            ok = status in ("200", "202")
            if not ok:
                errors += 1
            answer.append((answered - planned) / 1000)
            if token in seen:
                arrival.append((seen[token] - planned) / 1000)
            else:
                missing += 1
            if failures is not None and (not ok or token not in seen):
                key = ("2xx" if ok else " ".join([status] + failure), token in seen)
                failures[key] = failures.get(key, 0) + 1
    return answer, arrival, missing, errors


def row(values):
    return [percentile(values, 0.5), percentile(values, 0.99), percentile(values, 0.999), max(values, default=float("nan"))]


label, load_file, record_file = sys.argv[1], sys.argv[2], sys.argv[3]
seen = arrivals(record_file)
failures = {}
answer, arrival, missing, errors = measure(load_file, seen, failures)
cells = " ".join("%7.1f" % v for v in row(answer)) + "  |" + " ".join("%7.1f" % v for v in row(arrival))
extra = ""
if len(sys.argv) > 4:
    _, floor, _, _ = measure(sys.argv[4], seen)
    extra = "  added p50 %+.1f, p99 %+.1f" % (
        percentile(arrival, 0.5) - percentile(floor, 0.5), percentile(arrival, 0.99) - percentile(floor, 0.99))
note = ""
if missing or errors:
    note = f"  ({missing} not at the mock, {errors} not 2xx)"
print(f"   {label:<34} {cells}{extra}{note}")
if failures:
    parts = []
    for (status, arrived), count in sorted(failures.items()):
        if status == "2xx":
            parts.append(f"{count} answered 2xx and never at the mock (acknowledged, lost)")
        else:
            parts.append(f"{count} answered {status}, {'at' if arrived else 'not at'} the mock")
    print("     not 2xx or not at the mock: " + "; ".join(parts) + "  (status 0: no answer; what failed in the load generator)")
