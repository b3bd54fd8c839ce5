#!/usr/bin/env python3
"""Audience counts before and after migration 62 on the same data (issue 35): main's SegmentSQL shapes (migration
61) and the new ones, written out here for the benchmark's 15 expressions, counted alternately on one database made
by AudienceBenchmark (keep its file, or its PostgreSQL database) and then migrated to 62 (the old SQL reads none of
its columns). SQLite through the sqlite3 CLI (`.timer`: wall, user and system time), PostgreSQL through psql
(`\\timing`, a statement timeout of 20 s). Prints the medians and the spread, and any count that differs.
With --lead first, it compares instead the scan of migration 62 (before) with a count led by the segment's rarest
tag through the tag index (TagLead: after), for expressions a tag leads, each tag led whatever its size (where the
two cross is what sets TagLead.limit).
With --setting SQL first, it compares the counts of migration 62 without (before) and with (after) a setting run
first in the session (`SET jit = off`, `PRAGMA mmap_size = 1073741824`).
With --index NAME first (SQLite), it compares the counts of migration 62 over its index (before) and over the
index NAME made beside it (after: `INDEXED BY NAME`, the floor too).
With --table first, it compares the counts of migrations 62 and 65 over the devices (before: on SQLite through
their index) with those of migration 69 over the audience table (after; a user's devices found by the devices'
user index), the floor too (a count of the active devices, of the audience rows).
Usage: audience-shapes.py [--lead | --setting SQL | --index NAME | --table] sqlite PATH ROUNDS
       audience-shapes.py [--lead | --setting SQL | --table] postgres PORT DATABASE ROUNDS"""
import subprocess, sys, re, statistics, time
LEAD = sys.argv[1] == "--lead"
if LEAD: del sys.argv[1]
SETTING = sys.argv[2] if sys.argv[1] == "--setting" else None
if SETTING: del sys.argv[1:3]
INDEX = sys.argv[2] if sys.argv[1] == "--index" else None
if INDEX: del sys.argv[1:3]
TABLE = sys.argv[1] == "--table"
if TABLE: del sys.argv[1]
AUDIENCE = False  # compile for the audience table (set while compiling --table's after)
NOW = time.time()
DAY = 86400.0
def q(s): return "'" + s.replace("'", "''") + "'"
def v(major, minor=0, patch=0): return major * 10**12 + minor * 10**6 + patch

def forms(locale):  # the likely-subtag forms SegmentSQL.chineseForms gives; the benchmark needs only zh-Hant's
    if locale == "zh-Hant": return ["zh-Hant", "zh-TW", "zh-HK", "zh-MO"]
    return [locale]

