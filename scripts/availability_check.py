#!/usr/bin/env python3
"""Checks that the app-facing targets only use API available at the package's declared platform minimums.

A Linux build checks no Apple availability, so this does it from two things the toolchain makes here:

- the index store of the debug build (SwiftPM indexes while building), read with libIndexStore: every
  symbol each app-facing source file references, with its line and the declaration it sits in;
- symbol graphs (swift-symbolgraph-extract) of the standard library, Foundation and the other toolchain
  modules, which carry Apple `@available` data even on Linux, and of the package's own modules (the
  UserNotifications stand-in carries Apple's availability, and an `@available` on an enclosing declaration
  raises the minimum for what it contains).

A reference is a violation when, on a declared platform, the referenced symbol is unavailable or introduced
after the minimum (the package's, or the enclosing declaration's if higher). Lines inside `#if os(...)`
branches that exclude a platform are not checked for that platform. The toolchain's symbol graphs are
cached under .build/availability, keyed by the toolchain, so a run takes about a second (seven the first time).

What it cannot see: code in branches not compiled on Linux (`#if canImport(UserNotifications)`, `#if os(iOS)`),
which only an Apple build checks, and `if #available(...)` blocks (not in the index): gate such code with
`@available` on a declaration instead, which the check reads.

Usage: scripts/availability_check.py [--package DIR] [--index-store DIR] [--modules DIR]
Exit status: 0 when nothing is used beyond the minimums, 1 with one line per violation, 2 on a setup error.
"""

import argparse
import ctypes
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The targets an app links, whose references are checked.
APP_FACING_TARGETS = [
    "PushbuttonSupport", "Pushbutton", "PushbuttonReceiver", "PushbuttonReceiverTesting", "PushbuttonUserNotifications",
    "PushbuttonOutbox", "PushbuttonSQLite",
]
# Targets whose declarations' availability counts but whose references are not checked (Linux-only).
DECLARATION_ONLY_TARGETS = ["UserNotificationsStandIn"]
# Toolchain modules the targets may use; each symbol graph includes its extensions of other modules.
TOOLCHAIN_MODULES = [
    "Swift", "_Concurrency", "_StringProcessing", "Foundation", "FoundationEssentials",
    "FoundationInternationalization", "Dispatch", "Synchronization",
]
APPLE_PLATFORMS = ["iOS", "macOS", "tvOS", "watchOS", "visionOS"]
# What `canImport(X)` answers on every Apple platform, for the modules this package conditions on.
APPLE_CAN_IMPORT = {
    "UserNotifications": True, "UIKit": None, "AppKit": None, "Darwin": True, "SQLite3": True,
    "CryptoKit": True, "Security": True, "Glibc": False, "Musl": False, "FoundationNetworking": False,
    "UserNotificationsStandIn": False, "CSQLite": False,
}

ROLE_DECLARATION = 1 << 0
ROLE_DEFINITION = 1 << 1
ROLE_REFERENCE = 1 << 2
REL_CHILDOF = 1 << 9
REL_CALLEDBY = 1 << 13
REL_ACCESSOROF = 1 << 15
REL_CONTAINEDBY = 1 << 16
DEPENDENCY_RECORD = 2


class SetupError(Exception):
    """Something the check needs is missing; the message says what and how to get it."""


# MARK: Platform minimums


def declared_minimums(package_swift_text):
    """The `platforms:` of a Package.swift, as {"iOS": (16, 0), ...}."""
    match = re.search(r"platforms\s*:\s*\[(.*?)\]", package_swift_text, re.S)
    if not match:
        raise SetupError("Package.swift declares no `platforms:`; there is nothing to check against")
    minimums = {}
    pattern = r"\.(iOS|macOS|tvOS|watchOS|visionOS|macCatalyst)\(\s*(?:\.v(\d+)(?:_(\d+))?|\"(\d+)(?:\.(\d+))?[^\"]*\")\s*\)"
    for platform, major, minor, string_major, string_minor in re.findall(pattern, match.group(1)):
        if platform not in APPLE_PLATFORMS:
            continue
        minimums[platform] = (int(major or string_major), int(minor or string_minor or 0))
    if not minimums:
        raise SetupError("cannot read the platforms in Package.swift's `platforms:` list: " + match.group(1).strip())
    return minimums


