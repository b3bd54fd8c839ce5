import Foundation
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

/// An iOS app's Swift 6 delegate must be able to hand Pushbutton the completion handlers UIKit and
/// UserNotifications give it, which are not `@Sendable`. These tests compile such a file with `swiftc -swift-version 6`
/// against the modules this build made.
@Suite(.timeLimit(.minutes(2))) struct AppDelegateCompileTests {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// The directory with the built `.swiftmodule`s (next to the test bundle).
    static func modulesDirectory() throws -> URL {
        let candidates =
            [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            .compactMap { $0?.deletingLastPathComponent() }
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for directory in candidates {
            let modules = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(
                atPath: modules.appendingPathComponent("PushbuttonUserNotifications.swiftmodule").path)
            {
                return modules
            }
        }
        throw CompileError("the built modules were not found next to the tests in \(candidates); run 'swift build'")
    }

    struct CompileError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Type-checks `source` in Swift 6 mode; returns the exit status and the compiler's output.
    static func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushbutton-appdelegate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("AppDelegate.swift")
        try Data(source.utf8).write(to: file)
        let output = directory.appendingPathComponent("output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let modules = try modulesDirectory()
        let swiftc = ChildProcess()
        swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swiftc.arguments = [
            "swiftc", "-swift-version", "6", "-typecheck", "-I", modules.path, "-I",
            modules.deletingLastPathComponent().path, file.path,
        ]
        let handle = try FileHandle(forWritingTo: output)
        swiftc.standardOutput = handle
        swiftc.standardError = handle
        try swiftc.run()
        let exit = ProcessExit.wait(for: swiftc)
        try handle.close()
        return (exit.status, String(decoding: try Data(contentsOf: output), as: UTF8.self))
    }

    static func fixture() throws -> String {
        String(
            decoding: try Data(contentsOf: testsDirectory.appendingPathComponent("Fixtures/AppDelegate.swift.txt")),
            as: UTF8.self)
    }

    @Test func aSwift6AppDelegateForwardsApplesCallbacksToPushbutton() async throws {
        let source = try Self.fixture()
        // swiftc takes half a minute here: off the cooperative pool, so the suites beside it keep running.
        let result = try await OffPool.run { try Self.typecheck(source) }
        #expect(result.status == 0, "\(result.output)")
    }

    /// The check is real: the same delegate against an API that demands `@Sendable` (as Pushbutton's did) fails.
    @Test func demandingASendableCompletionHandlerWouldNotCompile() async throws {
        let demanding =
            try Self.fixture()
                + """

                extension AppDelegate {
                    func forward(_ completionHandler: @escaping () -> Void) { demand(completionHandler) }
                }
                func demand(_ handler: @escaping @Sendable () -> Void) {}

                """
        let result = try await OffPool.run { try Self.typecheck(demanding) }
        #expect(result.status != 0)
        #expect(result.output.contains("Sendable"), "\(result.output)")
    }
}
