import Foundation

/// Mirrors the part of UIKit's `UIView` the share sheet's popover anchor needs.
/// Checked against uikit/uiview (developer.apple.com, UIView.h): main-actor class; iOS 2, tvOS 9 (Apple's superclass is
/// UIResponder).
@available(iOS 2.0, tvOS 9.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIView: NSObject {
    /// Checked against uikit/uiview/bounds (developer.apple.com, UIView.h): CGRect, get set; iOS 2, tvOS 9.
    @available(iOS 2.0, tvOS 9.0, *)
    open var bounds: CGRect

    /// Stand-in only: a view of the given size.
    public init(standInBounds: CGRect) {
        bounds = standInBounds
        super.init()
    }
}

/// Mirrors the part of UIKit's `UIWindow` the system services use.
/// Checked against uikit/uiwindow (developer.apple.com, UIWindow.h): main-actor UIView subclass; iOS 2, tvOS 9.
@available(iOS 2.0, tvOS 9.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIWindow: UIView {
    /// Checked against uikit/uiwindow/rootviewcontroller (developer.apple.com, UIWindow.h): optional, get set; iOS 4,
    /// tvOS 9.
    @available(iOS 4.0, tvOS 9.0, *)
    open var rootViewController: UIViewController?
}

/// Mirrors the part of UIKit's `UIViewController` that presents the share sheet.
/// Checked against uikit/uiviewcontroller (developer.apple.com, UIViewController.h): main-actor class; iOS 2, tvOS 9
/// (Apple's superclass is UIResponder).
@available(iOS 2.0, tvOS 9.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIViewController: NSObject {
    /// Checked against uikit/uiviewcontroller/view (developer.apple.com, UIViewController.h): implicitly unwrapped
    /// `UIView!`, get set; iOS 2, tvOS 9.
    @available(iOS 2.0, tvOS 9.0, *)
    open var view: UIView! = UIView(standInBounds: CGRect(x: 0, y: 0, width: 390, height: 844))

    /// The view controller this one presents (iOS 5).
    /// Checked against uikit/uiviewcontroller/presentedviewcontroller (developer.apple.com, UIViewController.h):
    /// optional, get-only; iOS 5, tvOS 9.
    @available(iOS 5.0, tvOS 9.0, *)
    open private(set) var presentedViewController: UIViewController?

    /// The popover that presents this view controller, on an iPad (iOS 8).
    /// Checked against uikit/uiviewcontroller/popoverpresentationcontroller (developer.apple.com,
    /// UIPopoverPresentationController.h): optional, get-only; iOS 8; tvOS unavailable.
    @available(iOS 8.0, *)
    @available(tvOS, unavailable)
    open var popoverPresentationController: UIPopoverPresentationController? { standInPopover }

    /// Checked against NSObject init() (developer.apple.com, UIViewController.h): Apple's designated inits are
    /// init(nibName:bundle:) and init(coder:); init() is inherited.
    public override init() { super.init() }

    /// Presents `viewControllerToPresent` modally (iOS 5).
    /// Checked against uikit/uiviewcontroller/present(_:animated:completion:) (developer.apple.com,
    /// UIViewController.h): labels, optional non-Sendable completion defaulting to nil; iOS 5, tvOS 9.
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
/// Checked against uikit/uipopoverpresentationcontroller (developer.apple.com, UIPopoverPresentationController.h):
/// main-actor class; iOS 8; tvOS unavailable (Apple's superclass is UIPresentationController).
@available(iOS 8.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIPopoverPresentationController: NSObject {
    /// Checked against uikit/uipopoverpresentationcontroller/sourceview (developer.apple.com,
    /// UIPopoverPresentationController.h): optional UIView, get set; iOS 8.
    @available(iOS 8.0, *)
    open var sourceView: UIView?
    /// Checked against uikit/uipopoverpresentationcontroller/sourcerect (developer.apple.com,
    /// UIPopoverPresentationController.h): CGRect, get set; iOS 8 (Apple's default is CGRectNull since iOS 13.2).
    @available(iOS 8.0, *)
    open var sourceRect: CGRect = .zero

    /// Checked against NSObject init() (developer.apple.com, UIPopoverPresentationController.h): stand-in convenience;
    /// UIKit makes popover controllers.
    public override init() { super.init() }
}
