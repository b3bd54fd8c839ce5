import Pushbutton

extension DeviceRegistrationRequest {
    /// Whether `other` says the same to the gateway (the time aside).
    func matches(_ other: DeviceRegistrationRequest) -> Bool {
        var same = other
        same.registeredAt = registeredAt
        return same == self
    }

    /// Names this registration in the outbox: two that differ in anything, even made in the same millisecond,
    /// are two entries.
    var idempotencyKey: String {
        "register:\(token):\(registeredAtMilliseconds):" + String(FNV1a.hash(JSONWriter.compact(bodyJSON)), radix: 16)
    }
}
