/// Categories gathered from several sources and merged **by identifier**.
///
/// iOS's `setNotificationCategories` replaces the whole set, which is how SDKs wipe each other's
/// buttons. A `CategorySet` never replaces wholesale: merging adds categories, and only a category
/// with the same identifier can be displaced, by a source of higher precedence (on a tie the one
/// already present stays). Every displacement of a different definition is reported, naming both
/// sources. Iteration is in identifier order, so the result does not depend on hash seeds.
public struct CategorySet: Sendable, Hashable, Sequence {
    private var entries: [String: (category: Category, source: CategorySource)] = [:]

    /// An empty set.
    public init() {}

    /// A set holding `categories` from one source (later duplicates within it are reported and dropped).
    public init(_ categories: [Category], from source: CategorySource = .app) {
        _ = merge(categories, from: source)
    }

    /// How many categories the set holds.
    public var count: Int { entries.count }
    /// Whether the set holds no category.
    public var isEmpty: Bool { entries.isEmpty }
    /// The category identifiers, sorted.
    public var identifiers: [String] { entries.keys.sorted() }

    /// The categories in identifier order.
    public var categories: [Category] { identifiers.compactMap { entries[$0]?.category } }

    /// Iterates the categories in identifier order.
    public func makeIterator() -> IndexingIterator<[Category]> { categories.makeIterator() }

    /// The category with `identifier`, or `nil` when the set has none.
    public subscript(identifier: String) -> Category? { entries[identifier]?.category }

    /// The source a category came from.
    public func source(of identifier: String) -> CategorySource? { entries[identifier]?.source }

    /// Merges `categories` from `source` and returns one diagnostic per collision with a different definition.
    @discardableResult
    public mutating func merge(_ categories: [Category], from source: CategorySource) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (index, category) in categories.enumerated() {
            if let diagnostic = insert(category, from: source, index: index) { diagnostics.append(diagnostic) }
        }
        return diagnostics
    }

    /// Merges another set into this one, each category keeping its own source.
    @discardableResult
    public mutating func merge(_ other: CategorySet) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for identifier in other.identifiers {
            guard let entry = other.entries[identifier] else { continue }
            if let diagnostic = insert(entry.category, from: entry.source, index: nil) {
                diagnostics.append(diagnostic)
            }
        }
        return diagnostics
    }

    /// Removes the category with this identifier, returning it.
    @discardableResult
    public mutating func remove(_ identifier: String) -> Category? {
        entries.removeValue(forKey: identifier)?.category
    }

    private mutating func insert(_ category: Category, from source: CategorySource, index: Int?) -> Diagnostic? {
        guard let existing = entries[category.identifier] else {
            entries[category.identifier] = (category, source)
            return nil
        }
        if existing.category == category {
            if source.precedence > existing.source.precedence { entries[category.identifier] = (category, source) }
            return nil
        }
        let path = index.map { JSONPath.root.appending($0) } ?? .root
        if source.precedence > existing.source.precedence {
            entries[category.identifier] = (category, source)
            return Diagnostic(
                .warning, .categoryCollision, at: path,
                "category '\(category.identifier)' from \(source) replaces the different definition from \(existing.source)",
                hint: "rename one of them, or remove the definition from \(existing.source)")
        }
        return Diagnostic(
            .warning, .categoryCollision, at: path,
            "category '\(category.identifier)' from \(source) is ignored: \(existing.source) already defines it differently",
            hint: "rename one of them, or give \(source) a higher precedence")
    }

    /// Equal when both hold the same categories from the same sources.
    public static func == (lhs: CategorySet, rhs: CategorySet) -> Bool {
        lhs.identifiers == rhs.identifiers
            && lhs.identifiers.allSatisfy { identifier in
                guard let left = lhs.entries[identifier], let right = rhs.entries[identifier] else { return false }
                return left == right
            }
    }

    /// Hashes the categories and their sources in identifier order.
    public func hash(into hasher: inout Hasher) {
        for identifier in identifiers {
            guard let entry = entries[identifier] else { continue }
            hasher.combine(entry.category)
            hasher.combine(entry.source)
        }
    }
}
