// The Chatter sample app, SwiftUI: one `@main`, the App, which adopts the app delegate that sets Pushbutton up.
// Compiled by `make test` (SampleAppCompileTests) against the stand-in in Swift 6 mode; on a Mac, open
// project.yml with XcodeGen.
import Foundation

#if canImport(SwiftUI) && canImport(UIKit)
    import SwiftUI
#else
    import UserNotificationsStandIn  // Linux: SwiftUI's and UIKit's shapes, so this file is compiled there
#endif

@main
struct ChatterApp: App {
    @UIApplicationDelegateAdaptor(ChatterAppDelegate.self) private var appDelegate

    var body: some Scene {
        WindowGroup { Text("Chatter: send a push to this device to see Reply, Like and Delete") }
    }
}
