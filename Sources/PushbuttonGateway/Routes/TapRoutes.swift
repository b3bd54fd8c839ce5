import Foundation
import Pushbutton
import PushbuttonStore

/// The routes that close the loop from the device: `POST /v1/apps/{app}/taps` (publishable or secret key),
/// `GET /v1/apps/{app}/stats` (secret key) and `POST /v1/apps/{app}/devices/{token}/tags` (publishable or
/// secret key). They parse, call ``TapService`` or ``DeviceTagService``, and render.
struct TapRoutes {
    let taps: TapService
    let tags: DeviceTagService

    init(intake: IntakeService) {
        taps = TapService(store: intake.store, apps: intake.apps, now: intake.now)
        tags = DeviceTagService(store: intake.store, now: intake.now)
    }

    /// The answer, or `nil` when the request is for none of these routes.
    func handle(_ request: HTTPRequest, _ segments: [String], router: Router) throws(GatewayError) -> HTTPResponse? {
        guard segments.count >= 4, segments[0] == "v1", segments[1] == "apps" else { return nil }
        let app = segments[2]
        let method = request.method
        switch Array(segments[3...]) {
        case ["taps"]:
            guard method == "POST" else { throw Self.notAllowed(method, "POST", request, router) }
            let runtime = try router.app(app, for: try router.credential(request), secret: false)
            return try taps.record(app: runtime, body: request.body)
        case ["stats"]:
            guard method == "GET" || method == "HEAD" else { throw Self.notAllowed(method, "GET", request, router) }
            let runtime = try router.app(app, for: try router.credential(request), secret: true)
            return try taps.statistics(app: runtime, query: request.query)
        case let path where path.count == 3 && path[0] == "devices" && path[2] == "tags":
            guard method == "POST" else { throw Self.notAllowed(method, "POST", request, router) }
            let runtime = try router.app(app, for: try router.credential(request), secret: false)
            return .json(200, Rendering.device(try tags.update(app: runtime, token: path[1], body: request.body)))
        default:
            return nil
        }
    }

    /// The metrics label of a request for one of these routes with its own method (anything else stays
    /// ``Router/unknownRoute``, so labels remain a fixed set).
    static func label(_ method: String, _ segments: [String]) -> String? {
        guard segments.count >= 4, segments[0] == "v1", segments[1] == "apps" else { return nil }
        switch (method, Array(segments[3...])) {
        case ("POST", ["taps"]): return Router.label("POST", "v1/apps/{app}/taps")
        case ("GET", ["stats"]), ("HEAD", ["stats"]): return Router.label("GET", "v1/apps/{app}/stats")
        case ("POST", let path) where path.count == 3 && path[0] == "devices" && path[2] == "tags":
            return Router.label("POST", "v1/apps/{app}/devices/{token}/tags")
        default: return nil
        }
    }

    /// `405`, once the request has a key (as every other route: without one it is `401`).
    static func notAllowed(_ method: String, _ allowed: String, _ request: HTTPRequest, _ router: Router)
        -> GatewayError
    {
        do { _ = try router.credential(request) } catch { return error }
        return GatewayError(405, "method_not_allowed", "\(method) is not allowed here; use \(allowed)")
    }
}
