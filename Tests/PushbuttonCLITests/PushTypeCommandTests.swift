import Foundation
import Pushbutton
import Testing

/// Push types and Live Activities from the command line: `lint`, `payload` and `send` (to `mock-apns`), run as a
/// user would.
@Suite(.timeLimit(.minutes(5))) struct PushTypeCommandTests {
    @Test func lintShowsEachLiveActivityProblemAtItsLine() async throws {
        let result = try await CLI.run([
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
        let json = try await CLI.run([
            "lint", "--push-type", "liveactivity", "--json", "Examples/manifest.json",
            "Examples/payloads/live-activity-start.json",
        ])
        #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
    }

    @Test func lintChecksWidgetsAndMDMPayloads() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let widgets = directory.appendingPathComponent("widgets.json")
        try Data(#"{"aps": {"content-changed": true}}"#.utf8).write(to: widgets)
        let mdm = directory.appendingPathComponent("mdm.json")
        try Data(#"{"mdm": "8D3C-push-magic"}"#.utf8).write(to: mdm)
        for type in ["widgets", "controls"] {
            let good = try await CLI.run(["lint", "--push-type", type, "-q", "Examples/manifest.json", widgets.path])
            #expect(good.status == 0, "\(good.stdout)")
            let bad = try await CLI.run([
                "lint", "--push-type", type, "-q", "Examples/manifest.json", "Examples/payloads/message.json",
            ])
            #expect(bad.status == 1)
            #expect(bad.stdout.contains(#"error: aps: a \#(type) push needs "content-changed": true [missing-field]"#))
        }
        #expect(
            try await CLI.run(["lint", "--push-type", "mdm", "-q", "Examples/manifest.json", mdm.path]).status == 0)
        let background = try await CLI.run([
            "lint", "--push-type", "background", "--priority", "1", "-q", "Examples/manifest.json", widgets.path,
        ])
        #expect(background.stdout.contains("APNs accepts only 5 and answers 400 BadPriority [priority-not-allowed]"))
    }

    @Test func payloadBuildsLiveActivityAndReloadPushes() async throws {
        let update = try await CLI.run([
            "payload", "--push-type", "liveactivity", "--event", "update", "--content-state", #"{"minutes":4}"#,
            "--timestamp", "1800000000", "--topic", "com.example.chatter.push-type.liveactivity",
        ])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(
            try JSONParser.parse(update.stdout)
                == ["aps": ["event": "update", "timestamp": 1_800_000_000, "content-state": ["minutes": 4]]])
        let start = try await CLI.run([
            "payload", "--push-type", "liveactivity", "--event", "start", "--content-state", "{}",
            "--attributes-type", "DeliveryAttributes", "--attributes", #"{"order":42}"#, "--title", "On its way",
            "--input-push-token",
        ])
        #expect(start.status == 0, "\(start.stderr)")
        let aps = try JSONParser.parse(start.stdout)["aps"]
        #expect(aps?["input-push-token"] == 1 && aps?["attributes"] == ["order": 42])
        #expect((aps?["timestamp"]?.integerValue ?? 0) > 1_700_000_000)  // now, by default
        let reload = try await CLI.run(["payload", "--push-type", "controls", "--content-changed"])
        #expect(reload.stdout == #"{"aps":{"content-changed":true}}"# + "\n", "\(reload.stderr)")
    }

    @Test func payloadRefusesWhatALiveActivityCannotBe() async throws {
        let missing = try await CLI.run([
            "payload", "--push-type", "liveactivity", "--event", "start", "--content-state", "{}",
        ])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        #expect(missing.stderr.contains("payload: error: aps: starting a Live Activity needs 'attributes-type'"))
        #expect(missing.stderr.contains(#"    hint: add "alert": {"title": …, "body": …}"#))
        #expect(missing.stderr.hasSuffix("pushbutton: error: the payload does not pass validation (see above)\n"))
        let topic = try await CLI.run([
            "payload", "--push-type", "liveactivity", "--event", "end", "--topic", "com.example.chatter",
        ])
        #expect(topic.status == 1)
        #expect(topic.stderr.contains("hint: send it to 'com.example.chatter.push-type.liveactivity'"))
        for (arguments, message) in [
            (["--event", "begin"], "--event 'begin' is not a Live Activity event; use start, update or end"),
            (["--event", "updat"], "did you mean 'update'?"),
            (["--content-state", "[1]"], "--content-state must be a JSON object, not an array"),
            (["--attributes", "{"], "--attributes: not JSON"),
            (["--timestamp", "-1"], "--timestamp must be a whole number from 0 to 253402300799, got '-1'"),
            (["--stale-date", "1e9"], "--stale-date must be a whole number"),
        ] {
            let result = try await CLI.run(["payload", "--push-type", "liveactivity"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    @Test func sendAddsThePushTypesTopicSuffixAndRefusesWhatAPNsWould() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mock = try LocalServer(mockAPNs: ["--self-signed", directory.path, "--duration", "300"])
        defer { mock.stop() }
        let listening = try #require(
            try JSONSerialization.jsonObject(with: Data(mock.firstLine.utf8)) as? [String: Any])
        let keyFile = try #require(listening["auth_key"] as? String)
        let base = [
            "send", "--key", keyFile, "--key-id", "MOCKKEY001", "--team-id", "MOCKTEAM01", "--topic",
            "com.example.chatter", "--host", "127.0.0.1", "--port", String(mock.port), "--ca",
            directory.path + "/ca.pem", "--token", String(repeating: "a", count: 64),
        ]
        // The mock answers DeviceTokenNotForTopic unless the topic has the push type's suffix.
        let live = try await CLI.run(
            base + ["--push-type", "liveactivity", "--event", "update", "--content-state", #"{"minutes":4}"#])
        #expect(live.status == 0, "\(live.stdout)\(live.stderr)")
        #expect(live.stdout.contains(": delivered "))
        for type in ["widgets", "controls"] {
            let reload = try await CLI.run(base + ["--push-type", type, "--content-changed"])
            #expect(reload.status == 0, "\(type): \(reload.stdout)\(reload.stderr)")
        }
        let voip = try await CLI.run(base + ["--push-type", "voip", "--custom", #"call={"id":1}"#])
        #expect(voip.status == 0, "\(voip.stdout)\(voip.stderr)")
        for (arguments, message) in [
            (
                ["--push-type", "vop", "--body", "x"],
                "--push-type 'vop' is not an APNs push type; did you mean 'voip'?"
            ),
            (
                ["--push-type", "background", "--priority", "10", "--content-available"],
                "apns-priority 10 is not allowed for background pushes; use 5 (APNs answers BadPriority)"
            ),
        ] {
            let result = try await CLI.run(base + arguments)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.hasPrefix("pushbutton: error: " + message), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        var wrongTopic = base
        wrongTopic[wrongTopic.firstIndex(of: "com.example.chatter")!] = "com.example.chatter.voip"
        let alert = try await CLI.run(wrongTopic + ["--body", "x"])
        #expect(alert.status == 2)
        #expect(
            alert.stderr.hasPrefix(
                "pushbutton: error: 'com.example.chatter.voip' is the topic of voip pushes; an alert push goes to "
                    + "'com.example.chatter' (APNs answers DeviceTokenNotForTopic)"), "\(alert.stderr)")
        let empty = try await CLI.run(base + ["--push-type", "liveactivity", "--event", "update"])
        #expect(empty.status == 1 && empty.stderr.contains("needs 'content-state'"))
        #expect(empty.stderr.hasSuffix("nothing was sent\n"))
    }

    @Test func payloadWritesTheRemainingAlertKeys() async throws {
        let result = try await CLI.run([
            "payload", "--title", "Anna", "--body", "3 new photos", "--summary-arg", "Anna", "--summary-arg-count", "3",
            "--target-content-id", "album-7", "--filter-criteria", "family",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let aps = try JSONParser.parse(result.stdout)["aps"]
        #expect(
            aps?["alert"] == ["title": "Anna", "body": "3 new photos", "summary-arg": "Anna", "summary-arg-count": 3])
        #expect(aps?["target-content-id"] == "album-7" && aps?["filter-criteria"] == "family")
        // A notification's relevance score is from 0 to 1; a Live Activity's is any number.
        let alert = try await CLI.run(["payload", "--body", "x", "--relevance-score", "2"])
        #expect(alert.status == 1 && alert.stderr.contains("relevance-score 2.0 is outside 0…1 [value-range]"))
        let live = try await CLI.run([
            "payload", "--push-type", "liveactivity", "--event", "update", "--content-state", "{}",
            "--relevance-score", "80",
        ])
        #expect(live.status == 0, "\(live.stderr)")
        #expect(try await CLI.run(["payload", "--body", "x", "--summary-arg-count", "-1"]).status == 2)
    }
}
