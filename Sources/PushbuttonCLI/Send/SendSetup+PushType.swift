import Pushbutton
import PushbuttonAPNs

extension SendSetup {
    /// The `apns-topic` for sending `pushType` to the app `bundleID` (`--topic` names the app; the suffix its
    /// push type needs is added, once), after refusing what APNs would refuse about these headers for every
    /// notification: an undocumented push type, an alert or background push to another type's topic, a
    /// priority the type does not allow, a location or Live Activity push without a provider token.
    static func topic(
        bundleID: String, pushType: PushType, priority: Int?, tokenAuthentication: Bool
    ) throws(UsageError) -> String {
        guard pushType.isKnown else {
            let names = PushType.known.map(\.rawValue)
            throw UsageError(
                "--push-type '\(pushType)' is not an APNs push type; "
                    + (Suggestion.didYouMean(pushType.rawValue, among: names)
                        ?? "use one of \(names.joined(separator: ", "))"))
        }
        let topic = pushType.topic(forBundleID: bundleID)
        let problems = APNsNotification.headerProblems(
            topic: topic, pushType: pushType, priority: priority, tokenAuthentication: tokenAuthentication)
        if let problem = problems.first { throw UsageError(problem.description) }
        return topic
    }
}
