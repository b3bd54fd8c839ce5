extension AlertContent {
    /// `summary-arg`: the string the notification adds to its category's summary format.
    public var summaryArgument: String? {
        get { extra["summary-arg"]?.stringValue }
        set { extra["summary-arg"] = newValue.map(JSONValue.string) }
    }

    /// `summary-arg-count`: how many items the notification adds to its category's summary format.
    public var summaryArgumentCount: Int? {
        get { extra["summary-arg-count"]?.integerValue.flatMap { Int(exactly: $0) } }
        set { extra["summary-arg-count"] = newValue.map { .integer(Int64($0)) } }
    }
}
