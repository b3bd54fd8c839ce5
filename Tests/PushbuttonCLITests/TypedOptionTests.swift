import Testing

@testable import PushbuttonCLI

/// The typed option declarations: each converts its text, with its one-line error, where it is declared.
@Suite struct TypedOptionTests {
    static let connections = Option<Int>("--connections", value: "N", help: "", range: 1...64)
    static let score = Option<Double>("--score", value: "X", help: "", range: 0...1)
    static let timeout = Option<Duration>("--timeout", help: "", seconds: 1...86_400)
    static let topic = Option<String>("--topic", value: "BUNDLE", help: "", header: "apns-topic")
    static let ports = RepeatableOption<Int>("--port", value: "PORT", help: "") { text, option throws(UsageError) in
        try OptionValue.integer(text, option: option, in: 1...65535)
    }
    static let quiet = Flag("--quiet", short: "-q", help: "")
    let spec = ArgumentSpec(
        options: [Self.connections, Self.score, Self.timeout, Self.topic, Self.ports], flags: [Self.quiet])

    func parse(_ arguments: [String]) throws -> ParsedArguments {
        try #require(try ArgumentParser.parse(arguments, spec: spec))
    }

    @Test func valuesAreConvertedToTheDeclaredType() throws {
        let parsed = try parse([
            "--connections", "8", "--score=0.5", "--timeout", "1.25", "--topic", "com.example", "--port", "1",
            "--port", "443", "-q",
        ])
        #expect(try parsed[Self.connections] == 8)
        #expect(try parsed[Self.score] == 0.5)
        #expect(try parsed[Self.timeout] == .milliseconds(1250))
        #expect(try parsed[Self.topic] == "com.example")
        #expect(try parsed[Self.ports] == [1, 443])
        #expect(parsed[Self.quiet])
        #expect(parsed.isGiven(Self.connections))
    }

    @Test func anOptionNotGivenReadsAsNilAndARequiredOneIsAUsageError() throws {
        let parsed = try parse([])
        #expect(try parsed[Self.connections] == nil)
        #expect(try parsed[Self.ports] == [])
        #expect(!parsed[Self.quiet])
        #expect(!parsed.isGiven(Self.topic))
        #expect(throws: UsageError("--topic is required")) { try parsed.required(Self.topic) }
    }

    @Test(arguments: [
        (["--connections", "0"], "--connections must be a whole number from 1 to 64, got '0'"),
        (["--connections", "1.5"], "--connections must be a whole number from 1 to 64, got '1.5'"),
        (["--score", "nan"], "--score must be a number from 0 to 1, got 'nan'"),
        (["--timeout", "0.5"], "--timeout must be a number from 1 to 86400, got '0.5'"),
        (["--port", "1", "--port", "70000"], "--port must be a whole number from 1 to 65535, got '70000'"),
    ])
    func aValueThatDoesNotConvertIsAUsageErrorNamingTheOption(arguments: [String], message: String) throws {
        let parsed = try parse(arguments)
        #expect(throws: UsageError(message)) {
            _ = try parsed[Self.connections]
            _ = try parsed[Self.score]
            _ = try parsed[Self.timeout]
            _ = try parsed[Self.ports]
        }
    }

    @Test func aHeaderOptionRefusesControlCharacters() throws {
        let parsed = try parse(["--topic", "com.example\r\nx-injected: 1"])
        #expect(throws: UsageError.self) { try parsed[Self.topic] }
        do {
            _ = try parsed[Self.topic]
        } catch {
            #expect(error.message.hasPrefix("--topic: "))
        }
    }

    @Test func everyCommandDeclaresEachNameOnce() {
        for command in CommandLineTool.allCommands {
            let names =
                command.arguments.options.flatMap { [$0.name] + [$0.short].compactMap { $0 } }
                + command.arguments.flags.flatMap { [$0.name] + [$0.short].compactMap { $0 } }
            #expect(Set(names).count == names.count, "\(command.name): \(names)")
            #expect(!names.contains("--help") && !names.contains("-h"), "\(command.name)")
        }
    }
}
