/// One injected fault, drawn for one request.
enum Fault: Sendable, Hashable {
    /// Answer with this error instead of accepting.
    case status(MockResponse)
    case refuseStream
    case dropConnection
    case delay(Duration)
    case silence
}
