#!/usr/bin/env python3
"""Prints the APNs benchmark's table from the measurements Benchmarks/apns-throughput.sh collected.

Input: one JSON object per line: server, depth, client, count, ok, rate, cpu (seconds), rss_kib, mallocs,
switches, server_cpu (the server's CPU seconds during the run), server_busy (those per second of the run). Output: per server and stream depth, each client's rate (min / median / max over the rounds) and
its medians per notification, then the ratios the targets are stated in ("h2load" sends the same token
paths as pushbutton send; "h2load (one path)" repeats one path, for comparison).
"""
import json
import statistics
import sys
from collections import defaultdict

path, payload_bytes, count, peer_count, rounds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
runs = defaultdict(list)
for line in open(path):
    run = json.loads(line)
    runs[(run["server"], run["depth"], run["client"])].append(run)


def median(key, group):
    return statistics.median(run[key] for run in group)


def per_notification(key, group):
    return statistics.median(run[key] / run["count"] for run in group)


print(f"\n{payload_bytes}-byte interactive payload, distinct tokens, token auth, TLS, 1 connection; "
      f"{count} notifications per run ({peer_count} for aioapns), {rounds} alternating rounds")
header = f"   {'client':<26} {'notifications/s (min / median / max)':>38} {'CPU s/100k':>10} " \
         f"{'mallocs/n':>9} {'switches/n':>10} {'peak MiB':>8} {'ok':>8} {'server CPU s/100k, busy':>24}"
servers = {"nghttpd": "1. nghttpd, static docroot (the HTTP/2 limit for a client)",
           "mock": "2. the mock APNs (tokens verified, apns-id echoed, 1 stream then 1000)"}
for server, title in servers.items():
    depths = sorted({depth for (s, depth, _) in runs if s == server})
    if not depths:
        continue
    print(f"\n{title}")
    for depth in depths:
        print(f"\n   {depth} streams\n{header}")
        clients = [client for (s, d, client) in runs if s == server and d == depth]
        for client in clients:
            group = runs[(server, depth, client)]
            rates = sorted(run["rate"] for run in group)
            print(f"   {client:<26} {rates[0]:>12,.0f} / {statistics.median(rates):>9,.0f} / {rates[-1]:>9,.0f} "
                  f"{100000 * per_notification('cpu', group):>10.2f} {per_notification('mallocs', group):>9.1f} "
                  f"{per_notification('switches', group):>10.2f} {median('rss_kib', group) / 1024:>8.1f} "
                  f"{min(run['ok'] for run in group):>8} "
                  f"{100000 * per_notification('server_cpu', group):>15.2f}, {median('server_busy', group):>5.0%}")
        reference = runs.get((server, depth, "h2load"))
        ours = runs.get((server, depth, "pushbutton send"))
        if reference and ours:
            print(f"   pushbutton send: {median('rate', ours) / median('rate', reference):.2f}x h2load's rate "
                  f"(target 0.9x), {per_notification('cpu', ours) / per_notification('cpu', reference):.1f}x its "
                  f"CPU per notification (target at most 2x), {per_notification('mallocs', ours):.1f} mallocs per "
                  f"notification (target at most 10; h2load {per_notification('mallocs', reference):.1f})")
        one_path = runs.get((server, depth, "h2load (one path)"))
        if one_path and ours:
            print(f"   against h2load repeating one path (fewer server lookups, HPACK-indexed path): "
                  f"{median('rate', ours) / median('rate', one_path):.2f}x its rate, "
                  f"{per_notification('cpu', ours) / per_notification('cpu', one_path):.1f}x its CPU")
        for peer in ("aioapns (fixed)", "aioapns (as shipped)"):
            group = runs.get((server, depth, peer))
            if group and ours and median('rate', group) > 0:
                print(f"   pushbutton send is {median('rate', ours) / median('rate', group):.1f}x {peer}, with "
                      f"{per_notification('cpu', group) / per_notification('cpu', ours):.0f}x less CPU per notification")
