import Foundation
import Testing

/// `pushbutton simulate`, run as a user would.
@Suite(.timeLimit(.minutes(5))) struct SimulateCommandTests {
    @Test func aBackgroundButtonCallsTheBackendAndCompletesOnce() async throws {
        let result = try await CLI.run([
            "simulate", "Examples/payloads/message.json", "--manifest", "Examples/manifest.json", "--tap", "like",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("[Like] like, runs in the background, needs unlock 🔒, icon heart"))
        #expect(result.stdout.contains("[Delete] delete, runs in the background, destructive (red), needs unlock 🔒"))
        #expect(result.stdout.contains("routed as a background button"))
        #expect(
            result.stdout.contains("→ backend: POST https://api.example.com/messages/42/like (idempotency key sim-"))
        #expect(result.stdout.contains(":like:0)"))
        #expect(result.stdout.contains("Completion handler called 1 time(s)"))
    }

    @Test func aReplyReachesTheBackendInTheDevicesLanguage() async throws {
        let result = try await CLI.run([
            "simulate", "Examples/payloads/message.json", "--manifest", "Examples/manifest.json", "--tap", "reply",
            "--text",
            "À midi", "--locale", "fr",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("[Répondre] reply"))
        #expect(result.stdout.contains(#"body {"data":null,"reply":"À midi"}"#))
    }

    @Test func aBodyTapOpensTheDeepLinkAndActionArgsReachTheMatchingAction() async throws {
        let body = try await CLI.run([
            "simulate", "Examples/payloads/message.json", "--manifest", "Examples/manifest.json", "--tap", "body",
            "--app-state", "killed",
        ])
        #expect(body.stdout.contains("App state: killed — the tap launches the app"))
        #expect(body.stdout.contains("→ opened chatter://conversation/anna"))
        let friend = try await CLI.run([
            "simulate", "Examples/payloads/friend-request.json", "--manifest", "Examples/manifest.json", "--tap",
            "ignore",
        ])
        #expect(
            friend.stdout.contains(
                #"app action 'ignore' ran (background button) with {"source":"suggestions","user_id":7}"#))
    }

    @Test func aDismissalWithoutCustomDismissActionIsNotReported() async throws {
        let result = try await CLI.run([
            "simulate", "Examples/payloads/friend-request.json", "--manifest", "Examples/manifest.json", "--tap",
            "dismiss",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("not reported to the app: the category lacks customDismissAction"))
    }

    @Test func dynamicButtonsAreRegisteredOnTheFly() async throws {
        let result = try await CLI.run([
            "simulate", "Examples/payloads/dynamic.json", "--manifest", "Examples/manifest.json", "--tap", "going",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Registered pushbutton.dyn.0c26edca6249816d for the payload's own buttons"))
        #expect(result.stdout.contains(#"app action 'rsvp' ran (background button) with {"answer":"yes","event":9}"#))
    }

    @Test func anUnknownCategoryShowsNoButtonsAndTheTapFails() async throws {
        let result = try await CLI.run([
            "simulate", "Examples/payloads/broken.json", "--manifest", "Examples/manifest.json", "--tap", "track",
        ])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "no buttons: category 'order_shiped' is not registered on the device (iOS shows no error)"))
        #expect(result.stderr.hasPrefix("pushbutton: error: the tap is not possible on the device:"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func tapsCanBeCommittedToAnOutboxAndLogged() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("taps.sqlite").path
        for _ in 0..<2 {
            let result = try await CLI.run([
                "simulate", "Examples/payloads/message.json", "--manifest", "Examples/manifest.json", "--tap", "like",
                "--outbox", database,
            ])
            #expect(result.status == 0)
            #expect(result.stdout.contains("committed to the outbox (durable)"))
        }
        #expect(try await CLI.run(["outbox", "status", database]).stdout.contains("pending:        2"))
        #expect(try await CLI.run(["stats", database]).stdout.contains("message: 2 responses"))
    }

    @Test func missingOptionsAreUsageErrors() async throws {
        #expect(try await CLI.run(["simulate", "Examples/payloads/message.json", "--tap", "like"]).status == 2)
        #expect(
            try await CLI.run(["simulate", "Examples/payloads/message.json", "--manifest", "Examples/manifest.json"])
                .status
                == 2)
        #expect(
            try await CLI.run([
                "simulate", "Examples/payloads/message.json", "--manifest", "Examples/manifest.json", "--tap", "like",
                "--app-state", "asleep",
            ]).status == 2)
    }
}
