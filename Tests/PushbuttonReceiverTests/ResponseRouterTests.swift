import Foundation
import Pushbutton
import PushbuttonReceiverTesting
import PushbuttonSupport
import Testing

@testable import PushbuttonReceiver

@Suite struct ResponseRouterTests {
    static func messagePayload() -> Payload {
        var payload = Payload.interactive(category: "message", title: "Anna", body: "Lunch?")
        payload.addAction(ActionSpec("note_like", arguments: ["id": 42]), forButton: "like")
        payload.addAction(
            ActionSpec(ActionSpec.callback, arguments: ["url": "https://api.test/like", "body": ["id": 42]]),
            forButton: "like")
        payload.addAction(
            ActionSpec(ActionSpec.callback, arguments: ["url": "https://api.test/reply", "include_reply": true]),
            forButton: "reply")
        payload.addAction(ActionSpec(ActionSpec.deepLink, arguments: ["url": "chatter://m/42"]), forButton: "open")
        payload.addBodyAction(ActionSpec(ActionSpec.deepLink, arguments: ["url": "chatter://conversation/anna"]))
        payload.addDismissAction(ActionSpec("mark_seen", arguments: ["id": 42]))
        payload.actionArguments = ["from": "action_args"]
        return payload
    }

    @Test func perButtonActionsRunInOrderWithTheirArguments() async throws {
        let (center, router, backend, _) = await Fixtures.setUp()
        let seen = Locked([ActionContext]())
        try router.registry.register("note_like") { context in seen.withLock { $0.append(context) } }
        try router.registry.register("like") { _ in
            Issue.record("the matching action must not run when the payload names actions")
        }
        let id = await center.deliver(Self.messagePayload()).notification.identifier
        let delivery = try await center.tapButton(id, action: "like")
        guard case .called = delivery.completion else { Issue.record("completion not called"); return }
        let context = try #require(seen.withLock { $0.first })
        #expect(context.arguments == ["id": 42] && context.situation == .backgroundButton)
        #expect(context.notification?.identifier == id)
        let request = try #require(backend.requests.withLock { $0.first })
        #expect(request.url == "https://api.test/like" && request.method == "POST" && request.body == ["id": 42])
        #expect(request.idempotencyKey == "\(id):like:1")
        #expect(await center.completionCallCount(delivery.number) == 1)
    }

    @Test func withoutPerButtonActionsTheMatchingActionGetsActionArgs() async throws {
        let (center, router, _, _) = await Fixtures.setUp()
        let seen = Locked([String: JSONValue]())
        try router.registry.register("OK") { context in seen.withLock { $0 = context.arguments } }
        var payload = Payload.interactive(category: "quiet", body: "x")
        payload.actionArguments = ["user_id": 7]
        let id = await center.deliver(payload).notification.identifier
        _ = try await center.tapButton(id, action: "ok")
        #expect(seen.withLock { $0 } == ["user_id": 7])
    }

    @Test func textRepliesReachTheHandlerAndTheBackend() async throws {
        let (center, router, backend, _) = await Fixtures.setUp()
        let replies = Locked([String?]())
        router.onResponse { response, _ in replies.withLock { $0.append(response.userText) } }
        let id = await center.deliver(Self.messagePayload()).notification.identifier
        _ = try await center.reply(id, action: "reply", text: "See you at noon")
        #expect(replies.withLock { $0 } == ["See you at noon"])
        #expect(backend.requests.withLock { $0.first?.body } == ["reply": "See you at noon", "data": nil])
    }