def version_text(version):
    return "%d.%d" % version


# MARK: Availability from symbol graphs


def availability_entries(symbol):
    """A symbol's availability as {platform: (major, minor) | "unavailable"}; absent means always available."""
    result = {}
    everywhere_unavailable = False
    for entry in symbol.get("availability", []):
        domain = entry.get("domain")
        if domain == "*" and entry.get("isUnconditionallyUnavailable"):
            everywhere_unavailable = True
        if domain not in APPLE_PLATFORMS:
            continue
        if entry.get("isUnconditionallyUnavailable") or "obsoleted" in entry:
            result[domain] = "unavailable"
        elif "introduced" in entry:
            introduced = entry["introduced"]
            result[domain] = (introduced.get("major", 0), introduced.get("minor", 0))
    if everywhere_unavailable:
        result = {platform: "unavailable" for platform in APPLE_PLATFORMS}
    return result


def read_symbol_graphs(directory):
    """{usr: (name, availability)} for every symbol in the symbol graph files of `directory`."""
    table, defaults = {}, []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".symbols.json"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph.get("symbols", []):
            usr = symbol["identifier"]["precise"]
            title = ".".join(symbol.get("pathComponents", [])) or symbol.get("names", {}).get("title", usr)
            table[usr] = (title, availability_entries(symbol))
        for relationship in graph.get("relationships", []):
            if relationship.get("kind") == "defaultImplementationOf":
                defaults.append((relationship["source"], relationship["target"]))
    apply_default_implementations(table, defaults)
    return table


def apply_default_implementations(table, defaults):
    """A protocol requirement added later with a default implementation (as `FixedWidthInteger.&*` was, in
    iOS 18) is usable wherever that implementation is: older code gets the default. So the requirement's
    availability becomes the least restrictive of its own and its default implementations'."""
    for implementation, requirement in defaults:
        if implementation not in table or requirement not in table:
            continue
        title, needs = table[requirement]
        offered = table[implementation][1]
        relaxed = {}
        for platform, required in needs.items():
            other = offered.get(platform)
            if other is None:
                continue  # the default is available there since the beginning
            if required == "unavailable":
                relaxed[platform] = other
            elif other == "unavailable":
                relaxed[platform] = required
            else:
                relaxed[platform] = min(required, other)
        table[requirement] = (title, relaxed)


def extract(extractor, module, target, output, extra):
    os.makedirs(output, exist_ok=True)
    command = [extractor, "-module-name", module, "-target", target, "-output-dir", output] + extra
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        raise SetupError(
            "swift-symbolgraph-extract failed for module %s (%s):\n%s" % (module, " ".join(command), completed.stderr))


def toolchain_availability(extractor, target, cache_dir):
    """The toolchain modules' availability, extracted once per toolchain and cached as one compact file."""
    stat = os.stat(os.path.realpath(extractor))
    key = hashlib.sha256(
        json.dumps([os.path.realpath(extractor), stat.st_size, stat.st_mtime_ns, target, TOOLCHAIN_MODULES]).encode()
    ).hexdigest()[:16]
    cache = os.path.join(cache_dir, "toolchain-%s.json" % key)
    if os.path.exists(cache):
        with open(cache, encoding="utf-8") as file:
            return {usr: (entry[0], decode_availability(entry[1])) for usr, entry in json.load(file).items()}
    with tempfile.TemporaryDirectory(dir=cache_dir) as scratch:
        for module in TOOLCHAIN_MODULES:
            extract(extractor, module, target, scratch, ["-minimum-access-level", "public"])
        table = read_symbol_graphs(scratch)
    # Only symbols with Apple availability are worth keeping; the rest are available everywhere.
    compact = {usr: [title, encode_availability(entry)] for usr, (title, entry) in table.items() if entry}
    with open(cache + ".tmp", "w", encoding="utf-8") as file:
        json.dump(compact, file, sort_keys=True)
    os.replace(cache + ".tmp", cache)
    return {usr: (entry[0], decode_availability(entry[1])) for usr, entry in compact.items()}


def encode_availability(entry):
    return {platform: (value if value == "unavailable" else list(value)) for platform, value in entry.items()}