def compile(seg, new, pg):
    global AUDIENCE
    k = seg[0]
    if k in ("and", "or"):
        return "(" + (" AND " if k == "and" else " OR ").join(compile(p, new, pg) for p in seg[1]) + ")"
    if k == "not": return "NOT (" + compile(seg[1], new, pg) + ")"
    if k == "tag" and AUDIENCE:
        return ("strpos" if pg else "instr") + "(d.tags, " + q(',"' + seg[1] + '"') + ") > 0"
    if k == "seen" and AUDIENCE: return f"d.seen_at >= {NOW - seg[1] * DAY}"
    if k == "locale" and AUDIENCE:
        AUDIENCE = False
        text = compile(seg, True, pg)
        AUDIENCE = True
        return f"(d.language = {q(seg[1].replace('_', '-').split('-')[0])} AND {text})"
    if k == "tag":
        if new:
            f = "strpos" if pg else "instr"
            a, b = q('["' + seg[1] + '"'), q(',"' + seg[1] + '"')
            return f"({f}(d.tags, {a}) > 0 OR {f}(d.tags, {b}) > 0)"
        return f"d.token IN (SELECT g.token FROM device_tags g WHERE g.app = 'bench' AND g.tag = {q(seg[1])})"
    if k == "user": return f"(d.user_id IS NOT NULL AND d.user_id = {q(seg[1])})"
    if k == "locale" and new:
        whole, prefixes = [], {}
        for form in forms(seg[1]):
            da, un = form.replace("_", "-"), form.replace("-", "_")
            whole += [x for x in (da, un) if x not in whole]
            prefixes.setdefault(len(da) + 1, [])
            prefixes[len(da) + 1] += [x for x in (da + "-", un + "_") if x not in prefixes[len(da) + 1]]
        text = "d.locale IN (" + ", ".join(map(q, whole)) + ")"
        for n in sorted(prefixes):
            text += f" OR substr(d.locale, 1, {n}) IN (" + ", ".join(map(q, prefixes[n])) + ")"
        return "(d.locale IS NOT NULL AND (" + text + "))"
    if k == "locale":
        parts = []
        for form in forms(seg[1]):
            da, un = form.replace("_", "-"), form.replace("-", "_")
            n = len(da) + 1
            parts.append(f"d.locale = {q(da)} OR d.locale = {q(un)} OR substr(d.locale, 1, {n}) = {q(da + '-')} OR substr(d.locale, 1, {n}) = {q(un + '_')}")
        return "(d.locale IS NOT NULL AND (" + " OR ".join(parts) + "))"
    if k == "zone": return f"(d.time_zone IS NOT NULL AND d.time_zone = {q(seg[1])})"
    if k == "version": return f"(d.version_number IS NOT NULL AND d.version_number >= 0 AND d.version_number {seg[1]} {seg[2]})"
    if k == "seen":
        since = NOW - seg[1] * DAY
        if new: return f"(d.updated_at >= {since} OR (d.last_tap_at IS NOT NULL AND d.last_tap_at >= {since}))"
        return f"(d.updated_at >= {since} OR d.token IN (SELECT s.token FROM tap_events s WHERE s.app = 'bench' AND s.received_at >= {since}))"
    if k == "tapped":
        cat, days = seg[1], seg[2]
        since = NOW - days * DAY
        if new:
            if cat is None: return f"(d.last_button_at IS NOT NULL AND d.last_button_at >= {since})"
            if not pg: return f"(d.last_button_at IS NOT NULL AND d.last_button_at >= {since} AND d.token IN (SELECT s.token FROM tap_events s WHERE s.app = 'bench' AND s.response = 'button' AND s.category = {q(cat)} AND s.received_at >= {since}))"
            return f"(d.last_button_at IS NOT NULL AND d.last_button_at >= {since} AND EXISTS (SELECT 1 FROM tap_events s WHERE s.app = d.app AND s.token = d.token AND s.received_at >= {since} AND s.response = 'button' AND s.category = {q(cat)}))"
        c = f" AND s.category = {q(cat)}" if cat else ""
        return f"d.token IN (SELECT s.token FROM tap_events s WHERE s.app = 'bench' AND s.response = 'button' AND s.received_at >= {since}{c})"

V21 = v(2, 1)
SEGMENTS = [
    ("floor: count(*) active", None),
    ("tag newsletter (45%)", ("tag", "newsletter")),
    ("tag beta (10%)", ("tag", "beta")),
    ("tag vip (1%)", ("tag", "vip")),
    ("user u-4242", ("user", "u-4242")),
    ("locale fr", ("locale", "fr")),
    ("locale zh-Hant", ("locale", "zh-Hant")),
    ("app_version >=2.1", ("version", ">=", V21)),
    ("time_zone Europe/Paris", ("zone", "Europe/Paris")),
    ("last_seen_days 30", ("seen", 30)),
    ("tapped order 7d", ("tapped", "order", 7)),
    ("tapped any 30d", ("tapped", None, 30)),
    ("vip or ja", ("or", [("tag", "vip"), ("locale", "ja")])),
    ("not newsletter", ("not", ("tag", "newsletter"))),
    ("beta and fr and not <2.1", ("and", [("tag", "beta"), ("locale", "fr"), ("not", ("version", "<", V21))])),
    ("premium, seen 30d, not tapped", ("and", [("tag", "premium"), ("seen", 30), ("not", ("tapped", None, 30))])),
]

# The benchmark's tags by their share of devices (makeBenchmarkDevices): the rarest required tag leads.
SHARE = {"newsletter": 45, "premium": 20, "beta": 10, "churn-risk": 5, "vip": 1, "early-access": 0.1}
def named(name): return next(entry for entry in SEGMENTS if entry[0] == name)
LEAD_SEGMENTS = [named("floor: count(*) active"), named("tag newsletter (45%)"),
    ("tag premium (20%)", ("tag", "premium")), named("tag beta (10%)"), ("tag churn-risk (5%)", ("tag", "churn-risk")),
    named("tag vip (1%)"), ("tag early-access (0.1%)", ("tag", "early-access")),
    ("vip and fr", ("and", [("tag", "vip"), ("locale", "fr")])), named("beta and fr and not <2.1"),
    named("premium, seen 30d, not tapped"),
    ("newsletter and early-access", ("and", [("tag", "newsletter"), ("tag", "early-access")]))]

def led(seg, pg):
    parts = seg[1] if seg[0] == "and" else [seg]
    tag = min((p[1] for p in parts if p[0] == "tag"), key=lambda t: SHARE[t])
    rest = [p for p in parts if p != ("tag", tag)]
    cond = compile(("and", rest), True, pg) if rest else "1 = 1"
    return ("SELECT COUNT(*) FROM device_tags g CROSS JOIN devices d WHERE g.app = 'bench' AND g.tag = " + q(tag)
            + f" AND d.app = 'bench' AND d.token = g.token AND d.active = 1 AND {cond};")