    @Test func bodyTapsAndDismissalsAreNeverCustomActions() async throws {
        let (center, router, _, opener) = await Fixtures.setUp()
        let custom = Locked(0)
        let dismissed = Locked([String: JSONValue]())
        try router.registry.register(SystemIdentifiers.defaultAction.replacingOccurrences(of: "com.apple.", with: "x"))
        { _ in }
        try router.registry.register("mark_seen") { context in dismissed.withLock { $0 = context.arguments } }
        router.onResponse { _, situation in
            if situation != .bodyTap && situation != .dismiss { custom.withLock { $0 += 1 } }
        }
        let first = await center.deliver(Self.messagePayload()).notification.identifier
        _ = try await center.tapBody(first)
        #expect(opener.opened.withLock { $0 } == ["chatter://conversation/anna"])
        let second = await center.deliver(Self.messagePayload()).notification.identifier
        _ = try #require(try await center.dismiss(second))
        #expect(dismissed.withLock { $0 } == ["id": 42])
        #expect(custom.withLock { $0 } == 0)
    }

    @Test func linksOpenFromForegroundButtonsAndAreRefusedInTheBackground() async throws {
        let (center, router, _, opener) = await Fixtures.setUp()
        let reports = Locked([RoutingReport]())
        router.observe { report in reports.withLock { $0.append(report) } }
        let id = await center.deliver(Self.messagePayload()).notification.identifier
        _ = try await center.tapButton(id, action: "open")
        #expect(opener.opened.withLock { $0 } == ["chatter://m/42"])
        var background = Payload.interactive(category: "message", body: "x")
        background.addAction(ActionSpec(ActionSpec.openURL, arguments: ["url": "https://x.test"]), forButton: "like")
        let other = await center.deliver(background).notification.identifier
        _ = try await center.tapButton(other, action: "like")
        let last = try #require(reports.withLock { $0.last })
        #expect(last.situation == .backgroundButton)
        guard case .refused(let reason) = last.steps.first?.outcome else { Issue.record("not refused"); return }
        #expect(reason.contains("foreground"))
        #expect(opener.opened.withLock { $0.count } == 1)
    }

    @Test func unknownButtonsAndActionsAreReportedNotCrashed() async throws {
        let (center, router, _, _) = await Fixtures.setUp()
        var payload = Payload.interactive(category: "message", body: "x")
        payload.addAction(ActionSpec("nobody_registered_this"), forButton: "like")
        let notification = await center.deliver(payload).notification
        let report = await router.route(NotificationResponse(notification: notification, actionIdentifier: "like"))
        #expect(report.steps.map(\.outcome) == [.unknownAction])
        let stray = await router.route(NotificationResponse(notification: notification, actionIdentifier: "ghost"))
        #expect(stray.notes.contains { $0.contains("'ghost' is not in the registered category") })
        #expect(stray.steps.isEmpty)
    }

    @Test func aThrowingHandlerStillCompletesExactlyOnce() async throws {
        let (center, router, _, _) = await Fixtures.setUp()
        try router.registry.register("ok") { _ in throw Boom() }
        router.onResponse { _, _ in throw Boom() }
        let id = await center.deliver(.interactive(category: "quiet", body: "x")).notification.identifier
        let delivery = try await center.tapButton(id, action: "ok")
        guard case .called = delivery.completion else { Issue.record("completion not called"); return }
        #expect(await center.completionCallCount(delivery.number) == 1)
    }

    @Test func aHangingHandlerIsCutOffAtTheDeadlineAndReported() async throws {
        let clock = ManualClock()
        let (center, router, _, _) = await Fixtures.setUp(
            clock: clock, options: RouterOptions(backgroundDeadline: .seconds(20)))
        // A handler that never finishes (cancelled by the router): nothing waits for this sleep.
        try router.registry.register("ok") { _ in try await Task.sleep(for: .seconds(3600)) }
        let reports = Locked([RoutingReport]())
        router.observe { report in reports.withLock { $0.append(report) } }
        let id = await center.deliver(.interactive(category: "quiet", body: "x")).notification.identifier
        async let delivery = center.tapButton(id, action: "ok")
        await clock.waitForSleepers(2)  // the router's deadline and the system's window
        clock.advance(by: .seconds(20))
        let result = try await delivery
        #expect(result.completion == .called(after: .seconds(20)))
        let report = try #require(reports.withLock { $0.first })
        #expect(report.completedByDeadline && report.cutOff.map(\.kind) == [.matchingAction("ok")])
        #expect(await center.completionCallCount(result.number) == 1)
    }

