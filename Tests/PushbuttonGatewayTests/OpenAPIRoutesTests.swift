import Foundation
import Pushbutton
import PushbuttonGateway
import Testing

/// `Documentation/openapi.json` describes exactly the gateway's routes: every documented operation reaches its own
/// route (the metrics label the router gives it, not `unknown`), and every route of the router is documented.
@Suite(.timeLimit(.minutes(3)))
struct OpenAPIRoutesTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The document's operations as metrics labels, `GET /v1/notifications/{id}`.
    static func documentedOperations() throws -> Set<String> {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Documentation/openapi.json"))
        let document = try JSONParser.parse(Array(data))
        #expect(document.objectValue?["openapi"]?.stringValue == "3.1.0")
        let paths = try #require(document.objectValue?["paths"]?.objectValue, "openapi.json has no paths")
        var operations: Set<String> = []
        for (path, item) in paths {
            for method in (item.objectValue ?? [:]).keys
            where ["get", "put", "post", "delete", "patch", "head", "options", "trace"].contains(method) {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    /// The routes the router's source declares, as metrics labels: each `match("GET", "pattern")` line of the
    /// router and each `Router.label(…)` of the tap routes. (The health routes are matched without a pattern.)
    static func declaredRoutes() throws -> Set<String> {
        let directory = packageRoot.appendingPathComponent("Sources/PushbuttonGateway/Routes")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".swift") }
        let declaration = try Regex(#"(?:match|label|Route)\("([A-Z]+)", "([^"]+)"\)"#)
        var routes: Set<String> = ["GET /healthz", "GET /readyz"]
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for found in text.matches(of: declaration) {
                guard let method = found.output[1].substring, let pattern = found.output[2].substring else { continue }
                routes.insert("\(method) /\(pattern)")
            }
        }
        return routes
    }

    @Test func everyRouteIsDocumentedAndNothingElse() throws {
        let documented = try Self.documentedOperations()
        let declared = try Self.declaredRoutes()
        #expect(declared.count >= 15, "the router's routes were not found in its source: \(declared.sorted())")
        #expect(
            declared.subtracting(documented).isEmpty,
            "routes missing from Documentation/openapi.json: \(declared.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(declared).isEmpty,
            "documented operations the router does not have: \(documented.subtracting(declared).sorted())")
    }

    /// Each documented operation, sent to a running gateway with sample path parameters, is counted under its own
    /// route label in `/metrics`: the document's paths are the ones the router matches.
    @Test func everyDocumentedOperationReachesItsRoute() async throws {
        let fixture = try await GatewayFixture()
        defer { Task { await fixture.stop() } }
        let samples = ["{app}": "chat", "{token}": GatewayFixture.token(1), "{id}": "n_unknown"]
        let documented = try Self.documentedOperations().sorted()
        for operation in documented {
            let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
            var path = parts[1]
            for (name, value) in samples { path = path.replacingOccurrences(of: name, with: value) }
            #expect(!path.contains("{"), "\(operation): a path parameter without a sample value")
            let answer = try await fixture.request(parts[0], path, json: parts[0] == "GET" ? nil : "{}")
            #expect(answer.status != 405, "\(operation): \(answer.body)")
        }
        let metrics = try await fixture.request("GET", "/metrics")
        let counted = Set(
            metrics.body.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("pushbutton_http_requests_total{route=\""),
                    let end = line.dropFirst(38).firstIndex(of: "\"")
                else { return nil }
                return String(line.dropFirst(38)[..<end])
            })
        for operation in documented {
            #expect(counted.contains(operation), "\(operation) is not a route label: \(counted.sorted())")
        }
        #expect(!counted.contains("unknown"), "a documented operation matched no route: \(counted.sorted())")
    }
}
