import Foundation

/// One signed-in console user: the app whose secret key they gave (the key itself is not kept), the token
/// their forms must carry, and when the session ends.
struct ConsoleSession: Sendable {
    var app: String
    var csrfToken: String
    var expires: Date
}
