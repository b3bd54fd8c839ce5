#!/usr/bin/env python3
"""Checks that the Swift in the DocC articles is compiled.

Swift code in every catalog (`Sources/*/*.docc`) must be a SwiftPM snippet (`Snippets/*.swift`, built by `swift build` in Swift 6
mode, against the UserNotifications stand-in on Linux) shown with `@Snippet(path: "Pushbutton/Snippets/Name")`,
not a ```swift block that nothing compiles. Every `@Snippet` in any catalog must name a file that exists, so a
renamed snippet cannot leave an article showing nothing. `make test` runs this after `swift build`, which fails
when a snippet stops compiling.

Usage: scripts/snippet_check.py [--package DIR]
Exit status: 0 when every article is clean, 1 with one line per problem.
"""

import argparse
import glob
import os
import re
import sys

# Every catalog: a Swift block anywhere in them must be a snippet. Code that is deliberately not Swift this package
# can compile (another SDK's API in a comparison, a shell session, JSON) is fenced as what it is (```text,
# ```console, ```json), never as ```swift. Swift that needs a package this one does not depend on (swift-log,
# swift-prometheus) is a snippet too: it declares the few names it uses from that package in a hidden part, so
# the Pushbutton side of it is compiled.
CATALOGS = "Sources/*/*.docc"
# A fence that says Swift, whatever its case or attributes (```swift, ``` Swift, ```swift title=…).
SWIFT_FENCE = re.compile(r"^\s*(```|~~~)\s*swift\b", re.IGNORECASE)
SNIPPET = re.compile(r'@Snippet\(path:\s*"([^"]+)"')


def articles(package, entry):
    path = os.path.join(package, entry)
    if path.endswith(".md"):
        return [path]
    return sorted(glob.glob(os.path.join(path, "**", "*.md"), recursive=True))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--package", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = parser.parse_args()
    problems = []
    checked = sorted(glob.glob(CATALOGS, root_dir=args.package))
    for entry in checked:
        for article in articles(args.package, entry):
            with open(article, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    if SWIFT_FENCE.match(line):
                        problems.append(
                            f"{os.path.relpath(article, args.package)}:{number}: a ```swift block nothing compiles; "
                            "make it a snippet in Snippets/ and show it with @Snippet(path: \"Pushbutton/Snippets/Name\")")
    for article in sorted(glob.glob(os.path.join(args.package, "Sources", "*", "*.docc", "**", "*.md"), recursive=True)):
        with open(article, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                for path in SNIPPET.findall(line):
                    parts = path.split("/")
                    if len(parts) < 3 or parts[0] != "Pushbutton" or parts[1] != "Snippets":
                        problems.append(f"{os.path.relpath(article, args.package)}:{number}: @Snippet path '{path}' "
                                        "is not of the form Pushbutton/Snippets/Name")
                        continue
                    source = os.path.join(args.package, "Snippets", *parts[2:]) + ".swift"
                    if not os.path.exists(source):
                        problems.append(f"{os.path.relpath(article, args.package)}:{number}: @Snippet '{path}' has "
                                        f"no file {os.path.relpath(source, args.package)}")
    for problem in problems:
        print(problem, file=sys.stderr)
    snippets = len(glob.glob(os.path.join(args.package, "Snippets", "**", "*.swift"), recursive=True))
    print(f"snippets: {snippets} snippet files; {len(problems)} problems in {len(checked)} catalogs")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
