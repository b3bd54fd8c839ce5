import Pushbutton

/// Registers categories without wiping anyone else's.
///
/// `setNotificationCategories` replaces the whole set, so every registration here reads what is
/// registered, merges by identifier (see ``CategorySet``) and writes the union. Dynamic categories
/// (from payloads' own buttons) are added on demand; beyond ``DynamicCategories/maximumRegistered``
/// the least recently used dynamic category is evicted, never a category from another source.
///
/// Registrations on the same center are serialized (across registrars, see ``RegistrationQueue``), so
/// concurrent ones never drop each other's categories. A category registered by an earlier launch reads
/// back in the system's form (see ``UserNotificationCenter/registeredForm(of:)``) and is recognised as the
/// same, not reported as a collision; a different definition under the same identifier still is.
public actor CategoryRegistrar {
    private let center: any UserNotificationCenter
    private let queue: RegistrationQueue
    /// Dynamic category identifiers, least recently used first.
    private var dynamicOrder: [String] = []

    public init(center: any UserNotificationCenter) {
        self.center = center
        queue = RegistrationQueue.queue(for: center)
    }

    /// Registers a manifest's categories (its built-ins, its own, its converted legacy ones).
    @discardableResult
    public func register(_ manifest: Manifest, source: CategorySource = .manifest()) async -> RegistrationReport {
        await register(manifest.categorySet(source: source))
    }

    /// Registers `categories`, keeping every category already registered under another identifier.
    @discardableResult
    public func register(_ categories: CategorySet) async -> RegistrationReport {
        await queue.run { await self.registerNow(categories) }
    }

    private func registerNow(_ categories: CategorySet) async -> RegistrationReport {
        let existing = await center.notificationCategories()
        // Ours from an earlier launch, read back exactly as registering ours would leave them, are not another
        // source's definitions.
        let others = existing.filter { registered in
            guard let ours = categories[registered.identifier] else { return true }
            return center.registeredForm(of: ours) != registered
        }
        var merged = CategorySet(others, from: .registered)
        let diagnostics = merged.merge(categories)
        await center.setNotificationCategories(merged.categories)
        let ours = Set(categories.identifiers)
        return RegistrationReport(
            registered: categories.identifiers, kept: existing.map(\.identifier).filter { !ours.contains($0) }.sorted(),
            evicted: [], diagnostics: diagnostics, total: merged.count)
    }

    /// Registers the category a payload's dynamic buttons need, if it is not registered yet.
    /// Returns `nil` when the payload defines no buttons.
    @discardableResult
    public func prepare(for payload: Payload) async -> RegistrationReport? {
        guard let buttons = payload.actions?.dynamicButtons, !buttons.isEmpty else { return nil }
        return await queue.run { await self.prepareNow(DynamicCategories.category(for: buttons)) }
    }

    private func prepareNow(_ category: Pushbutton.Category) async -> RegistrationReport {
        let existing = await center.notificationCategories()
        // Dynamic categories registered before this registrar existed (an earlier launch) count as oldest.
        for identifier in existing.map(\.identifier) where DynamicCategories.isDynamic(identifier) {
            if !dynamicOrder.contains(identifier) { dynamicOrder.insert(identifier, at: 0) }
        }
        dynamicOrder.removeAll { $0 == category.identifier }
        dynamicOrder.append(category.identifier)
        if existing.contains(where: { $0.identifier == category.identifier }) {
            return RegistrationReport(
                registered: [], kept: existing.map(\.identifier).sorted(), evicted: [], diagnostics: [],
                total: existing.count)
        }
        var merged = CategorySet(existing, from: .registered)
        merged.merge([category], from: .dynamic)
        var evicted: [String] = []
        while dynamicOrder.count > DynamicCategories.maximumRegistered {
            let oldest = dynamicOrder.removeFirst()
            merged.remove(oldest)
            evicted.append(oldest)
        }
        await center.setNotificationCategories(merged.categories)
        return RegistrationReport(
            registered: [category.identifier],
            kept: existing.map(\.identifier).filter { !evicted.contains($0) }.sorted(),
            evicted: evicted, diagnostics: [], total: merged.count)
    }
}
