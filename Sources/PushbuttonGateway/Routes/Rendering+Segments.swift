import Pushbutton
import PushbuttonStore

extension Rendering {
    /// A saved segment: its name, expression (as saved) and when it was saved.
    static func segment(_ saved: SavedSegment) -> JSONValue {
        .object([
            "name": .string(saved.name),
            "segment": (try? JSONParser.parse(saved.expression)) ?? .null,
            "updated_at": milliseconds(saved.updatedAt),
        ])
    }
}
