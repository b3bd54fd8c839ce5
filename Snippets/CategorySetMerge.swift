// Merging categories by identifier instead of replacing them.
import Pushbutton

// snippet.hide
func merge(alreadyRegistered: [Pushbutton.Category], manifest: Manifest) {
    // snippet.show
    var set = CategorySet(alreadyRegistered, from: .registered)
    let collisions = set.merge(manifest.categorySet())
    // snippet.hide
    print(collisions)
}
