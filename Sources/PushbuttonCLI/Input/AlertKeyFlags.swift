import Pushbutton

/// The `aps` and alert keys beyond the title and body: the summary arguments, the window to bring forward and
/// the Focus filter. Listed in ``PayloadFlags``, so `payload` and `send` take them.
enum AlertKeyFlags {
    static let summaryArg = Option<String>(
        "--summary-arg", value: "TEXT", help: "alert.summary-arg: what the notification adds to the summary.")
    static let summaryArgCount = Option<Int>(
        "--summary-arg-count", value: "N", help: "alert.summary-arg-count: how many items it adds.",
        range: 0...1_000_000)
    static let targetContentID = Option<String>(
        "--target-content-id", value: "ID", help: "aps.target-content-id: the window to bring forward.")
    static let filterCriteria = Option<String>(
        "--filter-criteria", value: "TEXT", help: "aps.filter-criteria: matched against the Focus filter.")

    static let options: [any OptionDeclaration] = [summaryArg, summaryArgCount, targetContentID, filterCriteria]

    /// Sets the keys given on `payload` (the summary arguments turn a text alert into a dictionary).
    static func apply(_ arguments: ParsedArguments, to payload: inout Payload) throws(UsageError) {
        payload.aps.targetContentID = try arguments[Self.targetContentID]
        payload.aps.filterCriteria = try arguments[Self.filterCriteria]
        let summary = try arguments[Self.summaryArg]
        let count = try arguments[Self.summaryArgCount]
        guard summary != nil || count != nil else { return }
        var content: AlertContent
        switch payload.aps.alert {
        case .content(let existing): content = existing
        case .text(let text): content = AlertContent(body: text)
        case nil: content = AlertContent()
        }
        content.summaryArgument = summary
        content.summaryArgumentCount = count
        payload.aps.alert = .content(content)
    }
}
