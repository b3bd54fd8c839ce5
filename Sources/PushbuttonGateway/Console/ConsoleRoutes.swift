import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonSupport

/// The web console under `/console`: sign-in with an app's secret key (a session cookie, HttpOnly,
/// SameSite=Strict, Secure over TLS), and the compose, campaigns and devices pages. Each route reads the
/// request, calls a service (``ComposeService``, the store's ``ConsoleQueries``, ``TapService``'s stats) and
/// renders a page.
///
/// Every form that changes something carries the session's CSRF token; the preview and audience-count
/// endpoints take it in a header. The key is only ever read from a posted form, never from a URL, and never written into a page.
struct ConsoleRoutes: Sendable {
    static let cookieName = "pb_console"

    let sessions = ConsoleSessions()
    let signIns = SignInThrottle()
    let catalogs: [String: ConsoleCatalog]
    /// Whether the gateway listens with TLS: the cookie is then `Secure`.
    let secureCookies: Bool
    let now: @Sendable () -> Date

    init(apps: [AppConfiguration], secureCookies: Bool, now: @escaping @Sendable () -> Date = { Date() }) {
        var catalogs: [String: ConsoleCatalog] = [:]
        for app in apps { catalogs[app.id] = ConsoleCatalog(manifestPath: app.manifestPath) }
        self.catalogs = catalogs
        self.secureCookies = secureCookies
        self.now = now
    }

