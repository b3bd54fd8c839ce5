import Foundation

/// Mirrors the part of StoreKit's `AppStore` that `pushbutton.rate_app` uses
/// (developer.apple.com/documentation/storekit/appstore/requestreview(in:)).
public enum AppStore {
    /// Asks StoreKit to show the rating and review prompt in `scene`, if App Store policy allows (iOS 16).
    @available(iOS 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public static func requestReview(in scene: UIWindowScene) {
        scene.standInReviewRequests += 1
    }
}
