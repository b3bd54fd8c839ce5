import Foundation
import PushbuttonAPNs
import PushbuttonStore

/// A page's recipients, read, checked and rendered (bounded by the request body's size limit), with the
/// users it names resolved to their active devices' tokens.
struct RecipientPage {
    /// Each line's token or user and its payload; `personalized`: rendered with the line's own `data` (not the
    /// campaign's, which the other lines share).
    var recipients: [(token: String?, user: String?, payload: [UInt8], personalized: Bool)] = []
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

    /// Each recipient (a user's every active device), with a new `apns-id`, in its device's language
    /// (``LocaleMatch``) when the campaign has languages.
    func forEachDelivery<Failure: Error>(_ body: (NewDelivery) throws(Failure) -> Void) throws(Failure) {
        var match = LocaleMatch(languages.first.map { Array($0.keys) } ?? [])
        func delivery(_ token: String, _ index: Int) -> NewDelivery {
            let recipient = recipients[index]
            var delivery = NewDelivery(
                token: token, apnsID: UUIDText.lowercase(APNsNotification.newID()), payload: recipient.payload,
                dueAt: dueAt.isEmpty ? nil : dueAt[token],
                heldBecause: held.isEmpty || !held.contains(token) ? nil : QuietHours.heldReason,
                personalized: recipient.personalized)
            // Without languages, no lookup per recipient.
            if !languages.isEmpty {
                let chosen = LocalizedPayloads(base: recipient.payload, languages: languages[index])
                    .chosen(for: locales[token], match: &match)
                delivery.payload = chosen.payload
                delivery.language = chosen.language
            }
            return delivery
        }
        for index in recipients.indices {
            // A token is passed on as it is: no array of one made for each recipient.
            if let token = recipients[index].token {
                try body(delivery(token, index))
                continue
            }
            for token in users[recipients[index].user ?? ""] ?? [] { try body(delivery(token, index)) }
        }
    }

    var deliveries: [NewDelivery] {
        var all: [NewDelivery] = []
        all.reserveCapacity(recipients.count)
        forEachDelivery { all.append($0) }
        return all
    }
}