def decode_availability(entry):
    return {platform: (value if value == "unavailable" else tuple(value)) for platform, value in entry.items()}


def package_availability(extractor, target, modules_dir, module_names, package_dir, scratch):
    """Availability of the package's own declarations (private ones too), from the built modules."""
    extra = ["-minimum-access-level", "private", "-I", modules_dir, "-skip-inherited-docs"]
    # C modules the Swift modules import are found through their module maps, as the build finds them.
    for root, _, files in os.walk(os.path.join(package_dir, "Sources")):
        if "module.modulemap" in files:
            extra += ["-Xcc", "-fmodule-map-file=" + os.path.join(root, "module.modulemap")]
    for module in module_names:
        extract(extractor, module, target, scratch, extra)
    return read_symbol_graphs(scratch)


# MARK: Conditional compilation


class Unknown:
    """A condition whose value on an Apple platform this check does not know (treated as compiled)."""


UNKNOWN = Unknown()


def evaluate_condition(text, platform):
    """`#if` condition `text` on `platform`: True, False or UNKNOWN."""
    tokens = re.findall(r"&&|\|\||!|\(|\)|[A-Za-z_][A-Za-z0-9_]*\([^()]*\)|[A-Za-z_][A-Za-z0-9_]*|[<>=]+|\S", text)
    position = 0

    def peek():
        return tokens[position] if position < len(tokens) else None

    def take():
        nonlocal position
        position += 1
        return tokens[position - 1]

    def combine_and(left, right):
        if left is False or right is False:
            return False
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        return True

    def combine_or(left, right):
        if left is True or right is True:
            return True
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        return False

    def negate(value):
        return UNKNOWN if value is UNKNOWN else not value

    def atom():
        token = take() if peek() is not None else None
        if token == "!":
            return negate(atom())
        if token == "(":
            value = disjunction()
            if peek() == ")":
                take()
            return value
        if token is None:
            return UNKNOWN
        call = re.fullmatch(r"([A-Za-z_]+)\(\s*([^()]*?)\s*\)", token)
        if call:
            function, argument = call.groups()
            if function == "os":
                return argument == platform
            if function == "canImport":
                known = APPLE_CAN_IMPORT.get(argument)
                return UNKNOWN if known is None else known
            if function == "targetEnvironment":
                return UNKNOWN
            return UNKNOWN
        if token == "true":
            return True
        if token == "false":
            return False
        return UNKNOWN

    def conjunction():
        value = atom()
        while peek() == "&&":
            take()
            value = combine_and(value, atom())
        return value

    def disjunction():
        value = conjunction()
        while peek() == "||":
            take()
            value = combine_or(value, conjunction())
        return value

    return disjunction()


def excluded_lines(source_text, platforms):
    """{platform: set of 1-based line numbers not compiled for it}, from the file's `#if` branches.

    A branch after one that is certainly compiled is dead; after one whose condition is unknown it is not.
    """
    excluded = {platform: set() for platform in platforms}
    stack = []  # per `#if`: {platform: [definitely_taken_before, active]}
    for number, line in enumerate(source_text.splitlines(), start=1):
        directive = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line)
        if directive:
            kind, rest = directive.group(1), directive.group(2).split("//")[0].strip()
            if kind == "if":
                frame = {}
                for platform in platforms:
                    value = evaluate_condition(rest, platform)
                    frame[platform] = [value is True, value is not False]
                stack.append(frame)
            elif kind == "elseif" and stack:
                for platform in platforms:
                    state = stack[-1][platform]
                    value = evaluate_condition(rest, platform)
                    state[1] = value is not False and not state[0]
                    state[0] = state[0] or value is True
            elif kind == "else" and stack:
                for platform in platforms:
                    state = stack[-1][platform]
                    state[1] = not state[0]
                    state[0] = True
            elif kind == "endif" and stack:
                stack.pop()
            continue
        for platform in platforms:
            if any(not frame[platform][1] for frame in stack):
                excluded[platform].add(number)
    return excluded


# MARK: The index store


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    def text(self):
        return ctypes.string_at(self.data, self.length).decode("utf-8") if self.length else ""


