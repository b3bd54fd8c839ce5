"""Tests of scripts/availability_check.py: its parts on made-up inputs, and the whole check on a small module
compiled here with an index store (run by `make test`: python3 -m unittest scripts/test_availability_check.py)."""

import io
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import availability_check as check  # noqa: E402


class DeclaredMinimumsTests(unittest.TestCase):
    def test_reads_enum_and_string_versions(self):
        text = 'platforms: [.macOS(.v13), .iOS(.v16), .tvOS("16.4"), .watchOS(.v9_1)],'
        self.assertEqual(
            check.declared_minimums(text), {"macOS": (13, 0), "iOS": (16, 0), "tvOS": (16, 4), "watchOS": (9, 1)})

    def test_a_package_without_platforms_is_a_setup_error(self):
        with self.assertRaises(check.SetupError):
            check.declared_minimums("let package = Package(name: \"X\")")


class ConditionalCompilationTests(unittest.TestCase):
    PLATFORMS = ["iOS", "macOS", "tvOS", "watchOS"]

    def test_os_conditions_exclude_lines_per_platform(self):
        source = "\n".join([
            "a",  # 1
            "#if !os(tvOS)",  # 2
            "b",  # 3
            "    #if os(macOS)",  # 4
            "    c",  # 5
            "    #elseif os(watchOS) || os(iOS)",  # 6
            "    d",  # 7
            "    #else",  # 8
            "    e",  # 9
            "    #endif",  # 10
            "#endif",  # 11
            "f",  # 12
        ])
        excluded = check.excluded_lines(source, self.PLATFORMS)
        self.assertEqual(excluded["tvOS"], {3, 5, 7, 9})
        self.assertEqual(excluded["macOS"], {7, 9})
        self.assertEqual(excluded["iOS"], {5, 9})
        self.assertEqual(excluded["watchOS"], {5, 9})

    def test_the_stand_in_branch_is_not_compiled_on_apple_platforms(self):
        source = "#if canImport(UserNotifications)\nimport UserNotifications\n#else\nstandIn()\n#endif\n"
        excluded = check.excluded_lines(source, self.PLATFORMS)
        for platform in self.PLATFORMS:
            self.assertEqual(excluded[platform], {4})

    def test_an_unknown_condition_is_checked_on_every_branch(self):
        source = "#if DEBUG\na\n#else\nb\n#endif\n"
        excluded = check.excluded_lines(source, self.PLATFORMS)
        self.assertEqual(excluded["iOS"], set())  # `DEBUG` may be either: both branches are checked

    def test_condition_operators(self):
        self.assertIs(check.evaluate_condition("os(iOS) && !os(macOS)", "iOS"), True)
        self.assertIs(check.evaluate_condition("os(iOS) && !os(macOS)", "macOS"), False)
        self.assertIs(check.evaluate_condition("(os(iOS) || os(tvOS)) && canImport(Glibc)", "tvOS"), False)
        self.assertIs(check.evaluate_condition("os(Linux)", "iOS"), False)


