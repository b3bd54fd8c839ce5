import Foundation

// Not UserNotifications: the few SwiftUI shapes a SwiftUI app's entry point uses to adopt an app delegate
// (`App`, `Scene`, `WindowGroup`, `View`, `Text`, `@UIApplicationDelegateAdaptor`), so the sample app's and the
// snippets' SwiftUI entry points compile here in Swift 6 mode. Checked against Apple's SwiftUI documentation
// (developer.apple.com/documentation/swiftui/app, /uiapplicationdelegateadaptor): `App`, `Scene` and `View` are
// main-actor protocols whose `body` is built by a result builder; the adaptor makes the delegate on first use,
// and it is main-actor isolated.

/// Mirrors SwiftUI's `View` (its body only).
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

/// Mirrors SwiftUI's `ViewBuilder`, for one view.
@resultBuilder
public enum ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}

/// Mirrors SwiftUI's `Text`.
public struct Text: View {
    public let content: String
    public init(_ content: String) { self.content = content }
    public var body: Never { fatalError("Text has no body") }
}

extension Never: View {
    public var body: Never { fatalError("Never has no body") }
}

/// Mirrors SwiftUI's `Scene` (its body only).
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
}

extension Never: Scene {}

/// Mirrors SwiftUI's `SceneBuilder`, for one scene.
@resultBuilder
public enum SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// Mirrors SwiftUI's `WindowGroup`.
public struct WindowGroup<Content: View>: Scene {
    public let content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public var body: Never { fatalError("WindowGroup has no body") }
}

/// Mirrors SwiftUI's `App`: `@main` on a type conforming to it makes it the app's entry point.
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
    init()
}

extension App {
    /// Stand-in only: makes the app and reads its scene, as SwiftUI does at launch.
    @MainActor
    public static func main() {
        _ = Self().body
    }
}

/// Mirrors SwiftUI's `UIApplicationDelegateAdaptor`: the app delegate a SwiftUI app adopts (SwiftUI makes it once,
/// sets it as `UIApplication.shared.delegate` and hands it the UIKit callbacks, remote-notification registration
/// included). The stand-in cannot make an `NSObject` subclass from its metatype on Linux: it reads the delegate
/// from ``UIApplication/delegate``, which a test sets first.
@available(iOS 14.0, tvOS 14.0, *)
@MainActor @preconcurrency @propertyWrapper
public struct UIApplicationDelegateAdaptor<DelegateType: NSObject & UIApplicationDelegate> {
    public init(_ delegateType: DelegateType.Type = DelegateType.self) {}

    /// The app's delegate.
    public var wrappedValue: DelegateType {
        guard let delegate = UIApplication.shared.delegate as? DelegateType else {
            preconditionFailure("stand-in: set UIApplication.shared.delegate to a \(DelegateType.self) first")
        }
        return delegate
    }
}
