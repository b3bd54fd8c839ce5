// The built-in actions that use the system, recorded by the simulated services.
import PushbuttonReceiver
import PushbuttonReceiverTesting

// snippet.hide
func builtInActions(center: SimulatedNotificationCenter) async throws {
    // snippet.show
    let system = SimulatedSystemServices()
    let tags = InMemoryTagStore()
    let router = ResponseRouter(center: center, system: system, tagStore: tags)
    // … a payload whose "open" button runs pushbutton.copy and pushbutton.add_tag, tapped as above …
    print(await system.pasteboard == "918273", try await tags.tags() == ["otp-used"])
    // snippet.hide
    _ = router
}
