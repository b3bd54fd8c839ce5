#!/usr/bin/env python3
"""The independent check of the gateway's experiment statistics (Sources/PushbuttonGateway/Experiments/).

Computes, with SciPy and nothing of ours, the numbers ExperimentStatistics computes by hand for a fixed table of
counts: each arm's rate and Wilson interval (scipy.stats.binomtest(...).proportion_ci(method="wilson")), each
treatment's difference to the control with Newcombe's hybrid score interval (built from SciPy's Wilson bounds),
the two-sided p-value (scipy.stats.fisher_exact when an expected count of the 2x2 table is under 5, else
scipy.stats.chi2_contingency without Yates' correction, whose p equals the pooled two-proportion z-test's),
Holm's adjustment, the minimum detectable effect at 80% power (scipy.optimize.brentq on the power function), the
planned sample per variant, and normal quantiles (scipy.stats.norm.ppf).

It writes them to Tests/PushbuttonGatewayTests/Fixtures/experiment-stats-expected.json, which the Swift suite
ExperimentStatisticsTests compares with its own results to 4 significant digits, so `make test` needs no SciPy.

Usage:
  scripts/experiment_stats_check.py          write the fixture
  scripts/experiment_stats_check.py --check  recompute and compare with the committed fixture (make stats-check)
"""

import argparse
import json
import math
import os
import sys

import scipy
from scipy.optimize import brentq
from scipy.stats import binomtest, chi2_contingency, fisher_exact, norm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "Tests", "PushbuttonGatewayTests", "Fixtures", "experiment-stats-expected.json")
POWER = 0.8


def arm(name, trials, successes):
    return {"name": name, "trials": trials, "successes": successes}


def arms(rates, trials, names="ABCDEFGH"):
    """Arms of `trials` each with the given numbers of successes, named A, B, ..."""
    return [arm(names[i], trials, s) for i, s in enumerate(rates)]


# (name, confidence, control, treatments, holdout). The first ones are Newcombe's (1998) worked examples.
CASES = [
    ("newcombe-a 56/70 vs 48/80", 0.95, arm("A", 80, 48), [arm("B", 70, 56)], None),
    ("newcombe-b 9/10 vs 3/10", 0.95, arm("A", 10, 3), [arm("B", 10, 9)], None),
    ("newcombe-c 6/7 vs 2/7", 0.95, arm("A", 7, 2), [arm("B", 7, 6)], None),
    ("newcombe-d 5/56 vs 0/29", 0.95, arm("A", 29, 0), [arm("B", 56, 5)], None),
    ("newcombe-e 0/10 vs 0/20", 0.95, arm("A", 20, 0), [arm("B", 10, 0)], None),
    ("newcombe-f 0/10 vs 0/10", 0.95, arm("A", 10, 0), [arm("B", 10, 0)], None),
    ("newcombe-g 10/10 vs 0/20", 0.95, arm("A", 20, 0), [arm("B", 10, 10)], None),
    ("fisher tea 3/4 vs 1/4", 0.95, arm("A", 4, 1), [arm("B", 4, 3)], None),
    ("1,000 each 12% vs 15%", 0.95, arm("A", 1000, 120), [arm("B", 1000, 150)], None),
    ("5,000 each 5% vs 6%", 0.95, arm("A", 5000, 250), [arm("B", 5000, 300)], None),
    ("identical arms", 0.95, arm("A", 2000, 100), [arm("B", 2000, 100)], None),
    ("all successes", 0.95, arm("A", 50, 50), [arm("B", 50, 50)], None),
    ("control all, treatment fewer", 0.95, arm("A", 30, 30), [arm("B", 30, 25)], None),
    ("control none, treatment some", 0.95, arm("A", 200, 0), [arm("B", 200, 7)], None),
    ("no trials to a treatment", 0.95, arm("A", 100, 10), [arm("B", 0, 0), arm("C", 100, 14)], None),
    ("expected count near 5", 0.95, arm("A", 100, 3), [arm("B", 100, 8)], None),
    ("10^9 each 3.1% vs 3.1005%", 0.95, arm("A", 10**9, 31_000_000), [arm("B", 10**9, 31_005_000)], None),
    ("10^9 each, 3 vs 12 taps", 0.95, arm("A", 10**9, 3), [arm("B", 10**9, 12)], None),
    ("10^9 each, 1 vs 6 taps (exact test)", 0.95, arm("A", 10**9, 1), [arm("B", 10**9, 6)], None),
    ("unequal arms", 0.95, arm("A", 4500, 410), [arm("B", 900, 101)], None),
    ("99% confidence", 0.99, arm("A", 1200, 96), [arm("B", 1200, 130)], None),
    (
        "3 variants with a holdout",
        0.95,
        arm("A", 600, 48),
        [arm("B", 600, 75), arm("C", 600, 51)],
        arm("holdout", 200, 4),
    ),
    ("3 variants, small counts", 0.95, arm("A", 12, 2), [arm("B", 11, 7), arm("C", 13, 1)], None),
    ("4 variants", 0.95, arm("A", 800, 80), [arm("B", 800, 96), arm("C", 800, 112), arm("D", 800, 71)], None),
    ("5 variants", 0.95, *(lambda a: (a[0], a[1:]))(arms([40, 44, 61, 39, 52], 500)), None),
    ("6 variants with a holdout", 0.95, *(lambda a: (a[0], a[1:]))(arms([90, 95, 120, 88, 101, 84], 1500)),
     arm("holdout", 300, 12)),
    ("8 variants", 0.95, *(lambda a: (a[0], a[1:]))(arms([200, 215, 260, 190, 205, 231, 198, 270], 2500)), None),
    ("8 variants, small and zero counts", 0.95,
     *(lambda a: (a[0], a[1:]))(arms([0, 1, 4, 0, 2, 6, 3, 9], 25)), None),
]