def sql(seg, new, pg):
    global AUDIENCE
    if TABLE and new:
        if seg is None: return "SELECT COUNT(*) FROM audience WHERE app = 'bench';"
        AUDIENCE = True
        cond = compile(seg, True, pg)
        AUDIENCE = False
        if seg[0] == "user":
            return ("SELECT COUNT(*) FROM devices u CROSS JOIN audience d WHERE u.app = 'bench' AND u.user_id = "
                    + q(seg[1]) + f" AND d.app = 'bench' AND d.token = u.token AND {cond};")
        return f"SELECT COUNT(*) FROM audience d WHERE d.app = 'bench' AND {cond};"
    if TABLE: new = True
    if INDEX and new:
        if seg is None:
            return f"SELECT COUNT(*) FROM devices d INDEXED BY {INDEX} WHERE d.app = 'bench' AND d.active = 1;"
        frm = "devices d" if seg[0] == "user" else f"devices d INDEXED BY {INDEX}"
        return f"SELECT COUNT(*) FROM {frm} WHERE d.app = 'bench' AND d.active = 1 AND {compile(seg, True, pg)};"
    if INDEX: new = True
    if seg is None:
        return "SELECT COUNT(*) FROM devices WHERE app = 'bench' AND active = 1;"
    if LEAD:
        if new: return led(seg, pg)
        new = True
    if SETTING: new = True
    frm = "devices d INDEXED BY devices_audience" if (new and not pg and seg[0] != "user") else "devices d"
    return f"SELECT COUNT(*) FROM {frm} WHERE d.app = 'bench' AND d.active = 1 AND {compile(seg, new, pg)};"

mode = sys.argv[1]
rounds = int(sys.argv[-1])
if LEAD: SEGMENTS = LEAD_SEGMENTS
results = {}
for r in range(rounds):
    for new in ([False, True] if r % 2 == 0 else [True, False]):
        stmts = [sql(seg, new, mode == "postgres") for _, seg in SEGMENTS]
        if mode == "sqlite":
            setting = f".output /dev/null\n{SETTING};\n.output\n" if SETTING and new else ""
            script = setting + ".timer on\n" + "\n".join(stmts) + "\n"
            out = subprocess.run(["sqlite3", sys.argv[2]], input=script, capture_output=True, text=True).stdout
            lines = out.strip().split("\n")
            pairs = [(lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]
            for (name, _), (count, timing) in zip(SEGMENTS, pairs):
                m = re.search(r"real ([\d.]+) user ([\d.]+) sys ([\d.]+)", timing)
                results.setdefault((name, new), []).append((float(m[1]) * 1000, (float(m[2]) + float(m[3])) * 1000, count))
        else:
            port, db = sys.argv[2], sys.argv[3]
            for (name, seg), st in zip(SEGMENTS, stmts):
                o = subprocess.run(["psql", "-h", "127.0.0.1", "-p", port, "-U", "postgres", "-d", db, "-At"], input="SET statement_timeout = '20s';\n" + (f"{SETTING};\n" if SETTING and new else "") + "\\timing on\n" + st + "\n", capture_output=True, text=True)
                t = re.findall(r"Time: ([\d.]+) ms", o.stdout)
                c = [l for l in o.stdout.split("\n") if re.fullmatch(r"\d+", l)]
                if c and t:
                    results.setdefault((name, new), []).append((float(t[-1]), None, c[0]))
                else:
                    results.setdefault((name, new), []).append((20000.0, None, "timeout"))
    print(f"round {r + 1} done", file=sys.stderr, flush=True)

def med(xs): return statistics.median(xs)
print(f"{'query':32}{'devices':>9}{'before ms':>11}{'(min-max)':>17}{'after ms':>10}{'(min-max)':>17}" + ("  cpu before/after" if mode == "sqlite" else ""))
for name, _ in SEGMENTS:
    b, a = results[(name, False)], results[(name, True)]
    bw, aw = [x[0] for x in b], [x[0] for x in a]
    line = f"{name:32}{a[-1][2]:>9}{med(bw):>11.0f}{f'({min(bw):.0f}-{max(bw):.0f})':>17}{med(aw):>10.0f}{f'({min(aw):.0f}-{max(aw):.0f})':>17}"
    if mode == "sqlite":
        line += f"  {med([x[1] for x in b]):.0f}/{med([x[1] for x in a]):.0f}"
    if b[-1][2] != a[-1][2]: line += f"  COUNT DIFFERS: before {b[-1][2]}"
    print(line, flush=True)
