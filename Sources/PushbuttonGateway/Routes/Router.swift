import Foundation
import Pushbutton
import PushbuttonStore

/// Matches a request to its route in one table (``routes``), checks its key, and calls the service; routes
/// only parse, call and render. The table gives the metrics label, the `405` answers (with `Allow`) and the
/// dispatch. Every `/v1` route needs a key (`401` without one); a key of another app gets `403`, and so does
/// a publishable key anywhere but device registration, tags and taps. `HEAD` answers as `GET`, without a body.
struct Router: Sendable {
    let services: GatewayServices
    let keys: KeyRing
    let metrics: GatewayMetrics
    let console: ConsoleRoutes
    let limiter = RateLimiter()

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        var (route, response) = dispatch(request)
        metrics.request(route: route, status: response.status)
        if request.method == "HEAD" { response.body = [] }
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
                try services.store.checkReady()
                return (Self.label("GET", "readyz"), .text(200, "ready\n"))
            } catch {
                GatewayError.log(error)
                return (Self.label("GET", "readyz"), .text(503, "\(GatewayError.storeUnavailable)\n"))
            }
        }
        if segments == ["healthz"] || segments == ["readyz"] {
            // Any other method: 405 with Allow, and no key asked (these routes take none).
            var response = GatewayError(405, "method_not_allowed", "\(method) is not allowed here; use GET").response
            response.headers.append(("allow", "GET, HEAD"))
            return (Self.unknownRoute, response)
        }
        if segments.first == "console" {
            return console.handle(request, segments: segments, services: services, keys: keys)
        }
        let matching = Self.routes.compactMap { route in route.captures(segments).map { (route, $0) } }
        guard let (route, captures) = matching.first(where: { $0.0.answers(method) }) else {
            return (Self.unknownRoute, refuse(request, allowed: matching.map(\.0.method)))
        }
        if let refused = rateLimited(request, pattern: route.pattern, captures: captures) {
            return (route.label, refused)
        }
        do {
            return (route.label, try route.handler(Route.Call(request: request, captures: captures, router: self)))
        } catch {
            return (route.label, error.response)
        }
    }

    /// `429` with `Retry-After` when the request's key is over its app's rate, or (with the publishable key) the
    /// device token the route names is; nil to go on. A request without a valid key goes on to get its `401`.
    private func rateLimited(_ request: HTTPRequest, pattern: String, captures: [String]) -> HTTPResponse? {
        guard let credential = try? credential(request), let app = services.apps[credential.app] else { return nil }
        let limits = app.configuration.rateLimits
        let now = services.now()
        var refusal: (wait: TimeInterval, what: String, perMinute: Int)?
        switch credential.kind {
        case .secret:
            if let wait = limiter.take("\(app.id) secret", perMinute: limits.secretPerMinute, now: now) {
                refusal = (wait, "this app's secret keys", limits.secretPerMinute)
            }
        case .publishable:
            if let wait = limiter.take("\(app.id) publishable", perMinute: limits.publishablePerMinute, now: now) {
                refusal = (wait, "this app's publishable keys", limits.publishablePerMinute)
            } else if let token = Route.deviceToken(pattern: pattern, captures: captures),
                let wait = limiter.take("\(app.id) device \(token)", perMinute: limits.devicePerMinute, now: now)
            {
                refusal = (wait, "this device token", limits.devicePerMinute)
            }
        }
        guard let refusal else { return nil }
        let seconds = max(1, Int(refusal.wait.rounded(.up)))
        return GatewayError(
            429, "rate_limited",
            "more than \(refusal.perMinute) requests a minute for \(refusal.what); retry after \(seconds) s "
                + "(the limits are the configuration's limits and the app's rateLimits)",
            retryAfter: seconds
        ).response
    }

    /// No route answers the request: `401` without a key, else `405` (with `Allow`) when the path has routes
    /// with other methods, else `404`.
    private func refuse(_ request: HTTPRequest, allowed: [String]) -> HTTPResponse {
        do { _ = try credential(request) } catch { return error.response }
        guard !allowed.isEmpty else {
            return GatewayError.notFound(
                "no route \(request.method) \(request.path); the API is under /v1 (see the gateway's documentation)"
            ).response
        }
        var response = GatewayError(
            405, "method_not_allowed", "\(request.method) is not allowed here; use \(allowed.joined(separator: " or "))"
        ).response
        let methods = allowed.flatMap { $0 == "GET" ? ["GET", "HEAD"] : [$0] }
        response.headers.append(("allow", methods.joined(separator: ", ")))
        return response
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
        guard let app = services.apps[id] else { throw .notFound("no app '\(id)' is configured") }
        return app
    }

    func secretCredential(_ request: HTTPRequest) throws(GatewayError) -> Credential {
        let credential = try credential(request)
        guard credential.kind == .secret else {
            throw .forbidden("a publishable key only registers devices and reports taps; use the app's secret key")
        }
        return credential
    }

    /// The API, one route a line: the first route whose pattern and method match answers.
    static let routes: [Route] = [
        Route("GET", "metrics") { call throws(GatewayError) in
            _ = try call.secretCredential()
            let router = call.router
            let depth = try? router.services.store.queueDepth()
            return .text(200, router.metrics.render(queueDepth: depth), contentType: "text/plain; version=0.0.4")
        },
        Route("GET", "v1/apps/{app}/devices/summary") { call throws(GatewayError) in
            let app = try call.app(secret: true)
            return .json(
                200, DevicesPage.json(try ConsoleRoutes.deviceSummary(call.router.services.store, app: app.id)))
        },
        Route("PUT", "v1/apps/{app}/devices/{token}") { call throws(GatewayError) in
            let app = try call.app(secret: false)
            let record = try call.router.services.devices.register(
                app: app, token: call.captures[1], body: call.request.body)
            return .json(200, Rendering.device(record))
        },
        Route("DELETE", "v1/apps/{app}/devices/{token}") { call throws(GatewayError) in
            let app = try call.app(secret: false)
            guard try call.router.services.devices.forget(app: app, token: call.captures[1]) else {
                throw .notFound("no device with this token is registered for '\(call.captures[0])'")
            }
            return HTTPResponse(status: 204)
        },
        Route("POST", "v1/apps/{app}/devices/{token}/tags") { call throws(GatewayError) in
            let app = try call.app(secret: false)
            let record = try call.router.services.tags.update(
                app: app, token: call.captures[1], body: call.request.body)
            return .json(200, Rendering.device(record))
        },
        Route("POST", "v1/apps/{app}/notifications") { call throws(GatewayError) in
            let app = try call.app(secret: true)
            let request = try IntakeRequest(body: call.request.body, what: "the notification")
            let services = call.router.services
            if let seconds = try OutcomeWait.seconds(in: request, maximum: services.waiters.maximumSeconds) {
                let waited = try OutcomeWait.send(
                    request, app: app, idempotencyKey: call.request.header("idempotency-key"), seconds: seconds,
                    services: services)
                // 200 once every recipient's outcome is final, else 202 with the states at the deadline.
                return .json(waited.complete ? 200 : 202, Rendering.waited(waited.accepted, complete: waited.complete))
            }
            let accepted = try call.router.services.notifications.send(
                app: app, request: request, idempotencyKey: call.request.header("idempotency-key"))
            return .json(202, Rendering.accepted(accepted))
        },
        Route("POST", "v1/apps/{app}/campaigns") { call throws(GatewayError) in
            let app = try call.app(secret: true)
            let accepted = try call.router.services.campaigns.create(
                app: app, body: call.request.body, idempotencyKey: call.request.header("idempotency-key"))
            return .json(202, Rendering.acceptedCampaign(accepted))
        },
        Route("POST", "v1/apps/{app}/audience/count") { call throws(GatewayError) in
            let app = try call.app(secret: true)
            let devices = try call.router.services.segments.count(app: app, body: call.request.body)
            return .json(200, .object(["devices": .integer(Int64(devices))]))
        },
        Route("GET", "v1/apps/{app}/segments") { call throws(GatewayError) in
            let app = try call.app(secret: true)
            let saved = try call.router.services.segments.list(app: app)
            return .json(200, .object(["segments": .array(saved.map(Rendering.segment))]))
        },
        Route("PUT", "v1/apps/{app}/segments/{name}") { call throws(GatewayError) in
            let app = try call.app(secret: true)
            let saved = try call.router.services.segments.save(
                app: app, name: call.captures[1], body: call.request.body)
            return .json(200, Rendering.segment(saved))
        },
        Route("GET", "v1/apps/{app}/segments/{name}") { call throws(GatewayError) in
            let app = try call.app(secret: true)
            return .json(
                200, Rendering.segment(try call.router.services.segments.saved(app: app, name: call.captures[1])))
        },
        Route("DELETE", "v1/apps/{app}/segments/{name}") { call throws(GatewayError) in
            let app = try call.app(secret: true)
            try call.router.services.segments.delete(app: app, name: call.captures[1])
            return HTTPResponse(status: 204)
        },
        Route("POST", "v1/apps/{app}/taps") { call throws(GatewayError) in
            let app = try call.app(secret: false)
            return .json(200, Rendering.taps(try call.router.services.taps.record(app: app, body: call.request.body)))
        },
        Route("POST", "v1/apps/{app}/receipts") { call throws(GatewayError) in
            let app = try call.app(secret: false)
            let result = try call.router.services.receipts.record(app: app, body: call.request.body)
            return .json(200, Rendering.taps(result))
        },
        Route("GET", "v1/apps/{app}/stats") { call throws(GatewayError) in
            let app = try call.app(secret: true)
            let stats = try call.router.services.taps.statistics(app: app, query: call.request.query)
            var json = Rendering.stats(stats)
            // A campaign with variants answers per variant too (issue 36).
            if let campaign = stats.campaign, case .object(var object) = json,
                let variants = try call.router.services.experiments.variantStats(campaign: campaign, app: app.id)
            {
                object["variants"] = variants
                json = .object(object)
            }
            return .json(200, json)
        },
        Route("GET", "v1/notifications/{id}") { call throws(GatewayError) in
            let credential = try call.secretCredential()
            let query = call.request.query
            let limit = min(max(Int(query["limit"] ?? "") ?? 1000, 0), 10_000)
            let after = Int64(query["after"] ?? "") ?? 0
            let record = try call.router.services.notifications.notification(
                id: call.captures[0], app: credential.app, limit: limit, after: after)
            return .json(200, Rendering.notification(record))
        },
        Route("POST", "v1/notifications/{id}/cancel") { call throws(GatewayError) in
            let credential = try call.secretCredential()
            let record = try call.router.services.notifications.cancel(
                notification: call.captures[0], app: credential.app)
            return .json(200, Rendering.notification(record))
        },
        Route("GET", "v1/campaigns/{id}") { call throws(GatewayError) in
            let credential = try call.secretCredential()
            return .json(
                200,
                Rendering.campaign(
                    try call.router.services.campaigns.campaign(id: call.captures[0], app: credential.app)))
        },
        Route("POST", "v1/campaigns/{id}/recipients") { call throws(GatewayError) in
            let credential = try call.secretCredential()
            let services = call.router.services
            guard let app = services.apps[credential.app] else { throw .notFound("no app '\(credential.app)'") }
            let accepted = try services.campaigns.append(
                campaign: call.captures[0], app: app, recipients: RecipientList(call.request.body),
                idempotencyKey: call.request.header("idempotency-key"))
            return .json(202, Rendering.acceptedCampaign(accepted))
        },
        Route("GET", "v1/campaigns/{id}/experiment") { call throws(GatewayError) in
            let credential = try call.secretCredential()
            return .json(
                200, try call.router.services.experiments.report(campaign: call.captures[0], app: credential.app))
        },
        Route("POST", "v1/campaigns/{id}/cancel") { call throws(GatewayError) in
            let credential = try call.secretCredential()
            let record = try call.router.services.campaigns.cancel(campaign: call.captures[0], app: credential.app)
            return .json(200, Rendering.campaign(record))
        },
    ]
}
