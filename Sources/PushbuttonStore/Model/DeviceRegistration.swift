import Foundation
import Pushbutton

/// What a device (or the backend on its behalf) registers, as stored: the wire's ``DeviceRegistrationRequest``, the
/// app it was registered with, and the device's own quiet hours.
///
/// The request's fields read and write through the registration (`registration.locale`): one definition of the
/// fields, the device's and the gateway's.
@dynamicMemberLookup
public struct DeviceRegistration: Sendable, Hashable {
    /// The app the device registered with.
    public var app: String
    /// The registration as the device sent it (token from the path, lowercase hex).
    public var request: DeviceRegistrationRequest
    /// The device's own quiet hours (minutes after local midnight), overriding its app's.
    public var quietHours: (start: Int, end: Int)? {
        get { quietStart.flatMap { start in quietEnd.map { (start, $0) } } }
        set {
            quietStart = newValue?.start
            quietEnd = newValue?.end
        }
    }
    private var quietStart: Int?
    private var quietEnd: Int?

    /// A registration of `request` with `app`.
    public init(app: String, request: DeviceRegistrationRequest) {
        self.app = app
        self.request = request
    }

    /// A registration with every field of its request given but the time zone.
    public init(
        app: String, token: String, environment: String = "production", locale: String? = nil,
        appVersion: String? = nil, userID: String? = nil, tags: [String] = [], registeredAt: Date
    ) {
        self.init(
            app: app,
            request: DeviceRegistrationRequest(
                token: token, environment: environment, locale: locale, appVersion: appVersion, userID: userID,
                tags: tags, registeredAt: registeredAt))
    }

    /// A registration with the device's time zone.
    public init(
        app: String, token: String, environment: String = "production", locale: String? = nil,
        appVersion: String? = nil, userID: String? = nil, tags: [String] = [], registeredAt: Date, timeZone: String?
    ) {
        self.init(
            app: app,
            request: DeviceRegistrationRequest(
                token: token, environment: environment, locale: locale, appVersion: appVersion, userID: userID,
                tags: tags, registeredAt: registeredAt, timeZone: timeZone))
    }

    /// A field of the ``request``: `registration.token` is `registration.request.token`.
    public subscript<Value>(dynamicMember field: WritableKeyPath<DeviceRegistrationRequest, Value>) -> Value {
        get { request[keyPath: field] }
        set { request[keyPath: field] = newValue }
    }
}
