import Foundation
import Pushbutton
import PushbuttonAPNs

/// One configured app at run time: its configuration, its manifest's validator and its APNs client (own
/// credentials, environment and connection pool).
struct AppRuntime: Sendable {
    let configuration: AppConfiguration
    let validator: PayloadValidator
    let client: APNsClient?

    var id: String { configuration.id }
}