class IndexStore:
    """The few libIndexStore calls this check needs, through its C API (the `_f` variants take C callbacks)."""

    def __init__(self, library_path, store_path):
        if not os.path.exists(library_path):
            raise SetupError("libIndexStore is not at %s (it ships with the Swift toolchain)" % library_path)
        lib = ctypes.CDLL(library_path)
        self.lib = lib
        pointer = ctypes.c_void_p
        lib.indexstore_store_create.restype = pointer
        lib.indexstore_store_create.argtypes = [ctypes.c_char_p, ctypes.POINTER(pointer)]
        lib.indexstore_error_get_description.restype = ctypes.c_char_p
        lib.indexstore_error_get_description.argtypes = [pointer]
        self.unit_callback = ctypes.CFUNCTYPE(ctypes.c_bool, pointer, StringRef)
        self.pointer_callback = ctypes.CFUNCTYPE(ctypes.c_bool, pointer, pointer)
        lib.indexstore_store_units_apply_f.argtypes = [pointer, ctypes.c_uint, pointer, self.unit_callback]
        lib.indexstore_unit_reader_create.restype = pointer
        lib.indexstore_unit_reader_create.argtypes = [pointer, ctypes.c_char_p, ctypes.POINTER(pointer)]
        lib.indexstore_unit_reader_dispose.argtypes = [pointer]
        for name in ["indexstore_unit_reader_get_module_name", "indexstore_unit_reader_get_main_file"]:
            getattr(lib, name).restype = StringRef
            getattr(lib, name).argtypes = [pointer]
        lib.indexstore_unit_reader_get_modification_time.argtypes = [
            pointer, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]
        lib.indexstore_unit_reader_has_main_file.restype = ctypes.c_bool
        lib.indexstore_unit_reader_has_main_file.argtypes = [pointer]
        lib.indexstore_unit_reader_dependencies_apply_f.argtypes = [pointer, pointer, self.pointer_callback]
        lib.indexstore_unit_dependency_get_kind.restype = ctypes.c_int
        lib.indexstore_unit_dependency_get_kind.argtypes = [pointer]
        lib.indexstore_unit_dependency_get_name.restype = StringRef
        lib.indexstore_unit_dependency_get_name.argtypes = [pointer]
        lib.indexstore_record_reader_create.restype = pointer
        lib.indexstore_record_reader_create.argtypes = [pointer, ctypes.c_char_p, ctypes.POINTER(pointer)]
        lib.indexstore_record_reader_dispose.argtypes = [pointer]
        lib.indexstore_record_reader_occurrences_apply_f.argtypes = [pointer, pointer, self.pointer_callback]
        lib.indexstore_occurrence_get_symbol.restype = pointer
        lib.indexstore_occurrence_get_symbol.argtypes = [pointer]
        lib.indexstore_occurrence_get_roles.restype = ctypes.c_uint64
        lib.indexstore_occurrence_get_roles.argtypes = [pointer]
        lib.indexstore_occurrence_get_line_col.argtypes = [
            pointer, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]
        lib.indexstore_occurrence_relations_apply_f.argtypes = [pointer, pointer, self.pointer_callback]
        lib.indexstore_symbol_relation_get_roles.restype = ctypes.c_uint64
        lib.indexstore_symbol_relation_get_roles.argtypes = [pointer]
        lib.indexstore_symbol_relation_get_symbol.restype = pointer
        lib.indexstore_symbol_relation_get_symbol.argtypes = [pointer]
        for name in ["indexstore_symbol_get_usr", "indexstore_symbol_get_name"]:
            getattr(lib, name).restype = StringRef
            getattr(lib, name).argtypes = [pointer]
        error = pointer()
        self.store = lib.indexstore_store_create(store_path.encode(), ctypes.byref(error))
        if not self.store:
            raise SetupError("cannot open the index store %s: %s" % (store_path, self.error_text(error)))

    def error_text(self, error):
        return self.lib.indexstore_error_get_description(error).decode() if error else "unknown error"

    def units(self):
        names = []

        def collect(_, name):
            names.append(name.text())
            return True

        self.lib.indexstore_store_units_apply_f(self.store, 1, None, self.unit_callback(collect))
        return names

    def unit(self, name):
        """(module name, main file, modification time, [record names]) of a unit, or None if it cannot be read."""
        lib = self.lib
        error = ctypes.c_void_p()
        reader = lib.indexstore_unit_reader_create(self.store, name.encode(), ctypes.byref(error))
        if not reader:
            return None
        try:
            module = lib.indexstore_unit_reader_get_module_name(reader).text()
            main = lib.indexstore_unit_reader_get_main_file(reader).text() if lib.indexstore_unit_reader_has_main_file(
                reader) else ""
            seconds, nanoseconds = ctypes.c_int64(), ctypes.c_int64()
            lib.indexstore_unit_reader_get_modification_time(reader, ctypes.byref(seconds), ctypes.byref(nanoseconds))
            records = []

            def dependency(_, item):
                if lib.indexstore_unit_dependency_get_kind(item) == DEPENDENCY_RECORD:
                    records.append(lib.indexstore_unit_dependency_get_name(item).text())
                return True

            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, self.pointer_callback(dependency))
            return module, main, seconds.value * 1_000_000_000 + nanoseconds.value, records
        finally:
            lib.indexstore_unit_reader_dispose(reader)

    def references(self, record):
        """[(usr, name, line, column, container usrs)] for every reference in a record."""
        lib = self.lib
        error = ctypes.c_void_p()
        reader = lib.indexstore_record_reader_create(self.store, record.encode(), ctypes.byref(error))
        if not reader:
            raise SetupError("cannot read index record %s: %s" % (record, self.error_text(error)))
        found = []

        def occurrence(_, item):
            roles = lib.indexstore_occurrence_get_roles(item)
            if not roles & ROLE_REFERENCE or roles & (ROLE_DECLARATION | ROLE_DEFINITION):
                return True
            symbol = lib.indexstore_occurrence_get_symbol(item)
            line, column = ctypes.c_uint(), ctypes.c_uint()
            lib.indexstore_occurrence_get_line_col(item, ctypes.byref(line), ctypes.byref(column))
            containers = []

            def relation(_, related):
                if lib.indexstore_symbol_relation_get_roles(related) & (REL_CONTAINEDBY | REL_CALLEDBY):
                    containers.append(lib.indexstore_symbol_get_usr(
                        lib.indexstore_symbol_relation_get_symbol(related)).text())
                return True

            lib.indexstore_occurrence_relations_apply_f(item, None, self.pointer_callback(relation))
            found.append((
                lib.indexstore_symbol_get_usr(symbol).text(), lib.indexstore_symbol_get_name(symbol).text(),
                line.value, column.value, containers))
            return True

        try:
            lib.indexstore_record_reader_occurrences_apply_f(reader, None, self.pointer_callback(occurrence))
        finally:
            lib.indexstore_record_reader_dispose(reader)
        return found


