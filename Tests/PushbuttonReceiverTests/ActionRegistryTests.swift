import Pushbutton
import PushbuttonReceiver
import PushbuttonSupport
import Testing

@Suite struct ActionRegistryTests {
    @Test func looksActionsUpCaseInsensitively() async throws {
        let registry = ActionRegistry()
        let seen = Locked([String]())
        try registry.register("Like") { context in
            seen.withLock { $0.append("\(context.identifier) \(context.situation)") }
        }
        #expect(registry.contains("like") && registry.contains("LIKE"))
        try await registry.perform("lIkE", arguments: ["id": 1])
        #expect(seen.withLock { $0 } == ["Like manual"])
        #expect(registry.identifiers == ["Like"])
    }

    @Test func refusesReservedAndSystemIdentifiers() {
        let registry = ActionRegistry()
        #expect(throws: ActionRegistryError.self) { try registry.register("pushbutton.callback") { _ in } }
        #expect(throws: ActionRegistryError.self) { try registry.register("PushButton.mine") { _ in } }
        #expect(throws: ActionRegistryError.self) { try registry.register(SystemIdentifiers.dismissAction) { _ in } }
        #expect(throws: ActionRegistryError.self) { try registry.register("") { _ in } }
        do {
            try registry.register("pushbutton.x") { _ in }
        } catch {
            #expect(error.reason == .reservedPrefix && error.message.contains("reserved"))
        }
    }

    @Test func reRegisteringReplacesAndUnregisteringRemoves() async throws {
        let registry = ActionRegistry()
        let seen = Locked([Int]())
        try registry.register("a") { _ in seen.withLock { $0.append(1) } }
        try registry.register("A") { _ in seen.withLock { $0.append(2) } }
        try await registry.perform("a")
        #expect(seen.withLock { $0 } == [2])
        #expect(registry.unregister("a"))
        #expect(!registry.unregister("a"))
        await #expect(throws: ActionRegistryError.self) { try await registry.perform("a") }
    }

    @Test func actionTypesRegisterUnderTheirIdentifier() async throws {
        struct Archive: AppAction {
            let done: Locked<[String: JSONValue]>
            var identifier: String { "archive" }
            func perform(_ context: ActionContext) async throws { done.withLock { $0 = context.arguments } }
        }
        let registry = ActionRegistry()
        let done = Locked([String: JSONValue]())
        try registry.register(Archive(done: done))
        try await registry.perform("archive", arguments: ["id": 9])
        #expect(done.withLock { $0 } == ["id": 9])
    }

    @Test func theCompletionHandlerRunsOnceWhateverCallsIt() async {
        let calls = Locked(0)
        let once = CompletionHandlerOnce { calls.withLock { $0 += 1 } }
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 { group.addTask { once.call() } }
            var firsts = 0
            for await first in group where first { firsts += 1 }
            #expect(firsts == 1)
        }
        #expect(calls.withLock { $0 } == 1 && once.hasBeenCalled)
    }
}