# (baseline, minimum detectable effect, variants, power, alpha)
PLANS = [
    (0.10, 0.05, 2, 0.8, 0.05),
    (0.10, 0.02, 2, 0.8, 0.05),
    (0.05, 0.01, 3, 0.8, 0.05),
    (0.30, 0.05, 4, 0.9, 0.05),
    (0.02, 0.005, 8, 0.8, 0.05),
    (0.0, 0.01, 2, 0.8, 0.05),
    (0.5, 0.1, 5, 0.8, 0.01),
]

QUANTILES = [1e-12, 1e-6, 0.001, 0.01, 0.02, 0.02425, 0.025, 0.1, 0.3, 0.5, 0.8, 0.9, 0.975, 0.99, 0.995, 0.999999]


def wilson(successes, trials, confidence):
    if trials == 0:
        return None
    ci = binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def smallest_expected(t, c):
    """The smallest expected cell of the 2x2 table under independence, from its margins."""
    rows = [t["trials"], c["trials"]]
    total = sum(rows)
    taps = t["successes"] + c["successes"]
    return min(r * col / total for r in rows for col in (taps, total - taps))


def p_value(t, c):
    table = [[t["successes"], t["trials"] - t["successes"]], [c["successes"], c["trials"] - c["successes"]]]
    if smallest_expected(t, c) < 5:
        return "fisher_exact", float(fisher_exact(table, alternative="two-sided").pvalue)
    result = chi2_contingency(table, correction=False)
    return "z_test_pooled", float(result.pvalue)


