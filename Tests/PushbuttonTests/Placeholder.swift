import Foundation
import Pushbutton
import Testing

@Test func sanity() throws {
    for name in ["manifest", "legacy-manifest", "broken-manifest"] {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "Examples/\(name).json")))
        let result = Manifest.parse(bytes)
        print("== \(name): usable=\(result.isUsable)")
        for d in result.diagnostics { print(d.location.map { "\($0)" } ?? "-", d) }
    }
}
