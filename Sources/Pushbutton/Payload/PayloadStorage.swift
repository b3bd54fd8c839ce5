/// The members of a ``Payload``, shared between its copies until one of them changes (copy on write).
///
/// A payload's members take about 560 bytes with some thirty references; held here, a copy of a `Payload` is
/// one retain instead of a copy of all of them, and building one no longer copies it at each step. They are
/// the header of a `ManagedBuffer` (with no elements), reached through its pointer: the stored properties of
/// a class are checked for exclusive access at run time on every read and write (`swift_beginAccess`).
///
/// It is changed only through `Payload`'s mutable addressors, which first give the payload a storage of its
/// own when it is shared (`isKnownUniquelyReferenced`), so a storage reachable from more than one payload is
/// never written (which is what makes `Payload` sendable).
final class PayloadStorage: ManagedBuffer<PayloadStorage.Members, Void> {
    /// What a payload holds, compared and hashed as the payload.
    struct Members: Hashable, Sendable {
        var aps: APS
        var actions: PayloadActions?
        var actionArguments: [String: JSONValue]?
        var custom: [String: JSONValue]
    }

    /// A new storage holding `members`.
    static func make(_ members: __owned Members) -> PayloadStorage {
        unsafeDowncast(create(minimumCapacity: 0) { _ in members }, to: PayloadStorage.self)
    }

    /// An empty payload's members, built once: copying them is cheaper than building them (which builds the
    /// `aps` aside and copies it in).
    private static let emptyMembers = Members(aps: APS(), actions: nil, actionArguments: nil, custom: [:])

    /// A new storage holding an empty payload's members.
    static func makeEmpty() -> PayloadStorage {
        unsafeDowncast(create(minimumCapacity: 0) { _ in emptyMembers }, to: PayloadStorage.self)
    }

    /// The members, in place. Reached through the pointer, not `header`: the header is a stored property of the
    /// class, so each access to it would be checked for exclusivity at run time (a call each time).
    var members: UnsafeMutablePointer<Members> {
        // The pointer is used only while the payload holding this storage keeps it alive.
        withUnsafeMutablePointerToHeader { $0 }
    }

    /// A storage of its own with the same members, for a payload about to change one.
    func copy() -> PayloadStorage {
        Self.make(members.pointee)
    }
}
