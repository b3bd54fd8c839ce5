import Foundation

/// Mirrors UIKit's `UIScene` (iOS 13): what the system services need to find the scene on screen.
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIScene: NSObject {
    /// Mirrors `UIScene.ActivationState`; raw values from UIScene.h.
    public enum ActivationState: Int, Sendable {
        case unattached = -1
        case foregroundActive = 0
        case foregroundInactive = 1
        case background = 2
    }

    /// The scene's state (iOS 13).
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
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIWindowScene: UIScene {
    /// The scene's key window (iOS 15).
    @available(iOS 15.0, tvOS 15.0, *)
    open var keyWindow: UIWindow? { standInKeyWindow }

    // MARK: Stand-in only

    public var standInKeyWindow: UIWindow?
    /// How many times StoreKit was asked for the rating prompt in this scene.
    public var standInReviewRequests = 0
}
