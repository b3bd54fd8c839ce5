#!/usr/bin/env python3
"""Counts the public declarations of the shipped products that have no `///` documentation comment, and fails
when the count grows past the baseline checked in beside this script.

The count is swift-format's own `AllPublicDeclarationsHaveDocumentation` rule (the toolchain's parser, not a
regular expression), run with the repository's configuration plus that rule. The rule stays off in `make lint`:
the existing gaps would fail it; this check only keeps them from growing. When you document some, lower the
baseline to the new count (the check says so).

Usage: scripts/doc_coverage.py [--list] [--swift SWIFT]
Exit status: 0 when the count is at most the baseline, 1 when it grew, 2 on a setup error.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

# The targets of the package's library products (not the CLI, the stand-in or the internal support target).
SHIPPED_TARGETS = [
    "Pushbutton", "PushbuttonReceiver", "PushbuttonReceiverTesting", "PushbuttonUserNotifications",
    "PushbuttonOutbox", "PushbuttonAPNs", "PushbuttonAPNsMock", "PushbuttonStore", "PushbuttonGateway",
    "PushbuttonPreview",
]
RULE = "AllPublicDeclarationsHaveDocumentation"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "scripts", "doc_coverage_baseline.txt")


def undocumented(swift):
    with open(os.path.join(ROOT, ".swift-format")) as handle:
        configuration = json.load(handle)
    configuration.setdefault("rules", {})[RULE] = True
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(configuration, handle)
        path = handle.name
    try:
        sources = [os.path.join("Sources", target) for target in SHIPPED_TARGETS
                   if os.path.isdir(os.path.join(ROOT, "Sources", target))]
        result = subprocess.run(
            [swift, "format", "lint", "--configuration", path, "--recursive", "--parallel", *sources],
            cwd=ROOT, capture_output=True, text=True)
    finally:
        os.unlink(path)
    lines = [line for line in (result.stdout + result.stderr).splitlines() if f"[{RULE}]" in line]
    if result.returncode not in (0, 1) or (result.returncode == 1 and not lines):
        print(f"doc coverage: swift format failed:\n{result.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    return sorted(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--list", action="store_true", help="print every undocumented declaration")
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"))
    arguments = parser.parse_args()
    lines = undocumented(arguments.swift)
    try:
        with open(BASELINE) as handle:
            baseline = int(handle.read().strip())
    except (OSError, ValueError) as error:
        print(f"doc coverage: cannot read the baseline {BASELINE}: {error}", file=sys.stderr)
        return 2
    if arguments.list:
        print("\n".join(lines))
    count = len(lines)
    print(f"doc coverage: {count} public declarations without /// in the shipped products (baseline {baseline})")
    if count > baseline:
        print(f"doc coverage: {count - baseline} more than the baseline: document the new public API "
              f"(scripts/doc_coverage.py --list shows each one)", file=sys.stderr)
        return 1
    if count < baseline:
        print(f"doc coverage: fewer than the baseline: lower {os.path.relpath(BASELINE, ROOT)} to {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
