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
    // Duration, Clock and Task.sleep(for:) are in the public API of every app-facing target: iOS 16 / tvOS 16 /
    // watchOS 9 / macOS 13. `make test` checks every reference against these (scripts/availability_check.py).
    // PushbuttonUserNotifications is empty on tvOS, which has no notification actions or categories.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Pushbutton", targets: ["Pushbutton"]),
        .library(name: "PushbuttonReceiver", targets: ["PushbuttonReceiver"]),
        // For an app's tests only (as swift-log's InMemoryLogging), so the app does not ship the simulator.
        .library(name: "PushbuttonReceiverTesting", targets: ["PushbuttonReceiverTesting"]),
        .library(name: "PushbuttonUserNotifications", targets: ["PushbuttonUserNotifications"]),
        .library(name: "PushbuttonOutbox", targets: ["PushbuttonOutbox"]),
        .library(name: "PushbuttonAPNs", targets: ["PushbuttonAPNs"]),
        .library(name: "PushbuttonAPNsMock", targets: ["PushbuttonAPNsMock"]),
        .library(name: "PushbuttonStore", targets: ["PushbuttonStore"]),
        .library(name: "PushbuttonGateway", targets: ["PushbuttonGateway"]),
        .library(name: "PushbuttonPreview", targets: ["PushbuttonPreview"]),
        .executable(name: "pushbutton", targets: ["pushbutton"]),
    ],
    targets: [
        // What several modules share and no app calls: the lock, clocks, Duration helpers, SplitMix64, backoff,
        // process exits. `package` access only, and not a product. Foundation only, like the model.
        .target(name: "PushbuttonSupport", swiftSettings: strictSettings),

        // The model: actions, categories, the manifest, built-ins, the legacy model, JSON.
        // Foundation only, so it compiles for Apple platforms too.
        .target(name: "Pushbutton", swiftSettings: strictSettings),

        // The device side: notification center protocol and simulator, registration that merges,
        // the action registry and the response router.
        .target(
            name: "PushbuttonReceiver", dependencies: ["Pushbutton", "PushbuttonSupport"], swiftSettings: strictSettings
        ),

        // Test doubles for the device side: the simulated notification center and system services, ManualClock.
        .target(
            name: "PushbuttonReceiverTesting", dependencies: ["PushbuttonReceiver", "Pushbutton", "PushbuttonSupport"],
            swiftSettings: strictSettings),

        // A Linux-only stand-in for Apple's UserNotifications, with Apple's names and signatures, so the
        // bridge below is compiled and tested here. On Apple platforms the bridge uses the real framework.
        .target(name: "UserNotificationsStandIn", dependencies: ["PushbuttonSupport"], swiftSettings: strictSettings),
        // The thin bridge between PushbuttonReceiver and UserNotifications.
        .target(
            name: "PushbuttonUserNotifications",
            dependencies: [
                "PushbuttonReceiver", "Pushbutton", "PushbuttonSupport",
                .target(name: "UserNotificationsStandIn", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strictSettings),

        // SQLite from Debian's libsqlite3-dev on Linux (the system's SQLite3 module on Apple platforms).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // One SQLite connection wrapper and migrator (WAL with retry, fsync per commit, migrations under the write
        // lock), shared by the outbox and the gateway's store; `package` API, not a product.
        .target(
            name: "PushbuttonSQLite", dependencies: [.target(name: "CSQLite", condition: .when(platforms: [.linux]))],
            swiftSettings: strictSettings),
        // libcurl (libcurl4-openssl-dev): the outbox's kept-alive HTTP sender on Linux (CurlSender).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Durable delivery of background taps, and the tap event log.
        .target(
            name: "PushbuttonOutbox",
            dependencies: [
                "PushbuttonReceiver", "Pushbutton", "PushbuttonSQLite", "PushbuttonSupport",
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strictSettings),

        // OpenSSL (libssl-dev) for ES256 provider tokens and, later, TLS; CryptoKit replaces it on Apple platforms.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // libnghttp2 (libnghttp2-dev): HTTP/2 framing for the sender's default transport and the mock APNs.
        .systemLibrary(name: "CNGHTTP2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]),
        // The HTTP/2 plumbing the sender and the mock share: the nghttp2 session callbacks, the socket channel
        // (TCP, optionally TLS), the outbound buffer, the loop wake-up.
        .target(
            name: "PushbuttonHTTP2",
            dependencies: [
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
                .target(name: "CNGHTTP2", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strictSettings),
        // The APNs sender: provider tokens, the request and response model, the retry policy, the transport.
        .target(
            name: "PushbuttonAPNs",
            dependencies: [
                "Pushbutton", "PushbuttonSupport", .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
                .target(name: "CNGHTTP2", condition: .when(platforms: [.linux])),
                "PushbuttonHTTP2",
            ],
            swiftSettings: strictSettings),

        // The mock APNs: an HTTP/2 server (nghttp2 and OpenSSL) that validates like APNs, verifies provider
        // tokens, injects faults, records, and delivers to simulated devices.
        .target(
            name: "PushbuttonAPNsMock",
            dependencies: [
                "Pushbutton", "PushbuttonAPNs", "PushbuttonReceiver", "PushbuttonReceiverTesting", "PushbuttonSupport",
                "COpenSSL", "CNGHTTP2", "PushbuttonHTTP2",
            ],
            swiftSettings: strictSettings),

        // h2o (libh2o-evloop-dev): the gateway's HTTP/1.1 and HTTP/2 server, cleartext or TLS on OpenSSL.
        .systemLibrary(name: "CH2O", providers: [.apt(["libh2o-evloop-dev"])]),
        // libpq (libpq-dev): the gateway's PostgreSQL store.
        .systemLibrary(name: "CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // The gateway's durable state (devices, the notification queue, outcomes, campaigns) in SQLite or
        // PostgreSQL.
        .target(
            name: "PushbuttonStore",
            dependencies: [
                "Pushbutton", "PushbuttonSupport", "CPostgreSQL", "PushbuttonSQLite",
            ],
            swiftSettings: strictSettings),
        // How iOS shows a notification and its buttons, as HTML and SVG: `pushbutton preview` and the console.
        .target(
            name: "PushbuttonPreview", dependencies: ["Pushbutton", "PushbuttonSupport"], swiftSettings: strictSettings),
        // `pushbutton serve`: the HTTP API, API keys, validation, the workers over APNsClient, webhook, metrics.
        .target(
            name: "PushbuttonGateway",
            dependencies: [
                "Pushbutton", "PushbuttonAPNs", "PushbuttonStore", "PushbuttonOutbox", "PushbuttonReceiver", "CH2O",
                "COpenSSL", "PushbuttonSupport",
                "PushbuttonPreview",
            ],
            swiftSettings: strictSettings),

        // The command line's logic as a library, so its argument parsing and commands are testable.
        .target(
            name: "PushbuttonCLI",
            dependencies: [
                "Pushbutton", "PushbuttonReceiver", "PushbuttonOutbox", "PushbuttonAPNs", "PushbuttonAPNsMock",
                "PushbuttonGateway", "PushbuttonSupport", "PushbuttonReceiverTesting",
                "PushbuttonPreview",
            ],
            swiftSettings: strictSettings),
        .executableTarget(name: "pushbutton", dependencies: ["PushbuttonCLI"], swiftSettings: strictSettings),

        // Benchmarks (run by `make bench`), built in release mode only by the benchmark scripts.
        .executableTarget(
            name: "PayloadBenchmark", dependencies: ["Pushbutton"], path: "Benchmarks/PayloadBenchmark",
            swiftSettings: strictSettings),
        .executableTarget(
            name: "OutboxBenchmark", dependencies: ["PushbuttonOutbox", "PushbuttonReceiver", "Pushbutton"],
            path: "Benchmarks/OutboxBenchmark", swiftSettings: strictSettings),
        .executableTarget(
            name: "LatencyBenchmark", dependencies: ["PushbuttonAPNs", "Pushbutton", "PushbuttonSupport"],
            path: "Benchmarks/LatencyBenchmark", swiftSettings: strictSettings),
        .executableTarget(
            name: "AudienceBenchmark", dependencies: ["PushbuttonStore"], path: "Benchmarks/AudienceBenchmark",
            swiftSettings: strictSettings),
        .executableTarget(
            name: "OutcomeEventsBenchmark", dependencies: ["PushbuttonStore"],
            path: "Benchmarks/OutcomeEventsBenchmark", swiftSettings: strictSettings),

        // What the test targets share: an async subprocess runner, one local-server helper, temporary directories.
        .target(
            name: "PushbuttonTestSupport", dependencies: ["PushbuttonSupport"], path: "Tests/PushbuttonTestSupport",
            swiftSettings: strictSettings),
        .testTarget(
            name: "PushbuttonTests", dependencies: ["Pushbutton", "PushbuttonSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "PushbuttonReceiverTests",
            dependencies: ["PushbuttonReceiver", "PushbuttonReceiverTesting", "Pushbutton", "PushbuttonSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PushbuttonUserNotificationsTests",
            dependencies: [
                "PushbuttonTestSupport",
                "PushbuttonUserNotifications", "PushbuttonReceiver", "PushbuttonReceiverTesting", "Pushbutton",
                "PushbuttonSupport",
                .target(name: "UserNotificationsStandIn", condition: .when(platforms: [.linux])),
                "PushbuttonOutbox",
            ],
            // Source the tests compile with swiftc themselves (a Swift 6 app delegate), not part of the target.
            exclude: ["Fixtures"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PushbuttonOutboxTests",
            dependencies: [
                "PushbuttonTestSupport",
                "PushbuttonOutbox", "PushbuttonSQLite", "PushbuttonReceiver", "PushbuttonReceiverTesting", "Pushbutton",
                "PushbuttonSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PushbuttonAPNsTests",
            dependencies: [
                "PushbuttonTestSupport", "PushbuttonAPNs", "Pushbutton", "PushbuttonSupport", "PushbuttonHTTP2",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PushbuttonAPNsMockTests",
            dependencies: [
                "PushbuttonTestSupport",
                "PushbuttonAPNsMock", "PushbuttonAPNs", "PushbuttonReceiver", "PushbuttonReceiverTesting", "Pushbutton",
                "PushbuttonSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PushbuttonStoreTests",
            dependencies: [
                "PushbuttonTestSupport", "PushbuttonStore", "Pushbutton", "PushbuttonSQLite", "PushbuttonSupport",
                "PushbuttonReceiverTesting",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PushbuttonGatewayTests",
            dependencies: [
                "PushbuttonTestSupport",
                "PushbuttonGateway", "PushbuttonStore", "PushbuttonAPNs", "PushbuttonAPNsMock", "PushbuttonOutbox",
                "Pushbutton", "pushbutton", "PushbuttonSupport",
                "PushbuttonReceiver", "PushbuttonReceiverTesting",
                "PushbuttonPreview",
                "PushbuttonUserNotifications",
                .target(name: "UserNotificationsStandIn", condition: .when(platforms: [.linux])),
            ],
            // Data the tests read by path (scripts/experiment_stats_check.py writes the expected statistics there).
            exclude: ["Fixtures"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PushbuttonCLITests",
            dependencies: [
                "PushbuttonTestSupport", "PushbuttonAPNs", "PushbuttonAPNsMock",
                "PushbuttonCLI", "Pushbutton", "PushbuttonOutbox", "PushbuttonReceiver", "pushbutton",
                "PushbuttonSupport",
                "PushbuttonPreview",
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
