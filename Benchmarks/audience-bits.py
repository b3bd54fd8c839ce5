#!/usr/bin/env python3
"""Audience counts on SQLite with and without migration 70's bits test (issue 35), in one process, interleaved.

On a database migrated to 70 (a copy: `AudienceBenchmark sqlite:COPY 1000000 1` migrates it), counts each
expression as SegmentSQL compiles it (the bits tested before the tag list or language) and without that test (the
audience row's tag list or language read for every device, as before migration 70), alternating, and prints the
median CPU milliseconds (user + system) of each. The masks are AudienceBits.mask's, computed here the same way.
Usage: audience-bits.py PATH ROUNDS"""
import sqlite3
import statistics
import sys
import time

WEIGHTS = [3, 7, 13, 29, 53, 101, 197, 389]


def mask(text):  # AudienceBits.mask(of:)
    s = [ord(c) for c in text]
    h = len(s)
    for i in range(4):
        h += (s[i] if i < len(s) else 0) * WEIGHTS[i] + (s[-1 - i] if i < len(s) else 0) * WEIGHTS[4 + i]
    return (1 << (h % 63)) | (1 << ((h // 63) % 63))


def bits(text, on):
    return f"(d.bits & {mask(text)}) = {mask(text)} AND " if on else ""


def tag(t, on): return f"({bits(t, on)}instr(d.tags, ',\"{t}\"') > 0)"


def locale(lang, on):  # a language alone (fr, ja): its whole spelling and its two prefixes
    return (f"({bits(lang, on)}d.language = '{lang}' AND d.locale IS NOT NULL AND (d.locale IN ('{lang}') "
            f"OR substr(d.locale, 1, {len(lang) + 1}) IN ('{lang}-', '{lang}_')))")


EXPRESSIONS = [
    ("tag newsletter (45%)", lambda on: tag("newsletter", on)),
    ("tag beta (10%)", lambda on: tag("beta", on)),
    ("tag vip (1%), scanned", lambda on: tag("vip", on)),
    ("locale fr", lambda on: locale("fr", on)),
    ("vip or ja", lambda on: f"({tag('vip', on)} OR {locale('ja', on)})"),
    ("not newsletter", lambda on: f"NOT ({tag('newsletter', on)})"),
]

connection = sqlite3.connect(sys.argv[1])
connection.execute("PRAGMA cache_size=-1048576")
rounds = int(sys.argv[2])
base = "SELECT count(*) FROM audience d WHERE d.app = 'bench'"
queries = [("floor: audience rows", base, base)] + [
    (name, f"{base} AND {sql(False)}", f"{base} AND {sql(True)}") for name, sql in EXPRESSIONS]
times = {name: ([], []) for name, _, _ in queries}
counts = {}
for round in range(rounds + 1):  # the first round warms the cache and is not counted
    for name, without, with_bits in queries:
        for index in ((0, 1) if round % 2 == 0 else (1, 0)):
            start = time.process_time()
            count = connection.execute((without, with_bits)[index]).fetchone()[0]
            if round > 0:
                times[name][index].append((time.process_time() - start) * 1000)
            if counts.setdefault((name, index), count) != count or counts.get((name, 1 - index), count) != count:
                sys.exit(f"{name}: counts differ")
print(f"{'expression':32}{'devices':>10}{'without ms':>12}{'bits ms':>10}{'÷':>7}")
for name, _, _ in queries:
    without, with_bits = (statistics.median(values) for values in times[name])
    print(f"{name:32}{counts[(name, 0)]:>10}{without:>12.1f}{with_bits:>10.1f}{with_bits / without:>7.2f}")
