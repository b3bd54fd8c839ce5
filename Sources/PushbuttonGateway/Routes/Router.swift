import Foundation
import Pushbutton
import PushbuttonStore

/// Matches a request to its route, checks its key, and calls the service; routes only parse, call and
/// render. Every `/v1` route needs a key (`401` without one); a key of another app gets `403`, and so does a
/// publishable key anywhere but device registration, tags and taps.
struct Router: Sendable {
    let intake: IntakeService
    let keys: KeyRing
    let metrics: GatewayMetrics
    let console: ConsoleRoutes

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let (route, response) = dispatch(request)
        metrics.request(route: route, status: response.status)
        return response
    }

    /// The metrics label of a request that matches no route (whatever its method or path: labels stay a fixed
    /// set, so no request can grow the metrics or put its own bytes into them).
    static let unknownRoute = "unknown"

    /// A route's metrics label: its method and pattern, `GET /v1/notifications/{id}`.
    static func label(_ method: String, _ pattern: String) -> String { "\(method) /\(pattern)" }

    private func dispatch(_ request: HTTPRequest) -> (String, HTTPResponse) {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: true).map {
            String($0).removingPercentEncoding ?? String($0)
        }
        let method = request.method
        if ["GET", "HEAD"].contains(method), segments == ["healthz"] {
            return (Self.label("GET", "healthz"), .text(200, "ok\n"))
        }
        if ["GET", "HEAD"].contains(method), segments == ["readyz"] {
            do {
                try intake.store.checkReady()
                return (Self.label("GET", "readyz"), .text(200, "ready\n"))
            } catch {
                GatewayError.log(error)
                return (Self.label("GET", "readyz"), .text(503, "\(GatewayError.storeUnavailable)\n"))
            }
        }
        if segments.first == "console" {
            return console.handle(request, segments: segments, intake: intake, keys: keys)
        }
        var route = Self.unknownRoute
        do {
            let response = try authorized(request, method, segments, route: &route)
            return (route, response)
        } catch {
            return (route, error.response)
        }
    }

    func credential(_ request: HTTPRequest) throws(GatewayError) -> Credential {
        guard let header = request.header("authorization") else { throw .unauthorized() }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
            let credential = keys.credential(for: String(parts[1]))
        else {
            throw GatewayError(401, "unauthorized", "the API key is not valid for this gateway")
        }
        return credential
    }

    func app(_ id: String, for credential: Credential, secret: Bool) throws(GatewayError) -> AppRuntime {
        guard credential.app == id else {
            throw .forbidden("this key belongs to another app; it can do nothing to app '\(id)'")
        }
        guard !secret || credential.kind == .secret else {
            throw .forbidden("a publishable key only registers devices and reports taps; use the app's secret key")
        }
        guard let app = intake.apps[id] else { throw .notFound("no app '\(id)' is configured") }
        return app
    }

    private func secretCredential(_ request: HTTPRequest) throws(GatewayError) -> Credential {
        let credential = try credential(request)
        guard credential.kind == .secret else {
            throw .forbidden("a publishable key only registers devices and reports taps; use the app's secret key")
        }
        return credential
    }

    /// Each route is one `match(method, pattern)` line: a pattern's `{name}` (or `*`) segment matches any one
    /// segment and is captured, in order; the matched route's pattern becomes the request's metrics label.
    private func authorized(
        _ request: HTTPRequest, _ method: String, _ segments: [String], route: inout String
    ) throws(GatewayError) -> HTTPResponse {
        func match(_ verb: String, _ pattern: String) -> [String]? {
            let parts = pattern.split(separator: "/").map(String.init)
            guard method == verb, parts.count == segments.count else { return nil }
            var captured: [String] = []
            for (part, segment) in zip(parts, segments) {
                if part == "*" || (part.hasPrefix("{") && part.hasSuffix("}")) {
                    captured.append(segment)
                } else if part != segment {
                    return nil
                }
            }
            route = Self.label(verb, pattern)
            return captured
        }
        if let label = TapRoutes.label(method, segments) { route = label }
        if let response = try TapRoutes(intake: intake).handle(request, segments, router: self) { return response }
        if match("GET", "metrics") != nil {
            _ = try secretCredential(request)
            let depth = try? intake.store.queueDepth()
            return .text(200, metrics.render(queueDepth: depth), contentType: "text/plain; version=0.0.4")
        }
        if let captured = match("GET", "v1/apps/{app}/devices/summary") {
            let runtime = try self.app(captured[0], for: try credential(request), secret: true)
            return .json(200, DevicesPage.json(try ConsoleRoutes.deviceSummary(intake.store, app: runtime.id)))
        }
        if let captured = match("PUT", "v1/apps/{app}/devices/{token}") {
            let runtime = try self.app(captured[0], for: try credential(request), secret: false)
            let record = try intake.register(app: runtime, token: captured[1], body: request.body)
            return .json(200, Rendering.device(record))
        }
        if let captured = match("DELETE", "v1/apps/{app}/devices/{token}") {
            let runtime = try self.app(captured[0], for: try credential(request), secret: false)
            guard try intake.forget(app: runtime, token: captured[1]) else {
                throw .notFound("no device with this token is registered for '\(captured[0])'")
            }
            return HTTPResponse(status: 204)
        }
        if let captured = match("POST", "v1/apps/{app}/notifications") {
            let runtime = try self.app(captured[0], for: try credential(request), secret: true)
            return try intake.send(app: runtime, body: request.body, idempotencyKey: request.header("idempotency-key"))
        }
        if let captured = match("POST", "v1/apps/{app}/campaigns") {
            let runtime = try self.app(captured[0], for: try credential(request), secret: true)
            return try intake.createCampaign(
                app: runtime, body: request.body, idempotencyKey: request.header("idempotency-key"))
        }
        if let captured = match("GET", "v1/notifications/{id}") {
            let credential = try secretCredential(request)
            let limit = min(max(Int(request.query["limit"] ?? "") ?? 1000, 0), 10_000)
            let after = Int64(request.query["after"] ?? "") ?? 0
            return try intake.notification(id: captured[0], app: credential.app, limit: limit, after: after)
        }
        if let captured = match("GET", "v1/campaigns/{id}") {
            return try intake.campaign(id: captured[0], app: try secretCredential(request).app)
        }
        if let captured = match("POST", "v1/campaigns/{id}/recipients") {
            let credential = try secretCredential(request)
            guard let runtime = intake.apps[credential.app] else { throw .notFound("no app '\(credential.app)'") }
            return try intake.appendPage(campaign: captured[0], app: runtime, body: request.body)
        }
        if let captured = match("POST", "v1/campaigns/{id}/cancel") {
            return try intake.cancel(campaign: captured[0], app: try secretCredential(request).app)
        }
        _ = try credential(request)
        let known = Self.knownPaths(segments)
        if !known.isEmpty {
            throw GatewayError(
                405, "method_not_allowed", "\(method) is not allowed here; use \(known.joined(separator: " or "))")
        }
        throw .notFound("no route \(method) \(request.path); the API is under /v1 (see the gateway's documentation)")
    }

    /// The methods a path takes, for a `405`.
    static func knownPaths(_ segments: [String]) -> [String] {
        switch segments.count {
        case 5 where segments[0] == "v1" && segments[1] == "apps" && segments[3] == "devices": ["PUT", "DELETE"]
        case 4
        where segments[0] == "v1" && segments[1] == "apps" && ["notifications", "campaigns"].contains(segments[3]):
            ["POST"]
        case 3 where segments[0] == "v1" && ["notifications", "campaigns"].contains(segments[1]): ["GET"]
        case 4
        where segments[0] == "v1" && segments[1] == "campaigns" && ["recipients", "cancel"].contains(segments[3]):
            ["POST"]
        default: []
        }
    }
}
