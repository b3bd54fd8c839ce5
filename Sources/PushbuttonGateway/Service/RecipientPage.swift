import Foundation
import PushbuttonAPNs
import PushbuttonStore

/// A page's recipients, read, checked and rendered (bounded by the request body's size limit), with the
/// users it names resolved to their active devices' tokens.
struct RecipientPage {
    var recipients: [(token: String?, user: String?, payload: [UInt8])] = []
    var users: [String: [String]] = [:]
    /// With `"localized"`: each recipient's payload in each language (beside `recipients`), and the devices'
    /// registered locales, by token. Empty without, and nothing is chosen per device.
    var languages: [[String: [UInt8]]] = []
    var locales: [String: String] = [:]
    /// Each token's own due time (a local-time campaign); empty: the campaign's.
    var dueAt: [String: Date] = [:]
    /// The tokens held by quiet hours (their `dueAt` is the end of them).
    var held: Set<String> = []

    /// Every token of the page (the users' devices too).
    var tokens: [String] {
        recipients.flatMap { recipient in recipient.token.map { [$0] } ?? users[recipient.user ?? ""] ?? [] }
    }

    /// Each recipient (a user's every active device), with a new `apns-id`.
    func forEachDelivery<Failure: Error>(_ body: (NewDelivery) throws(Failure) -> Void) throws(Failure) {
        guard languages.isEmpty else { return try forEachLocalizedDelivery(body) }
        for recipient in recipients {
            // A token is passed on as it is: no array of one made for each recipient.
            if let token = recipient.token {
                try body(
                    NewDelivery(
                        token: token, apnsID: UUIDText.lowercase(APNsNotification.newID()),
                        payload: recipient.payload, dueAt: dueAt.isEmpty ? nil : dueAt[token],
                        heldBecause: held.isEmpty || !held.contains(token) ? nil : QuietHours.heldReason))
                continue
            }
            for token in users[recipient.user ?? ""] ?? [] {
                try body(
                    NewDelivery(
                        token: token, apnsID: UUIDText.lowercase(APNsNotification.newID()),
                        payload: recipient.payload, dueAt: dueAt.isEmpty ? nil : dueAt[token],
                        heldBecause: held.isEmpty || !held.contains(token) ? nil : QuietHours.heldReason))
            }
        }
    }

    /// ``forEachDelivery(_:)`` with each device's payload in its language (``LocaleMatch``).
    private func forEachLocalizedDelivery<Failure: Error>(_ body: (NewDelivery) throws(Failure) -> Void)
        throws(Failure)
    {
        var match = LocaleMatch(languages.first.map { Array($0.keys) } ?? [])
        for (index, recipient) in recipients.enumerated() {
            let payloads = LocalizedPayloads(base: recipient.payload, languages: languages[index])
            let tokens = recipient.token.map { [$0] } ?? users[recipient.user ?? ""] ?? []
            for token in tokens {
                try body(
                    NewDelivery(
                        token: token, apnsID: UUIDText.lowercase(APNsNotification.newID()),
                        payload: payloads.payload(for: locales[token], match: &match)))
            }
        }
    }

    var deliveries: [NewDelivery] {
        var all: [NewDelivery] = []
        all.reserveCapacity(recipients.count)
        forEachDelivery { all.append($0) }
        return all
    }
}
