import Foundation
import Pushbutton
import Testing

@testable import PushbuttonGateway

/// `Documentation/openapi.json` describes exactly the gateway's routes: every route of the router's table (and the
/// health routes) is documented, nothing else is, and each documented operation reaches its own route through the
/// router (the metrics label it gets, never `unknown`).
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

    /// The router's routes as metrics labels: its table, and the health routes it answers before the table (they
    /// need no key, and stay up when the table's routes cannot answer).
    static var routes: Set<String> {
        Set(Router.routes.map(\.label)).union([Router.label("GET", "healthz"), Router.label("GET", "readyz")])
    }

    @Test func everyRouteIsDocumentedAndNothingElse() throws {
        let documented = try Self.documentedOperations()
        #expect(
            Self.routes.subtracting(documented).isEmpty,
            "routes missing from Documentation/openapi.json: \(Self.routes.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(Self.routes).isEmpty,
            "documented operations the router does not have: \(documented.subtracting(Self.routes).sorted())")
    }

    /// Each documented operation, sent through the router with sample path parameters, is counted under its own
    /// route label: the document's paths are the ones the router matches.
    @Test func everyDocumentedOperationReachesItsRoute() throws {
        let client = try RouterClient()
        let samples = [
            "{app}": "chat", "{token}": GatewayFixture.token(1), "{id}": "n_unknown", "{name}": "unknown-segment",
        ]
        let documented = try Self.documentedOperations().sorted()
        for operation in documented {
            let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
            var path = parts[1]
            for (name, value) in samples { path = path.replacingOccurrences(of: name, with: value) }
            #expect(!path.contains("{"), "\(operation): a path parameter without a sample value")
            let answer = client.request(parts[0], path, json: parts[0] == "GET" ? nil : "{}")
            #expect(answer.status != 405 && answer.status != 501, "\(operation): \(answer.status) \(answer.body)")
        }
        let counted = Set(
            client.metrics.render(queueDepth: nil).split(separator: "\n").compactMap { line -> String? in
                let prefix = "pushbutton_http_requests_total{route=\""
                guard line.hasPrefix(prefix), let end = line.dropFirst(prefix.count).firstIndex(of: "\"") else {
                    return nil
                }
                return String(line.dropFirst(prefix.count)[..<end])
            })
        for operation in documented {
            #expect(counted.contains(operation), "\(operation) is not a route label: \(counted.sorted())")
        }
        #expect(!counted.contains(Router.unknownRoute), "a documented operation matched no route: \(counted.sorted())")
    }

    /// What schemathesis found (scripts/api-fuzz.sh): a `registered_at` past Int64's milliseconds crashed the
    /// gateway when it rendered the device; the health routes answered other methods with 404.
    @Test func fuzzFindingsStayFixed() throws {
        let client = try RouterClient()
        let path = "/v1/apps/chat/devices/\(GatewayFixture.token(1))"
        let huge = client.request("PUT", path, json: #"{"registered_at": 9223372036854775806}"#)
        #expect(huge.status == 422, "\(huge.body)")
        #expect(
            huge.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.first?
                .objectValue?["path"]?.stringValue == "registered_at")
        let last = client.request("PUT", path, json: #"{"registered_at": 253402300799999}"#)
        #expect(last.status == 200, "\(last.body)")
        for health in ["/healthz", "/readyz"] {
            let answer = client.request("TRACE", health, key: nil)
            #expect(answer.status == 405, "\(health): \(answer.body)")
            #expect(answer.header("allow") == "GET, HEAD")
        }
    }
}
