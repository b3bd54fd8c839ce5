#!/usr/bin/env python3
"""Counts the public declarations of the shipped products that have no `///` documentation comment, and fails
when the count grows past the baseline checked in beside this script or their share of all public declarations
passes the ceiling.

The count is swift-format's own `AllPublicDeclarationsHaveDocumentation` rule (the toolchain's parser, not a
regular expression), run with the repository's configuration plus that rule. The rule stays off in `make lint`:
the existing gaps would fail it; this check only keeps them from growing. When you document some, lower the
baseline to the new count (the check says so).

The denominator is the same rule run on a temporary copy of the same sources with every documentation comment
turned into a plain one (`///` → `//`, `/**` → `/*`, line numbers kept), so both numbers count exactly the
declarations the rule considers public (overrides and the like excluded the same way).

Usage: scripts/doc_coverage.py [--list] [--total] [--swift SWIFT]
Exit status: 0 when the count is at most the baseline and the share at most the ceiling, 1 otherwise, 2 on a
setup error.
"""

import argparse
import json
import os
import re
import shutil
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
# The highest share of undocumented public declarations the shipped products may have (issue 31: peers such as
# APNSwift sit at 29%, AsyncHTTPClient at 20%).
CEILING = 0.15
LINE_DOC = re.compile(r"^(\s*)///+", re.MULTILINE)
BLOCK_DOC = re.compile(r"/\*\*(?![*/])")


def undocumented(swift, root=ROOT):
    with open(os.path.join(ROOT, ".swift-format")) as handle:
        configuration = json.load(handle)
    configuration.setdefault("rules", {})[RULE] = True
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(configuration, handle)
        path = handle.name
    try:
        sources = [os.path.join("Sources", target) for target in SHIPPED_TARGETS
                   if os.path.isdir(os.path.join(root, "Sources", target))]
        result = subprocess.run(
            [swift, "format", "lint", "--configuration", path, "--recursive", "--parallel", *sources],
            cwd=root, capture_output=True, text=True)
    finally:
        os.unlink(path)
    lines = [line for line in (result.stdout + result.stderr).splitlines() if f"[{RULE}]" in line]
    if result.returncode not in (0, 1) or (result.returncode == 1 and not lines):
        print(f"doc coverage: swift format failed:\n{result.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    return sorted(lines)


def public_declarations(swift):
    """Every public declaration the rule considers: the rule run on a copy whose doc comments are plain comments."""
    with tempfile.TemporaryDirectory() as copy:
        shutil.copy(os.path.join(ROOT, ".swift-format"), copy)
        for target in SHIPPED_TARGETS:
            source = os.path.join(ROOT, "Sources", target)
            if not os.path.isdir(source):
                continue
            for directory, _, files in os.walk(source):
                destination = os.path.join(copy, os.path.relpath(directory, ROOT))
                os.makedirs(destination, exist_ok=True)
                for name in files:
                    if not name.endswith(".swift"):
                        continue
                    with open(os.path.join(directory, name), encoding="utf-8") as handle:
                        text = handle.read()
                    text = BLOCK_DOC.sub("/*", LINE_DOC.sub(r"\1//", text))
                    with open(os.path.join(destination, name), "w", encoding="utf-8") as handle:
                        handle.write(text)
        return len(undocumented(swift, copy))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--list", action="store_true", help="print every undocumented declaration")
    parser.add_argument("--total", action="store_true",
                        help="only print the undocumented count, the total and the share (no checks)")
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
    total = public_declarations(arguments.swift)
    share = count / total if total else 0.0
    print(f"doc coverage: {count} of {total} public declarations without /// in the shipped products "
          f"({share:.1%}; ceiling {CEILING:.0%}, baseline {baseline})")
    if arguments.total:
        return 0
    failed = False
    if count > baseline:
        print(f"doc coverage: {count - baseline} more than the baseline: document the new public API "
              f"(scripts/doc_coverage.py --list shows each one)", file=sys.stderr)
        failed = True
    if share > CEILING:
        print(f"doc coverage: {share:.1%} undocumented is above the {CEILING:.0%} ceiling: document at least "
              f"{count - int(CEILING * total)} more (scripts/doc_coverage.py --list shows each one)", file=sys.stderr)
        failed = True
    if failed:
        return 1
    if count < baseline:
        print(f"doc coverage: fewer than the baseline: lower {os.path.relpath(BASELINE, ROOT)} to {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
