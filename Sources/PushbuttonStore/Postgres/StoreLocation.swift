import Foundation

/// A store location (`sqlite:PATH` or a `postgres://` URL) as it may be printed: the password is replaced,
/// wherever libpq accepts one (the URL's user info, or a `password` / `passfile` query parameter).
package enum StoreLocation {
    package static func redacted(_ location: String) -> String {
        guard var components = URLComponents(string: location) else { return location }
        let secretParameters: Set<String> = ["password", "passfile"]
        let hasSecretParameter = components.queryItems?.contains { secretParameters.contains($0.name) } ?? false
        guard components.password != nil || hasSecretParameter else { return location }
        if components.password != nil { components.password = "redacted" }
        components.queryItems = components.queryItems?.map { item in
            secretParameters.contains(item.name) ? URLQueryItem(name: item.name, value: "redacted") : item
        }
        return components.string ?? "postgres://…"
    }
}
