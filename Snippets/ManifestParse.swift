// Reading a manifest never traps: every problem is a diagnostic with a path, a position, a severity and a hint.
import Foundation
import Pushbutton

// snippet.hide
func readManifest(manifestURL: URL) throws {
    // snippet.show
    let result = Manifest.parse(Array(try Data(contentsOf: manifestURL)))
    for diagnostic in result.diagnostics { print(diagnostic) }
    if let manifest = result.manifest, result.isUsable {
        let categories = manifest.categorySet()  // built-ins + the app's, merged by identifier
        // snippet.hide
        print(categories)
        // snippet.show
    }
    // snippet.hide
}
