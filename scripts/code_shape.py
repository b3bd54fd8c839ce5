#!/usr/bin/env python3
"""Prints the shape of the Swift code under Sources/, per module (one directory under Sources/ each): the
largest type body, the longest function, and the share of functions over 40 lines.

How it counts (an approximation by braces, not Swift's parser):
- Comments (`//`, nested `/* */`) are removed and string literals (`"…"`, `\"\"\"…\"\"\"`, raw `#"…"#`) are
  blanked before braces are counted, so braces inside them do not count.
- A *code line* is a line with anything left on it after comments are removed (a line of only `}` counts;
  blank lines and comment lines do not).
- A *type body* is a `{ … }` whose header (the code since the previous `{`, `}` or `;`) declares a `class`,
  `struct`, `enum`, `actor`, `protocol` or `extension`. Each declaration counts on its own: an extension in
  another file is another body, and a type's body includes the types nested in it.
- A *function* is a `{ … }` whose header declares a `func`, an `init`, a `deinit` or a `subscript`; nested
  functions count as functions too (and inside their outer one). Computed properties and closures do not count.
- A body's size is its code lines from the line of its keyword to the line of its closing brace, both included.

Usage: scripts/code_shape.py [--over N] [--top K] [ROOT]
ROOT is the package directory (default: this script's parent's parent).
"""

import argparse
import os
import re
import sys

TYPE = re.compile(r"(?<![.\w])(class|struct|enum|actor|protocol|extension)\s+[A-Za-z_`]")
FUNCTION = re.compile(r"(?<![.\w])(func\s+[^\s(<]+|init\s*[?!]?\s*[(<]|deinit\b|subscript\s*[(<])")
NAME = re.compile(r"(?:func|class|struct|enum|actor|protocol|extension)\s+([^\s(<:{]+)|(init|deinit|subscript)")


def strip(text):
    """Returns `text` with comments removed and string contents blanked (newlines kept, so lines still match)."""
    out = []
    i, n = 0, len(text)
    depth = 0  # nested block comments
    while i < n:
        c = text[i]
        if depth:
            if text.startswith("/*", i):
                depth += 1
                i += 2
            elif text.startswith("*/", i):
                depth -= 1
                i += 2
            else:
                if c == "\n":
                    out.append("\n")
                i += 1
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            depth = 1
            i += 2
            continue
        match = re.match(r'(#*)("""|")', text[i:i + 12])
        if match and (match.group(1) == "" or text.startswith(match.group(1) + '"', i)):
            hashes, quote = match.group(1), match.group(2)
            close = quote + hashes
            i += len(hashes) + len(quote)
            out.append('""')  # the literal stays code, its contents do not count
            escape = "\\" + hashes
            while i < n and not text.startswith(close, i):
                if text.startswith(escape + "(", i):
                    # An interpolation: skip to its matching parenthesis.
                    i += len(escape) + 1
                    level = 1
                    while i < n and level:
                        level += {"(": 1, ")": -1}.get(text[i], 0)
                        if text[i] == "\n":
                            out.append("\n")
                        i += 1
                    continue
                if text.startswith(escape, i):
                    i += len(escape) + 1
                    continue
                if text[i] == "\n":
                    out.append("\n")
                    if quote == '"':
                        break  # an unterminated single-line literal: give up on it at the line's end
                i += 1
            i += len(close)
            continue
        out.append(c)
        i += 1
    return "".join(out)


def bodies(path):
    """Yields (kind, name, code lines) for each type body and function in the file at `path`."""
    with open(path, encoding="utf-8") as handle:
        code = strip(handle.read())
    lines = code.split("\n")
    is_code = [bool(line.strip()) for line in lines]
    prefix = [0]
    for flag in is_code:
        prefix.append(prefix[-1] + flag)
    header, header_start = [], 0
    stack = []  # (kind, name, first line) per open brace
    line = 0
    for offset, c in enumerate(code):
        if c == "\n":
            line += 1
            header.append("\n")
            continue
        if c == "{":
            text = "".join(header)
            kind, name, first = None, None, line
            found = [(m.start(), "function") for m in FUNCTION.finditer(text)]
            found += [(m.start(), "type") for m in TYPE.finditer(text)]
            if found:
                start, kind = max(found)
                first = header_start + text[:start].count("\n")
                named = NAME.search(text, start)
                name = (named.group(1) or named.group(2)) if named else "?"
            stack.append((kind, name, first))
            header, header_start = [], line
            continue
        if c == "}":
            if stack:
                kind, name, first = stack.pop()
                if kind:
                    yield kind, name, prefix[line + 1] - prefix[first]
            header, header_start = [], line
            continue
        if c == ";":
            header, header_start = [], line
            continue
        header.append(c)


def shape(root, over):
    modules = {}
    sources = os.path.join(root, "Sources")
    for module in sorted(os.listdir(sources)):
        directory = os.path.join(sources, module)
        if not os.path.isdir(directory):
            continue
        types, functions = [], []
        for folder, _, files in os.walk(directory):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                path = os.path.join(folder, file)
                relative = os.path.relpath(path, directory)
                for kind, name, size in bodies(path):
                    (types if kind == "type" else functions).append((size, name, relative))
        if types or functions:
            modules[module] = (types, functions)
    return modules


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", nargs="?", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--over", type=int, default=40, help="the function length counted as long (40)")
    parser.add_argument("--top", type=int, default=1, help="how many of the largest to list per module (1)")
    arguments = parser.parse_args()
    modules = shape(arguments.root, arguments.over)
    rows = [("module", "largest type body", "longest function", f"functions over {arguments.over} lines")]
    for module, (types, functions) in modules.items():
        types.sort(key=lambda t: -t[0])
        functions.sort(key=lambda f: -f[0])
        long = sum(1 for size, _, _ in functions if size > arguments.over)
        share = f"{100 * long / len(functions):.1f}% ({long} of {len(functions)})" if functions else "-"
        for rank in range(max(1, arguments.top)):
            largest = f"{types[rank][0]} {types[rank][1]} ({types[rank][2]})" if rank < len(types) else ""
            longest = f"{functions[rank][0]} {functions[rank][1]} ({functions[rank][2]})" if rank < len(functions) else ""
            rows.append((module if rank == 0 else "", largest, longest, share if rank == 0 else ""))
    widths = [max(len(row[column]) for row in rows) for column in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
