import Testing

@testable import PushbuttonCLI

@Suite struct ArgumentParserTests {
    let spec = ArgumentSpec(
        options: [
            .init("--output", short: "-o", value: "DIR", help: ""),
            .init("--button", value: "B", help: "", repeatable: true),
        ],
        flags: [.init("--json", help: "")], positionals: ["A", "B"], minimum: 1)

    @Test func parsesOptionsFlagsAndPositionalsInAnyOrder() throws {
        let parsed = try #require(
            try ArgumentParser.parse(["x", "--json", "-o", "out", "--button=a", "--button", "b"], spec: spec))
        #expect(parsed.positionals == ["x"])
        #expect(parsed.value("--output") == "out")
        #expect(parsed.values("--button") == ["a", "b"])
        #expect(parsed.has("--json"))
    }

    @Test func dashIsStandardInputAndDoubleDashEndsOptions() throws {
        let parsed = try #require(try ArgumentParser.parse(["-", "--", "--json"], spec: spec))
        #expect(parsed.positionals == ["-", "--json"])
        #expect(!parsed.has("--json"))
    }

    @Test func helpStopsParsing() throws {
        #expect(try ArgumentParser.parse(["--bogus", "-h"], spec: spec) == nil)
        #expect(try ArgumentParser.parse(["x", "--help"], spec: spec) == nil)
    }

    @Test(arguments: [
        (["x", "--ouput", "d"], "unknown option '--ouput'; did you mean '--output'?"),
        (["x", "--output"], "--output needs a value (DIR)"),
        (["x", "-o", "a", "-o", "b"], "--output is given more than once"),
        (["x", "--json=yes"], "--json does not take a value"),
        ([], "missing argument: expected A B"),
        (["x", "y", "z"], "unexpected argument 'z'; expected A B"),
    ])
    func wrongCommandLinesAreUsageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ArgumentParser.parse(arguments, spec: spec) }
    }

    @Test func helpTextListsEveryOption() {
        let help = LintCommand().help
        #expect(help.hasPrefix("USAGE: pushbutton lint [options] MANIFEST"))
        for option in ["--json", "--strict", "-q, --quiet", "-h, --help"] { #expect(help.contains(option)) }
    }
}