    @Test func concurrentResponsesEachCompleteExactlyOnce() async throws {
        let (center, router, backend, _) = await Fixtures.setUp()
        try router.registry.register("note_like") { _ in await Task.yield() }
        var identifiers: [String] = []
        for _ in 0..<50 { identifiers.append(await center.deliver(Self.messagePayload()).notification.identifier) }
        let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
            for id in identifiers { group.addTask { try await center.tapButton(id, action: "like").number } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        for number in numbers { #expect(await center.completionCallCount(number) == 1) }
        #expect(Set(backend.requests.withLock { $0.map(\.idempotencyKey) }).count == 50)
    }

    @Test func legacyCallbacksRouteTheSameWay() async throws {
        let (_, router, backend, _) = await Fixtures.setUp()
        let payload = Self.messagePayload()
        let done = Locked(0)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            router.handleLegacyAction(
                identifier: "reply", forRemoteNotification: payload.jsonValue.objectValue!,
                withResponseInfo: [ResponseRouter.legacyTypedTextKey: "On my way"]
            ) {
                done.withLock { $0 += 1 }
                continuation.resume()
            }
        }
        #expect(backend.requests.withLock { $0.first?.body } == ["reply": "On my way", "data": nil])
        let seen = Locked([Situation]())
        try router.registry.register("ok") { context in seen.withLock { $0.append(context.situation) } }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            router.handleLegacyAction(
                identifier: "ok",
                forLocalNotification: LocalNotificationRequest(identifier: "l1", body: "x", categoryIdentifier: "quiet")
            ) { continuation.resume() }
        }
        #expect(seen.withLock { $0 } == [.backgroundButton])
        #expect(done.withLock { $0 } == 1)
    }

    /// The legacy callbacks carry no identifier: two taps on identical notifications must stay two taps for the
    /// outbox (whose idempotency keys start with the notification's identifier), not collapse into one.
    @Test func identicalLegacyTapsGetDistinctIdentities() async throws {
        let (_, router, backend, _) = await Fixtures.setUp()
        let userInfo = Self.messagePayload().jsonValue.objectValue!
        for _ in 0..<2 {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                router.handleLegacyAction(
                    identifier: "reply", forRemoteNotification: userInfo,
                    withResponseInfo: [ResponseRouter.legacyTypedTextKey: "On my way"]
                ) { continuation.resume() }
            }
        }
        let requests = backend.requests.withLock { $0 }
        #expect(requests.count == 2)
        #expect(Set(requests.map(\.notificationIdentifier)).count == 2)
        #expect(Set(requests.map(\.idempotencyKey)).count == 2)
        #expect(requests.allSatisfy { $0.notificationIdentifier.hasPrefix("legacy-") })
    }
}

@Suite struct RouterReportOrderTests {
    /// Found by CI: `pushbutton simulate` read the report right after the completion and sometimes found none.
    @Test func theReportIsPublishedBeforeTheCompletionHandlerRuns() async throws {
        let (center, router, _, _) = await Fixtures.setUp()
        let reports = Locked(0)
        router.observe { _ in reports.withLock { $0 += 1 } }
        for _ in 0..<50 {
            let notification = await center.deliver(.interactive(category: "quiet", body: "x")).notification
            let seenAtCompletion = Locked(-1)
            let before = reports.withLock { $0 }
            await router.route(NotificationResponse(notification: notification, actionIdentifier: "ok")) {
                seenAtCompletion.withLock { $0 = reports.withLock { $0 } }
            }
            #expect(seenAtCompletion.withLock { $0 } == before + 1)
        }
    }
}
