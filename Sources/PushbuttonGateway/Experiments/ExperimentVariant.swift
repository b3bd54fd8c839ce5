import Pushbutton

/// One variant of an experiment as the campaign's header gives it: its name, its share of the audience and
/// its notification (the header's fields with the variant's own on top).
struct ExperimentVariant: Sendable {
    var name: String
    /// Percent of the audience.
    var share: Int
    var draft: NotificationDraft
    /// The fields the variant gave itself (its diagnostics are at `variants[i].<field>`).
    var fields: Set<String>
}
