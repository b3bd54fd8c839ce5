import Testing

@testable import PushbuttonCLI

@Suite struct ArgumentParserTests {
    static let output = Option<String>("--output", short: "-o", value: "DIR", help: "")
    static let button = RepeatableOption<String>("--button", value: "B", help: "")
    static let json = Flag("--json", help: "")
    let spec = ArgumentSpec(
        options: [Self.output, Self.button], flags: [Self.json], positionals: ["A", "B"], minimum: 1)

    @Test func parsesOptionsFlagsAndPositionalsInAnyOrder() throws {
        let parsed = try #require(
            try ArgumentParser.parse(["x", "--json", "-o", "out", "--button=a", "--button", "b"], spec: spec))
        #expect(parsed.positionals == ["x"])
        #expect(try parsed[Self.output] == "out")
        #expect(try parsed[Self.button] == ["a", "b"])
        #expect(parsed[Self.json])
    }

    @Test func dashIsStandardInputAndDoubleDashEndsOptions() throws {
        let parsed = try #require(try ArgumentParser.parse(["-", "--", "--json"], spec: spec))
        #expect(parsed.positionals == ["-", "--json"])
        #expect(!parsed[Self.json])
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