class ViolationTests(unittest.TestCase):
    MINIMUMS = {"iOS": (16, 0), "macOS": (13, 0), "tvOS": (16, 0)}

    def test_newer_and_unavailable_symbols_are_reported_and_enclosing_availability_raises_the_minimum(self):
        availability = {
            "new": ("String.init(validating:as:)", {"iOS": (18, 0), "macOS": (15, 0), "tvOS": (18, 0)}),
            "old": ("Duration", {"iOS": (16, 0), "macOS": (13, 0), "tvOS": (16, 0)}),
            "noTV": ("UNNotificationCategory", {"iOS": (10, 0), "tvOS": "unavailable"}),
            "gated": ("gated()", {"iOS": (18, 0), "macOS": (15, 0), "tvOS": "unavailable"}),
        }
        source = "\n".join(["one", "two", "#if !os(tvOS)", "three", "#endif", "five"])
        references = [
            ("f.swift", "new", "init", 1, 5, []),
            ("f.swift", "old", "Duration", 2, 5, []),
            ("f.swift", "noTV", "UNNotificationCategory", 4, 1, []),  # inside #if !os(tvOS)
            ("f.swift", "noTV", "UNNotificationCategory", 6, 1, []),
            ("f.swift", "new", "init", 6, 9, ["gated"]),  # in a declaration that needs iOS 18 / macOS 15
            ("f.swift", "unknown", "glibcCall", 6, 20, []),
        ]
        violations = check.find_violations(references, availability, self.MINIMUMS, {"f.swift": source})
        self.assertEqual([(line, column) for _, line, column, _ in violations], [(1, 5), (1, 5), (1, 5), (6, 1)])
        messages = [message for *_, message in violations]
        self.assertIn("'String.init(validating:as:)' needs iOS 18.0, but the minimum here is iOS 16.0", messages)
        self.assertIn("'UNNotificationCategory' is unavailable on tvOS", messages)

    def test_a_requirement_added_later_is_usable_where_its_default_implementation_is(self):
        table = {
            "requirement": ("FixedWidthInteger.&*(_:_:)", {"iOS": (18, 0), "tvOS": (18, 0)}),
            "default": ("FixedWidthInteger.&*(_:_:)", {"tvOS": (17, 0)}),
        }
        check.apply_default_implementations(table, [("default", "requirement")])
        self.assertEqual(table["requirement"][1], {"tvOS": (17, 0)})


class WholeCheckTests(unittest.TestCase):
    """The real pipeline: swiftc indexes a module here, and the check reads that index and the toolchain's
    symbol graphs."""

    SOURCE = "\n".join([
        "public func decode(_ bytes: [UInt8]) -> String? {",
        "    String(validating: bytes, as: UTF8.self)",  # line 2: iOS 18 / macOS 15
        "}",
        "public func pause() -> Duration { .seconds(1) }",  # line 4: iOS 16 / macOS 13, the minimums
        "#if os(macOS)",
        "#else",
        "    public func later() -> String? { String(validating: [UInt8(65)], as: UTF8.self) }",  # line 7: not macOS
        "#endif",
        "@available(iOS 18, macOS 15, *)",
        "public func gated() -> String? { String(validating: [UInt8(65)], as: UTF8.self) }",  # line 10: gated
        "",
    ])

    def test_reports_exactly_the_uses_beyond_the_minimums(self):
        extractor, _ = check.toolchain_paths()
        swiftc = os.path.join(os.path.dirname(extractor), "swiftc")
        with tempfile.TemporaryDirectory() as package:
            os.makedirs(os.path.join(package, "Sources", "Fixture"))
            with open(os.path.join(package, "Package.swift"), "w") as file:
                file.write("let package = Package(name: \"Fixture\", platforms: [.iOS(.v16), .macOS(.v13)])\n")
            path = os.path.join(package, "Sources", "Fixture", "Fixture.swift")
            with open(path, "w") as file:
                file.write(self.SOURCE)
            modules, store = os.path.join(package, "modules"), os.path.join(package, "store")
            os.makedirs(modules)
            subprocess.run(
                [swiftc, "-module-name", "Fixture", "-parse-as-library", "-emit-module", "-emit-module-path",
                 os.path.join(modules, "Fixture.swiftmodule"), "-index-store-path", store, "-c", path, "-o",
                 os.path.join(package, "Fixture.o")], check=True, capture_output=True)
            output = io.StringIO()
            # The toolchain's symbol graphs are cached with the repository's (they do not depend on the package).
            cache = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".build", "availability")
            violations = check.run(package, store, modules, ["Fixture"], [], out=output, cache_dir=cache)
        found = sorted({(line, message) for _, line, _, message in violations})
        self.assertEqual(found, [
            (2, "'String.init(validating:as:)' needs iOS 18.0, but the minimum here is iOS 16.0"),
            (2, "'String.init(validating:as:)' needs macOS 15.0, but the minimum here is macOS 13.0"),
            (7, "'String.init(validating:as:)' needs iOS 18.0, but the minimum here is iOS 16.0"),
        ])
        self.assertIn("3 violations", output.getvalue())


if __name__ == "__main__":
    unittest.main()