    /// Answers a request whose path starts with `/console`; returns the route's name (for metrics) too.
    func handle(_ request: HTTPRequest, segments: [String], services: GatewayServices, keys: KeyRing) -> (
        String, HTTPResponse
    ) {
        let rest = Array(segments.dropFirst())
        let method = request.method == "HEAD" ? "GET" : request.method
        // A fixed set of metrics labels: the console's own pages by pattern, anything else `unknown`.
        let pattern: String? =
            switch (rest.first ?? "", rest.count) {
            case ("", 0): ""
            case ("login", 1), ("logout", 1), ("compose", 1), ("preview", 1), ("campaigns", 1), ("devices", 1),
                ("audience", 1):
                "/" + rest[0]
            case ("campaigns", 2): "/campaigns/{id}"
            case ("campaigns", 3) where rest[2] == "experiment": "/campaigns/{id}/experiment"
            case ("assets", 2): "/assets/{file}"
            default: nil
            }
        let name =
            pattern.flatMap { pattern in
                ["GET", "POST"].contains(method) ? Router.label(method, "console" + pattern) : nil
            } ?? Router.unknownRoute
        if method == "GET", rest.count == 2, rest[0] == "assets" {
            switch rest[1] {
            case "console.css": return (name, asset(ConsoleAssets.css, type: "text/css; charset=utf-8"))
            case "console.js": return (name, asset(ConsoleAssets.javascript, type: "text/javascript; charset=utf-8"))
            default: return (name, notFound())
            }
        }
        if rest == ["login"] {
            if method == "GET" { return (name, ConsolePage.response(200, LoginPage.render())) }
            if method == "POST" { return (name, login(request, keys: keys)) }
        }
        let sessionID = Self.cookie(Self.cookieName, in: request.header("cookie"))
        guard let sessionID, let session = sessions.session(sessionID, now: now()),
            let app = services.apps[session.app], let catalog = catalogs[session.app]
        else {
            if method == "GET" { return (name, ConsolePage.redirect("/console/login")) }
            return (name, ConsolePage.response(401, LoginPage.render(error: "Your session has ended: sign in again.")))
        }
        if method == "POST" {
            guard ConsoleOrigin.isSameOrigin(request) else {
                return (name, ConsolePage.response(403, page("Refused", session, "The form came from another site.")))
            }
        }
        switch (method, rest.first ?? "", rest.count) {
        case ("GET", "", 0): return (name, ConsolePage.redirect("/console/compose"))
        case ("POST", "logout", 1):
            guard let fields = try? form(request), csrfMatches(fields["csrf"], session) else {
                return (name, forbidden(session))
            }
            sessions.end(sessionID)
            return (name, ConsolePage.redirect("/console/login", headers: [("set-cookie", clearCookie())]))
        case ("GET", "compose", 1):
            let category = request.query["category"] ?? catalog.categories.first?.identifier ?? ""
            let composed = ComposeForm(category: category, locale: request.query["locale"] ?? catalog.defaultLocale)
            return (name, composePage(composed, app: app, catalog: catalog, session: session, services: services))
        case ("POST", "compose", 1):
            return (name, compose(request, app: app, catalog: catalog, session: session, services: services))
        case ("POST", "preview", 1):
            guard csrfMatches(request.header("x-csrf-token"), session), let fields = try? form(request) else {
                return (name, .json(403, ["error": "the CSRF token is missing or wrong: reload the page"]))
            }
            let composed = ComposeForm(
                fields, defaultCategory: catalog.categories.first?.identifier ?? "",
                defaultLocale: catalog.defaultLocale)
            let check = ComposeService(services: services).check(composed, app: app, catalog: catalog)
            var response = HTTPResponse.json(200, ComposePage.previewJSON(check, locale: composed.locale))
            response.headers += ConsolePage.securityHeaders
            return (name, response)
        case ("POST", "audience", 1):
            // The audience builder's live count: the same session, CSRF header and Origin rules as the preview.
            guard csrfMatches(request.header("x-csrf-token"), session), let fields = try? form(request) else {
                return (name, .json(403, ["error": "the CSRF token is missing or wrong: reload the page"]))
            }
            let counted = ComposeService(services: services).count(AudienceBuilder(fields, adding: false), app: app)
            var response = ComposePage.countResponse(counted)
            response.headers += ConsolePage.securityHeaders
            return (name, response)
        case ("GET", "campaigns", 1): return (name, campaigns(app: app, session: session, services: services))
        case ("GET", "campaigns", 2):
            return (name, campaign(rest[1], app: app, catalog: catalog, session: session, services: services))
        case ("GET", "campaigns", 3) where rest[2] == "experiment":
            return (name, experiment(rest[1], app: app, session: session, services: services))
        case ("GET", "devices", 1):
            do {
                let summary = try Self.deviceSummary(services.store, app: app.id)
                return (name, ConsolePage.response(200, DevicesPage.render(summary, problem: nil, session: session)))
            } catch {
                return (
                    name, ConsolePage.response(503, DevicesPage.render(nil, problem: error.message, session: session))
                )
            }
        default: return (name, notFound(session))
        }
    }

    // MARK: Sign-in

    private func login(_ request: HTTPRequest, keys: KeyRing) -> HTTPResponse {
        guard ConsoleOrigin.isSameOrigin(request) else {
            return ConsolePage.response(403, LoginPage.render(error: "The form came from another site."))
        }
        if let wait = signIns.retryAfter(request.peer, now: now()) {
            let seconds = Int(wait.rounded(.up))
            return ConsolePage.response(
                429,
                LoginPage.render(
                    error:
                        "Too many wrong keys from this address: try again in \(seconds) second\(seconds == 1 ? "" : "s")."
                ),
                headers: [("retry-after", String(seconds))])
        }
        guard let fields = try? form(request), let key = fields.text("key") else {
            return ConsolePage.response(400, LoginPage.render(error: "Enter the app's secret API key."))
        }
        guard let credential = keys.credential(for: key), credential.kind == .secret else {
            signIns.failed(request.peer, now: now())
            return ConsolePage.response(
                401,
                LoginPage.render(
                    error: "That is not a secret API key of an app on this gateway (publishable keys cannot sign in)."
                ))
        }
        signIns.succeeded(request.peer)
        let (id, _) = sessions.create(app: credential.app, now: now())
        var cookie =
            "\(Self.cookieName)=\(id); Path=/console; HttpOnly; SameSite=Strict; Max-Age=\(Int(ConsoleSessions.idleLifetime))"
        if secureCookies { cookie += "; Secure" }
        return ConsolePage.redirect("/console/compose", headers: [("set-cookie", cookie)])
    }

