// swift-tools-version:6.0
import PackageDescription

/// Every target is built in the Swift 6 language mode (complete strict concurrency checking),
/// with existential `any` spelled out, as swift-log does for all of its targets.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Pushbutton",
    platforms: [.macOS(.v13), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "Pushbutton", targets: ["Pushbutton"]),
        .library(name: "PushbuttonReceiver", targets: ["PushbuttonReceiver"]),
        .executable(name: "pushbutton", targets: ["pushbutton"]),
    ],
    targets: [
        // The model: actions, categories, the manifest, built-ins, the legacy model, JSON.
        // Foundation only, so it compiles for Apple platforms too.
        .target(name: "Pushbutton", swiftSettings: strictSettings),

        // The device side: notification center protocol and simulator, registration that merges,
        // the action registry and the response router.
        .target(name: "PushbuttonReceiver", dependencies: ["Pushbutton"], swiftSettings: strictSettings),

        // The command line's logic as a library, so its argument parsing and commands are testable.
        .target(
            name: "PushbuttonCLI", dependencies: ["Pushbutton", "PushbuttonReceiver"], swiftSettings: strictSettings),
        .executableTarget(name: "pushbutton", dependencies: ["PushbuttonCLI"], swiftSettings: strictSettings),

        // Benchmarks (run by `make bench`), built in release mode only by the benchmark scripts.
        .executableTarget(
            name: "PayloadBenchmark", dependencies: ["Pushbutton"], path: "Benchmarks/PayloadBenchmark",
            swiftSettings: strictSettings),

        .testTarget(name: "PushbuttonTests", dependencies: ["Pushbutton"], swiftSettings: strictSettings),
        .testTarget(
            name: "PushbuttonReceiverTests", dependencies: ["PushbuttonReceiver", "Pushbutton"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PushbuttonCLITests",
            dependencies: ["PushbuttonCLI", "Pushbutton", "pushbutton"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
