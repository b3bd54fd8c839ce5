import Foundation

/// Mirrors the part of StoreKit's `AppStore` that `pushbutton.rate_app` uses
/// (developer.apple.com/documentation/storekit/appstore/requestreview(in:)).
///
/// Checked against storekit/appstore (developer.apple.com, StoreKit): an enum of static members.
public enum AppStore {
    /// Asks StoreKit to show the rating and review prompt in `scene`, if App Store policy allows (iOS 16).
    ///
    /// Checked against storekit/appstore/requestreview(in:)-1q8qs (developer.apple.com, StoreKit): `@MainActor static
    /// func requestReview(in scene: UIWindowScene)`; iOS 16, visionOS 1; not on macOS, tvOS or watchOS.
    @available(iOS 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public static func requestReview(in scene: UIWindowScene) {
        scene.standInReviewRequests += 1
    }
}