# MARK: The check


def find_violations(references, availability, minimums, sources):
    """Violations as sorted (path, line, column, message) tuples.

    `references`: (path, usr, name, line, column, containers); `availability`: {usr: (title, {platform:
    version | "unavailable"})}; `minimums`: {platform: version}; `sources`: {path: source text}.
    """
    platforms = sorted(minimums)
    exclusions = {path: excluded_lines(text, platforms) for path, text in sources.items()}
    violations = set()
    for path, usr, name, line, column, containers in references:
        known = availability.get(usr)
        if not known or not known[1]:
            continue
        title, needs = known
        enclosing = [availability[usr_][1] for usr_ in containers if usr_ in availability]
        for platform in platforms:
            if line in exclusions.get(path, {}).get(platform, ()):
                continue
            if any(entry.get(platform) == "unavailable" for entry in enclosing):
                continue  # the enclosing declaration is itself unavailable there
            minimum = max([minimums[platform]] + [
                entry[platform] for entry in enclosing if isinstance(entry.get(platform), tuple)])
            required = needs.get(platform)
            if required == "unavailable":
                message = "'%s' is unavailable on %s" % (title, platform)
            elif isinstance(required, tuple) and required > minimum:
                message = "'%s' needs %s %s, but the minimum here is %s %s" % (
                    title, platform, version_text(required), platform, version_text(minimum))
            else:
                continue
            violations.add((path, line, column, message))
    return sorted(violations)