    private func clearCookie() -> String {
        "\(Self.cookieName)=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0" + (secureCookies ? "; Secure" : "")
    }

    /// A cookie's value from a `Cookie` header.
    static func cookie(_ name: String, in header: String?) -> String? {
        for pair in (header ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == name, !parts[1].isEmpty { return parts[1] }
        }
        return nil
    }

    private func csrfMatches(_ given: String?, _ session: ConsoleSession) -> Bool {
        guard let given else { return false }
        return Digest.constantTimeEqual(Digest.sha256(given.utf8), Digest.sha256(session.csrfToken.utf8))
    }

    private func form(_ request: HTTPRequest) throws(FormFields.Malformed) -> FormFields {
        try FormFields.parse(contentType: request.header("content-type"), body: request.body)
    }

    // MARK: Compose

    private func composePage(
        _ composed: ComposeForm, app: AppRuntime, catalog: ConsoleCatalog, session: ConsoleSession,
        services: GatewayServices, status: Int = 200, pageStatus: ComposePage.Status = .init(),
        extra: [Diagnostic] = []
    ) -> HTTPResponse {
        let service = ComposeService(services: services)
        var check = service.check(composed, app: app, catalog: catalog)
        // Diagnostics of the send (the audience, the recipient list) that the form's check cannot know.
        let known = Set(check.diagnostics.map { "\($0.path)|\($0.message)" })
        check.diagnostics += extra.filter { !known.contains("\($0.path)|\($0.message)") }
        return ConsolePage.response(
            status,
            ComposePage.render(
                composed, catalog: catalog, session: session, check: check,
                idempotencyKey: ConsoleSessions.randomToken(), status: pageStatus,
                savedSegments: service.savedSegmentNames(app: app)))
    }

    private func compose(
        _ request: HTTPRequest, app: AppRuntime, catalog: ConsoleCatalog, session: ConsoleSession,
        services: GatewayServices
    ) -> HTTPResponse {
        let fields: FormFields
        do { fields = try form(request) } catch {
            return ConsolePage.response(400, page("Bad request", session, error.message))
        }
        guard csrfMatches(fields["csrf"], session) else { return forbidden(session) }
        let composed = ComposeForm(
            fields, defaultCategory: catalog.categories.first?.identifier ?? "", defaultLocale: catalog.defaultLocale)
        guard fields["intent"] == "send" else {
            // "Count" without the script: the page again, with the audience's count.
            let devices =
                fields["intent"] == "count"
                ? try? ComposeService(services: services).count(composed.builder, app: app).get() : nil
            return composePage(
                composed, app: app, catalog: catalog, session: session, services: services,
                pageStatus: .init(devices: devices))
        }
        let outcome = ComposeService(services: services).send(
            composed, app: app, catalog: catalog, idempotencyKey: fields.text("idempotency").map { "console-" + $0 })
        switch outcome {
        case .campaign(let id):
            return ConsolePage.redirect("/console/campaigns/\(id)")
        case .sent(let id, let recipients):
            return composePage(
                composed, app: app, catalog: catalog, session: session, services: services,
                pageStatus: .init(notice: "Queued \(id) for \(recipients) recipient\(recipients == 1 ? "" : "s")."))
        case .refused(let message, let diagnostics):
            return composePage(
                composed, app: app, catalog: catalog, session: session, services: services, status: 422,
                pageStatus: .init(error: message), extra: diagnostics)
        }
    }

    // MARK: Campaigns and devices