def holm(ps):
    """Holm (1979): sorted ascending, the i-th (from 0) times (m - i), made non-decreasing, capped at 1."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: (ps[i], i))
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def minimum_detectable_effect(p0, n0, n1, alpha):
    """The rise d over p0 with power(d) = 80%: power(d) = P(Z > (z_a * SE0 - d) / SE1), two-sided z_a."""
    if p0 >= 1:
        return None
    z_a = norm.ppf(1 - alpha / 2)

    def power_minus_target(d):
        p1 = p0 + d
        pooled = (n0 * p0 + n1 * p1) / (n0 + n1)
        se0 = math.sqrt(pooled * (1 - pooled) * (1 / n0 + 1 / n1))
        se1 = math.sqrt(p0 * (1 - p0) / n0 + p1 * (1 - p1) / n1)
        if se1 == 0:
            return (1.0 if d > z_a * se0 else 0.0) - POWER
        return norm.sf((z_a * se0 - d) / se1) - POWER

    high = 1 - p0
    if power_minus_target(high) < 0:
        return None
    return brentq(power_minus_target, 1e-15, high, xtol=1e-15, rtol=1e-14, maxiter=500)


def planned(baseline, mde, variants, power, alpha):
    z_a = norm.ppf(1 - alpha / max(1, variants - 1) / 2)
    z_b = norm.ppf(power)
    p1, p2 = baseline, min(1.0, baseline + mde)
    pbar = (p1 + p2) / 2
    n = (z_a * math.sqrt(2 * pbar * (1 - pbar)) + z_b * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (p2 - p1) ** 2
    return max(1, math.ceil(n))


def variant_expected(a, confidence):
    interval = wilson(a["successes"], a["trials"], confidence)
    return {
        "name": a["name"],
        "rate": a["successes"] / a["trials"] if a["trials"] else None,
        "lower": interval[0] if interval else None,
        "upper": interval[1] if interval else None,
    }


def case_expected(confidence, control, treatments, holdout):
    alpha = 1 - confidence
    comparisons = []
    for t in treatments:
        row = {"variant": t["name"], "difference": None, "lower": None, "upper": None, "test": "none",
               "p_value": None, "minimum_detectable_effect": None}
        if t["trials"] and control["trials"]:
            p1, p0 = t["successes"] / t["trials"], control["successes"] / control["trials"]
            l1, u1 = wilson(t["successes"], t["trials"], confidence)
            l0, u0 = wilson(control["successes"], control["trials"], confidence)
            difference = p1 - p0
            row["difference"] = difference
            row["lower"] = max(-1.0, difference - math.sqrt((p1 - l1) ** 2 + (u0 - p0) ** 2))
            row["upper"] = min(1.0, difference + math.sqrt((u1 - p1) ** 2 + (p0 - l0) ** 2))
            row["test"], row["p_value"] = p_value(t, control)
            row["minimum_detectable_effect"] = minimum_detectable_effect(
                p0, control["trials"], t["trials"], alpha / len(treatments))
        comparisons.append(row)
    adjusted = holm([row["p_value"] if row["p_value"] is not None else 1.0 for row in comparisons])
    for row, p in zip(comparisons, adjusted):
        row["p_value_adjusted"] = p if row["p_value"] is not None else None
    return {
        "variants": [variant_expected(a, confidence) for a in [control] + treatments],
        "holdout": variant_expected(holdout, confidence) if holdout else None,
        "comparisons": comparisons,
    }


def generate():
    return {
        "generated_by": "scripts/experiment_stats_check.py (SciPy " + scipy.__version__ + ")",
        "cases": [
            {
                "name": name,
                "confidence": confidence,
                "control": control,
                "treatments": treatments,
                "holdout": holdout,
                "expected": case_expected(confidence, control, treatments, holdout),
            }
            for name, confidence, control, treatments, holdout in CASES
        ],
        "plans": [
            {"baseline": b, "minimum_detectable_effect": d, "variants": v, "power": pw, "alpha": a,
             "expected": planned(b, d, v, pw, a)}
            for b, d, v, pw, a in PLANS
        ],
        "quantiles": [{"p": p, "z": float(norm.ppf(p))} for p in QUANTILES],
    }


def close(a, b):
    """Equal to 4 significant digits (relative 5e-5), or both within 1e-12 of zero."""
    if a is None or b is None:
        return a is b
    return abs(a - b) <= max(5e-5 * max(abs(a), abs(b)), 1e-12)


def differences(old, new, path="$"):
    if isinstance(old, dict) and isinstance(new, dict):
        if old.keys() != new.keys():
            return [f"{path}: keys differ"]
        return [d for k in old if k != "generated_by" for d in differences(old[k], new[k], f"{path}.{k}")]
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [f"{path}: lengths differ"]
        return [d for i, (o, n) in enumerate(zip(old, new)) for d in differences(o, n, f"{path}[{i}]")]
    if isinstance(old, float) or isinstance(new, float):
        return [] if close(old, new) else [f"{path}: committed {old}, SciPy now {new}"]
    return [] if old == new else [f"{path}: committed {old!r}, now {new!r}"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed fixture instead")
    args = parser.parse_args()
    data = generate()
    if args.check:
        with open(FIXTURE) as f:
            committed = json.load(f)
        found = differences(committed, data)
        for line in found:
            print("experiment_stats_check:", line, file=sys.stderr)
        if found:
            return 1
        print(f"experiment_stats_check: the fixture matches SciPy {scipy.__version__} "
              f"({len(CASES)} cases, {len(PLANS)} plans, {len(QUANTILES)} quantiles)")
        return 0
    with open(FIXTURE, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"experiment_stats_check: wrote {os.path.relpath(FIXTURE, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
