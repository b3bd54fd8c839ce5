// The gateway in your own process: read a configuration file, start, stop.
import Foundation
import PushbuttonGateway

// snippet.hide
func runGateway(url: URL, directory: String) async throws {
    // snippet.show
    let parsed = GatewayConfiguration.parse(Array(try Data(contentsOf: url)), baseDirectory: directory)
    guard let configuration = parsed.configuration else {
        for diagnostic in parsed.diagnostics { print(diagnostic) }  // where, what and how to fix it
        return
    }
    let gateway = try await Gateway.start(configuration)
    // … later
    await gateway.stop()
    // snippet.hide
}