def collect_references(store, package_dir, targets):
    """Every reference in the index store from the current sources of `targets`, and those sources."""
    sources_root = os.path.realpath(os.path.join(package_dir, "Sources"))
    newest = {}  # path: (modification time, records) of the file's latest unit
    for name in store.units():
        unit = store.unit(name)
        if not unit:
            continue
        module, main, modified, records = unit
        if module not in targets or not main:
            continue
        path = os.path.realpath(main)
        # A unit outlives a file that was deleted or moved; only files still in the target count.
        if not path.startswith(sources_root + os.sep) or not os.path.exists(path):
            continue
        if os.path.relpath(path, sources_root).split(os.sep)[0] != module:
            continue
        # Builds with other settings (a sanitizer) leave units of their own: the latest compile is the current one.
        if path not in newest or modified > newest[path][0]:
            newest[path] = (modified, records)
    references, sources = [], {}
    for path in sorted(newest):
        with open(path, encoding="utf-8") as file:
            sources[path] = file.read()
        for record in newest[path][1]:
            for usr, symbol_name, line, column, containers in store.references(record):
                references.append((path, usr, symbol_name, line, column, containers))
    return references, sources


def toolchain_paths():
    extractor = shutil.which("swift-symbolgraph-extract") or "/opt/swift/usr/bin/swift-symbolgraph-extract"
    if not os.path.exists(extractor):
        raise SetupError("swift-symbolgraph-extract is not on PATH (it ships with the Swift toolchain)")
    root = os.path.dirname(os.path.dirname(os.path.realpath(extractor)))
    return extractor, os.path.join(root, "lib", "libIndexStore.so")


def host_target():
    machine = os.uname().machine
    return "%s-unknown-linux-gnu" % ("aarch64" if machine in ("arm64", "aarch64") else machine)


def run(package_dir, index_store, modules_dir, targets, declaration_targets, out=sys.stdout, cache_dir=None):
    """Runs the check; returns the violations (and prints them)."""
    with open(os.path.join(package_dir, "Package.swift"), encoding="utf-8") as file:
        minimums = declared_minimums(file.read())
    if not os.path.isdir(index_store):
        raise SetupError("no index store at %s: run `swift build` first (SwiftPM indexes while building)" % index_store)
    extractor, library = toolchain_paths()
    target = host_target()
    cache_dir = cache_dir or os.path.join(package_dir, ".build", "availability")
    os.makedirs(cache_dir, exist_ok=True)
    availability = dict(toolchain_availability(extractor, target, cache_dir))
    with tempfile.TemporaryDirectory(dir=cache_dir) as scratch:
        availability.update(package_availability(
            extractor, target, modules_dir, targets + declaration_targets, package_dir, scratch))
    references, sources = collect_references(IndexStore(library, index_store), package_dir, targets)
    if not references:
        raise SetupError("the index store %s holds no references from %s: build them first" % (
            index_store, ", ".join(targets)))
    violations = find_violations(references, availability, minimums, sources)
    for path, line, column, message in violations:
        print("%s:%d:%d: error: %s" % (os.path.relpath(path, package_dir), line, column, message), file=out)
    declared = ", ".join("%s %s" % (platform, version_text(minimums[platform])) for platform in sorted(minimums))
    print("availability: %d references in %d files of %s checked against %s: %d violation%s" % (
        len(references), len(sources), ", ".join(targets), declared, len(violations),
        "" if len(violations) == 1 else "s"), file=out)
    return violations


def main(arguments):
    package_default = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default=package_default, help="the package directory")
    parser.add_argument("--index-store", help="default: PACKAGE/.build/debug/index/store")
    parser.add_argument("--modules", help="the built .swiftmodule files; default: PACKAGE/.build/debug/Modules")
    options = parser.parse_args(arguments)
    package_dir = os.path.abspath(options.package)
    index_store = options.index_store or os.path.join(package_dir, ".build", "debug", "index", "store")
    modules_dir = options.modules or os.path.join(package_dir, ".build", "debug", "Modules")
    try:
        violations = run(package_dir, index_store, modules_dir, APP_FACING_TARGETS, DECLARATION_ONLY_TARGETS)
    except SetupError as error:
        print("availability: %s" % error, file=sys.stderr)
        return 2
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
