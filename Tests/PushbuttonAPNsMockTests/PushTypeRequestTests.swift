import Foundation
import Pushbutton
import PushbuttonAPNs
import Testing

@testable import PushbuttonAPNsMock

/// The mock answers each push type's topic, priority, size and authentication rules as APNs does.
@Suite struct PushTypeRequestTests {
    let registry = DeviceRegistry()
    let validator: RequestValidator

    init() throws {
        let verifier = ProviderTokenVerifier(keys: [
            try MockProviderKey(
                keyID: "KEY1234567", teamID: "TEAM123456", privateKey: RequestValidatorTests.key,
                topics: ["com.example.app", "com.apple.mgmt.External.1234"])
        ])
        validator = RequestValidator(verifier: verifier, registry: registry)
    }

    func reason(
        _ type: String?, topic: String, priority: String? = "10", body: String = #"{"aps":{}}"#,
        tokens: Bool = true
    ) throws -> String {
        var headers: [(String, String)] = [("apns-topic", topic)]
        if tokens { headers.append(("authorization", try RequestValidatorTests.bearer())) }
        if let type { headers.append(("apns-push-type", type)) }
        if let priority { headers.append(("apns-priority", priority)) }
        let request = try RequestValidatorTests.request(headers: headers, body: body)
        var validator = self.validator
        validator.requiresProviderToken = tokens
        var auth = ConnectionAuthState()
        let response = validator.validate(request, auth: &auth, now: RequestValidatorTests.now)
        return response.status == 200 ? "200" : "\(response.status) \(response.reason ?? "")"
    }

    static func priority(for type: PushType) -> String { type == .background ? "5" : "10" }

    @Test func everyPushTypeIsAcceptedAtItsOwnTopicAndRefusedAtTheBareBundleID() throws {
        for type in PushType.known where type != .mdm {
            let topic = type.topic(forBundleID: "com.example.app")
            #expect(try reason(type.rawValue, topic: topic, priority: Self.priority(for: type)) == "200", "\(type)")
            if type.topicSuffix != nil {
                #expect(
                    try reason(type.rawValue, topic: "com.example.app", priority: Self.priority(for: type))
                        == "400 DeviceTokenNotForTopic", "\(type)")
                // The suffix of another type is no better.
                #expect(
                    try reason(type.rawValue, topic: "com.example.app.complication-x")
                        == "400 DeviceTokenNotForTopic", "\(type)")
            }
        }
        #expect(try reason("mdm", topic: "com.apple.mgmt.External.1234", body: #"{"mdm":"magic"}"#) == "200")
        // An alert or background push to an extension's topic is not for the app's token either.
        #expect(try reason("alert", topic: "com.example.app.voip") == "400 DeviceTokenNotForTopic")
        #expect(
            try reason("background", topic: "com.example.app.push-type.widgets", priority: "5")
                == "400 DeviceTokenNotForTopic")
        #expect(try reason("controls", topic: ".push-type.controls") == "400 DeviceTokenNotForTopic")
        // A topic the key may not send to, after its suffix is taken off.
        #expect(try reason("voip", topic: "com.other.app.voip") == "400 TopicDisallowed")
    }

    @Test func unknownPushTypesAreInvalid() throws {
        for type in ["banner", "", "ALERT", "alert ", "voip\u{0}", "liveactivities"] {
            #expect(try reason(type, topic: "com.example.app") == "400 InvalidPushType", "\(type.debugDescription)")
        }
        #expect(try reason(nil, topic: "com.example.app") == "200")  // no header: taken as alert
    }

    @Test func prioritiesPerPushType() throws {
        for priority in ["10", "5", "1"] {
            #expect(try reason("alert", topic: "com.example.app", priority: priority) == "200")
            #expect(
                try reason("liveactivity", topic: "com.example.app.push-type.liveactivity", priority: priority)
                    == "200")
        }
        for priority in ["10", "1"] {
            #expect(try reason("background", topic: "com.example.app", priority: priority) == "400 BadPriority")
        }
        for priority in ["0", "7", "010", "+5", "5.0", "", "99999999999999999999", "-10"] {
            #expect(
                try reason("alert", topic: "com.example.app", priority: priority) == "400 BadPriority", "\(priority)")
        }
    }

    @Test func sizeLimitsPerPushType() throws {
        let body = #"{"aps":{},"x":""# + String(repeating: "x", count: 4500) + #""}"#
        #expect(try reason("voip", topic: "com.example.app.voip", body: body) == "200")
        for type in PushType.known where type != .voip && type != .mdm {
            #expect(
                try reason(
                    type.rawValue, topic: type.topic(forBundleID: "com.example.app"),
                    priority: Self.priority(for: type), body: body)
                    == "413 PayloadTooLarge", "\(type)")
        }
    }

    @Test func locationAndLiveActivityPushesNeedProviderTokens() throws {
        #expect(
            try reason("liveactivity", topic: "com.example.app.push-type.liveactivity", tokens: false)
                == "400 TopicDisallowed")
        #expect(try reason("location", topic: "com.example.app.location-query", tokens: false) == "400 TopicDisallowed")
        #expect(try reason("voip", topic: "com.example.app.voip", tokens: false) == "200")
    }
}
