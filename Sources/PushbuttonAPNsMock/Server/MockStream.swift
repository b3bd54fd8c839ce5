/// A request stream being received.
final class MockStream {
    var method = ""
    var path = ""
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// The answer's body while HTTP/2 sends it.
    var responseBody: [UInt8] = []
    var responseOffset = 0
    /// Left unanswered by the `silence` fault, and not yet ended (``MockCounters/openSilences``).
    var silenced = false

    /// The most body bytes kept: more than any payload APNs accepts, so an oversized body still fails
    /// the size check, while a client streaming gigabytes cannot exhaust memory.
    static let bodyLimit = 8192

    var request: MockRequest { MockRequest(method: method, path: path, headers: headers, body: body) }
}