    /// The store's console queries; a store without them is reported, not guessed at.
    static func queries(_ store: any GatewayStore) throws(GatewayError) -> any ConsoleQueries {
        guard let queries = store as? any ConsoleQueries else {
            throw GatewayError(501, "not_supported", "this gateway's store does not answer the console's queries")
        }
        return queries
    }

    static func deviceSummary(_ store: any GatewayStore, app: String) throws(GatewayError) -> DeviceSummary {
        let queries = try queries(store)
        do { return try queries.deviceSummary(app: app, inactiveLimit: 100) } catch { throw .store(error) }
    }

    private func campaigns(app: AppRuntime, session: ConsoleSession, services: GatewayServices) -> HTTPResponse {
        let queries: any ConsoleQueries
        do { queries = try Self.queries(services.store) } catch {
            return ConsolePage.response(503, CampaignsPage.render([], session: session, unavailable: error.message))
        }
        var records: [NotificationRecord] = []
        do {
            for id in try queries.campaignIDs(app: app.id, limit: 50) {
                if let record = try services.store.notification(id: id, limit: 0, after: 0) { records.append(record) }
            }
        } catch {
            GatewayError.log(error)
            return ConsolePage.response(
                503, CampaignsPage.render([], session: session, unavailable: GatewayError.storeUnavailableForPeople))
        }
        // Each with what of it waits (scheduled, held, throttled) and its expected finish.
        records = records.map { (try? services.notifications.scheduled($0)) ?? $0 }
        return ConsolePage.response(200, CampaignsPage.render(records, session: session))
    }

    private func campaign(
        _ id: String, app: AppRuntime, catalog: ConsoleCatalog, session: ConsoleSession, services: GatewayServices
    ) -> HTTPResponse {
        let record: NotificationRecord?
        do { record = try services.store.notification(id: id, limit: 0, after: 0) } catch {
            GatewayError.log(error)
            return ConsolePage.response(503, page("Campaign", session, GatewayError.storeUnavailableForPeople))
        }
        // Another app's campaign is "not found" here: the console never tells one app about another's.
        guard var record, record.spec.kind == .campaign, record.spec.app == app.id else {
            return notFound(session)
        }
        record = (try? services.notifications.scheduled(record)) ?? record
        var stats: TapStats?
        var problem: String?
        // The same numbers as GET /v1/apps/{app}/stats?campaign=ID.
        do { stats = try services.taps.statistics(app: app, query: ["campaign": id]) } catch {
            problem = error.message
        }
        return ConsolePage.response(
            200, CampaignPage.render(record, stats: stats, statsProblem: problem, catalog: catalog, session: session))
    }

    /// A campaign's experiment (issue 36): the page ``ExperimentPage`` renders; another app's campaign, or one
    /// without an experiment, is "not found".
    private func experiment(_ id: String, app: AppRuntime, session: ConsoleSession, services: GatewayServices)
        -> HTTPResponse
    {
        do {
            let report = try services.experiments.consoleReport(campaign: id, app: app.id)
            return ConsolePage.response(200, ExperimentPage.render(report, session: session))
        } catch {
            guard error.status >= 500 else { return notFound(session) }
            return ConsolePage.response(503, page("Experiment", session, GatewayError.storeUnavailableForPeople))
        }
    }

    // MARK: Answers

    private func asset(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [("content-type", type), ("cache-control", "max-age=300"), ("x-content-type-options", "nosniff")],
            body: Array(text.utf8))
    }

    private func page(_ title: String, _ session: ConsoleSession?, _ message: String) -> HTML {
        ConsolePage.html(
            title, section: .compose, session: session, content: "<p class=\"error-box\" role=\"alert\">\(message)</p>")
    }

    private func forbidden(_ session: ConsoleSession) -> HTTPResponse {
        ConsolePage.response(
            403, page("Refused", session, "The form's security token is missing or old: reload the page."))
    }

    private func notFound(_ session: ConsoleSession? = nil) -> HTTPResponse {
        ConsolePage.response(404, page("Not found", session, "There is no such console page."))
    }
}
