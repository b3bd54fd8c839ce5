import Foundation

/// Mirrors UIKit's `UIScene` (iOS 13): what the system services need to find the scene on screen.
/// Checked against uikit/uiscene (developer.apple.com, UIScene.h): main-actor class; iOS 13, tvOS 13; not on macOS or
/// watchOS (Apple's superclass is UIResponder).
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIScene: NSObject {
    /// Mirrors `UIScene.ActivationState`; raw values from UIScene.h.
    /// Checked against uikit/uiscene/activationstate-swift.enum (developer.apple.com, UIScene.h): Int raw values -1, 0,
    /// 1, 2; iOS 13, tvOS 13.
    public enum ActivationState: Int, Sendable {
        case unattached = -1
        case foregroundActive = 0
        case foregroundInactive = 1
        case background = 2
    }

    /// The scene's state (iOS 13).
    /// Checked against uikit/uiscene/activationstate-swift.property (developer.apple.com, UIScene.h): get-only; iOS 13,
    /// tvOS 13.
    @available(iOS 13.0, tvOS 13.0, *)
    open var activationState: ActivationState { standInActivationState }

    // MARK: Stand-in only

    public var standInActivationState: ActivationState

    /// Stand-in only: the system makes scenes.
    public init(standInActivationState: ActivationState) {
        self.standInActivationState = standInActivationState
        super.init()
    }
}

/// Mirrors UIKit's `UIWindowScene` (iOS 13).
/// Checked against uikit/uiwindowscene (developer.apple.com, UIWindowScene.h): main-actor UIScene subclass; iOS 13,
/// tvOS 13.
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIWindowScene: UIScene {
    /// The scene's key window (iOS 15).
    /// Checked against uikit/uiwindowscene/keywindow (developer.apple.com, UIWindowScene.h): optional UIWindow,
    /// get-only; iOS 15, tvOS 15.
    @available(iOS 15.0, tvOS 15.0, *)
    open var keyWindow: UIWindow? { standInKeyWindow }

    // MARK: Stand-in only

    public var standInKeyWindow: UIWindow?
    /// How many times StoreKit was asked for the rating prompt in this scene.
    public var standInReviewRequests = 0
}
