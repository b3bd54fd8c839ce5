import Foundation
import Testing

/// Push types and Live Activities from the command line: `lint`, `payload` and `send` (to `mock-apns`), run as a
/// user would.
@Suite(.timeLimit(.minutes(5))) struct PushTypeCommandTests {
    @Test func lintShowsEachLiveActivityProblemAtItsLine() throws {
        let result = try CLI.run([
            "lint", "--push-type", "liveactivity", "-q", "Examples/manifest.json",
            "Examples/payloads/live-activity-broken.json", "Examples/payloads/live-activity-start.json",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let file = "Examples/payloads/live-activity-broken.json"
        for expected in [
            "\(file):4:5: error: aps.timestamp: 'timestamp' (1800000000000) looks like milliseconds",
            "\(file):7:5: error: aps.input-push-channel: a start asks for a push token",
            "\(file):2:3: error: aps: starting a Live Activity needs 'attributes-type'",
            "\(file):2:3: error: aps: starting a Live Activity needs an alert [missing-alert]",
            "    hint: divide it by 1000",
        ] {
            #expect(result.stdout.contains(expected), "\(expected)\n\(result.stdout)")
        }
        #expect(result.stdout.contains("live-activity-start.json: 0 errors, 0 warnings, 0 notes"))
        let json = try CLI.run([
            "lint", "--push-type", "liveactivity", "--json", "Examples/manifest.json",
            "Examples/payloads/live-activity-start.json",
        ])
        #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
    }

    @Test func lintChecksWidgetsAndMDMPayloads() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let widgets = directory.appendingPathComponent("widgets.json")
        try Data(#"{"aps": {"content-changed": true}}"#.utf8).write(to: widgets)
        let mdm = directory.appendingPathComponent("mdm.json")
        try Data(#"{"mdm": "8D3C-push-magic"}"#.utf8).write(to: mdm)
        for type in ["widgets", "controls"] {
            let good = try CLI.run(["lint", "--push-type", type, "-q", "Examples/manifest.json", widgets.path])
            #expect(good.status == 0, "\(good.stdout)")
            let bad = try CLI.run([
                "lint", "--push-type", type, "-q", "Examples/manifest.json", "Examples/payloads/message.json",
            ])
            #expect(bad.status == 1)
            #expect(bad.stdout.contains(#"error: aps: a \#(type) push needs "content-changed": true [missing-field]"#))
        }
        #expect(try CLI.run(["lint", "--push-type", "mdm", "-q", "Examples/manifest.json", mdm.path]).status == 0)
        let background = try CLI.run([
            "lint", "--push-type", "background", "--priority", "1", "-q", "Examples/manifest.json", widgets.path,
        ])
        #expect(background.stdout.contains("APNs accepts only 5 and answers 400 BadPriority [priority-not-allowed]"))
    }
}
