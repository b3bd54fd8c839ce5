// Loading the manifest at run time: the app bundles `notifications.json` (the file the server validates with),
// and registers from it; no code generation step.
import Foundation
import Pushbutton
import PushbuttonReceiver

// snippet.hide
func loadManifests() {
    // snippet.show
    do {
        let manifest = try Manifest.bundled()  // notifications.json in the app's main bundle
        print(manifest.categorySet())
    } catch {
        print(error)  // which file, what is wrong, and the manifest's diagnostics
    }
    // snippet.hide
}
