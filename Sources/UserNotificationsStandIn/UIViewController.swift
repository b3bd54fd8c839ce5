import Foundation

/// Mirrors the part of UIKit's `UIView` the share sheet's popover anchor needs.
@available(iOS 2.0, tvOS 9.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIView: NSObject {
    @available(iOS 2.0, tvOS 9.0, *)
    open var bounds: CGRect

    /// Stand-in only: a view of the given size.
    public init(standInBounds: CGRect) {
        bounds = standInBounds
        super.init()
    }
}

/// Mirrors the part of UIKit's `UIWindow` the system services use.
@available(iOS 2.0, tvOS 9.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIWindow: UIView {
    @available(iOS 4.0, tvOS 9.0, *)
    open var rootViewController: UIViewController?
}

/// Mirrors the part of UIKit's `UIViewController` that presents the share sheet.
@available(iOS 2.0, tvOS 9.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIViewController: NSObject {
    @available(iOS 2.0, tvOS 9.0, *)
    open var view: UIView! = UIView(standInBounds: CGRect(x: 0, y: 0, width: 390, height: 844))

    /// The view controller this one presents (iOS 5).
    @available(iOS 5.0, tvOS 9.0, *)
    open private(set) var presentedViewController: UIViewController?

    /// The popover that presents this view controller, on an iPad (iOS 8).
    @available(iOS 8.0, *)
    @available(tvOS, unavailable)
    open var popoverPresentationController: UIPopoverPresentationController? { standInPopover }

    public override init() { super.init() }

    /// Presents `viewControllerToPresent` modally (iOS 5).
    @available(iOS 5.0, tvOS 9.0, *)
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil)
    {
        presentedViewController = viewControllerToPresent
        completion?()
    }

    // MARK: Stand-in only

    /// The popover, when the stand-in plays an iPad (set by a subclass or a test).
    public var standInPopover: UIPopoverPresentationController?
}

/// Mirrors the part of UIKit's `UIPopoverPresentationController` that anchors a popover (iOS 8).
@available(iOS 8.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIPopoverPresentationController: NSObject {
    @available(iOS 8.0, *)
    open var sourceView: UIView?
    @available(iOS 8.0, *)
    open var sourceRect: CGRect = .zero

    public override init() { super.init() }
}
