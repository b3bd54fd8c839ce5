/// What the server does with one complete request.
enum MockDecision {
    /// Answer now. `accepted` is set for a 200, to be recorded when the answer is submitted.
    case respond(MockResponse, apnsID: String, accepted: RecordedNotification?)
    /// Answer after a delay.
    case respondLater(Duration, MockResponse, apnsID: String, accepted: RecordedNotification?)
    /// RST_STREAM with REFUSED_STREAM.
    case refuse
    /// Close the connection without answering.
    case drop
    /// Never answer.
    case silence
}
