import Foundation
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

/// The sample app in Examples/iOS is type-checked in Swift 6 mode against the stand-in, as the three programs an
/// Xcode project makes of it (project.yml): the SwiftUI app, the UIKit app and the service extension.
@Suite(.timeLimit(.minutes(3))) struct SampleAppCompileTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/iOS").standardized

    /// The C modules PushbuttonOutbox imports (SQLite, libcurl), whose module maps the app's compiler must see.
    static let systemLibraries = ["CSQLite", "CCurl"].map {
        sample.appendingPathComponent("../../Sources/\($0)").standardized
    }

    /// Type-checks `files` (relative to Examples/iOS) as one module; returns the exit status and the output.
    static func typecheck(_ files: [String], module: String) throws -> (status: Int32, output: String) {
        let modules = try AppDelegateCompileTests.modulesDirectory()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let swiftc = ChildProcess()
        swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swiftc.arguments =
            [
                "swiftc", "-swift-version", "6", "-typecheck", "-parse-as-library", "-module-name", module,
                "-I", modules.path, "-I", modules.deletingLastPathComponent().path,
            ] + systemLibraries.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)/module.modulemap", "-I", $0.path] }
            + files.map { sample.appendingPathComponent($0).path }
        let handle = try FileHandle(forWritingTo: output)
        swiftc.standardOutput = handle
        swiftc.standardError = handle
        try swiftc.run()
        let exit = ProcessExit.wait(for: swiftc)
        try handle.close()
        return (exit.status, String(decoding: try Data(contentsOf: output), as: UTF8.self))
    }

    @Test func theSwiftUIAppCompiles() async throws {
        let result = try await OffPool.run {
            try Self.typecheck(
                ["Chatter/ChatterApp.swift", "Chatter/ChatterAppDelegate.swift", "Chatter/ChatterActions.swift"],
                module: "Chatter")
        }
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func theUIKitAppCompiles() async throws {
        let result = try await OffPool.run {
            try Self.typecheck(
                ["ChatterUIKit/AppDelegate.swift", "Chatter/ChatterAppDelegate.swift", "Chatter/ChatterActions.swift"],
                module: "ChatterUIKit")
        }
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func theServiceExtensionCompiles() async throws {
        let result = try await OffPool.run {
            try Self.typecheck(["NotificationService/NotificationService.swift"], module: "NotificationService")
        }
        #expect(result.status == 0, "\(result.output)")
    }

    /// Every Swift file of the sample is in one of the programs above, so none goes unchecked.
    @Test func everySwiftFileOfTheSampleIsChecked() throws {
        let checked: Set<String> = [
            "Chatter/ChatterApp.swift", "Chatter/ChatterAppDelegate.swift", "Chatter/ChatterActions.swift",
            "ChatterUIKit/AppDelegate.swift", "NotificationService/NotificationService.swift",
        ]
        let found = try FileManager.default.subpathsOfDirectory(atPath: Self.sample.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(Set(found) == checked)
    }
}
