/// An APNs payload: the `aps` dictionary, Pushbutton's per-button actions, the seeds' `action_args`
/// convention, and any other top-level keys.
///
/// Write it with ``PayloadWriter`` (compact JSON bytes, sorted keys), read any APNs payload with
/// ``parse(_:)-(Array<UInt8>)``, check it with ``PayloadValidator``.
///
/// A payload is a value: its members live in one shared box that is copied only when a copy is changed, so
/// passing or copying a payload costs one retain. The members are reached through addressors (a pointer into
/// the box, which the payload keeps alive during the access): read in place, never copied to be read.
///
/// `@unchecked Sendable`: the storage's class (a `ManagedBuffer`) cannot be declared `Sendable`; its members
/// are (`PayloadStorage.Members` is checked), and it is written only while this payload holds the one
/// reference to it (see `makeUnique()`), so no storage reachable from two threads is ever written.
public struct Payload: @unchecked Sendable, Hashable {
    /// The top-level key of Pushbutton's per-button actions.
    public static let actionsKey = "pushbutton"
    /// The top-level key of the arguments for the app-defined action matching the tapped button.
    public static let actionArgumentsKey = "action_args"

    private var storage: PayloadStorage

    /// The `aps` dictionary: what the system reads.
    public var aps: APS {
        unsafeAddress { UnsafePointer(storage.members.pointer(to: \.aps)!) }
        unsafeMutableAddress {
            makeUnique()
            return storage.members.pointer(to: \.aps)!
        }
    }
    /// What each button (and the body tap, and dismissal) does, under ``actionsKey``.
    public var actions: PayloadActions? {
        unsafeAddress { UnsafePointer(storage.members.pointer(to: \.actions)!) }
        unsafeMutableAddress {
            makeUnique()
            return storage.members.pointer(to: \.actions)!
        }
    }
    /// `action_args`: the arguments of the app-defined action whose identifier matches the tapped button.
    public var actionArguments: [String: JSONValue]? {
        unsafeAddress { UnsafePointer(storage.members.pointer(to: \.actionArguments)!) }
        unsafeMutableAddress {
            makeUnique()
            return storage.members.pointer(to: \.actionArguments)!
        }
    }
    /// Every other top-level key, kept as is (a parsed payload loses nothing).
    public var custom: [String: JSONValue] {
        unsafeAddress { UnsafePointer(storage.members.pointer(to: \.custom)!) }
        unsafeMutableAddress {
            makeUnique()
            return storage.members.pointer(to: \.custom)!
        }
    }

    /// Creates a payload from its parts; `nil` actions or arguments leave the `pushbutton` and `action_args` keys out.
    public init(
        aps: APS = APS(), actions: PayloadActions? = nil, actionArguments: [String: JSONValue]? = nil,
        custom: [String: JSONValue] = [:]
    ) {
        storage = PayloadStorage.make(
            PayloadStorage.Members(aps: aps, actions: actions, actionArguments: actionArguments, custom: custom))
    }

    /// An empty payload (only the empty `aps` dictionary every written payload has).
    public init() {
        storage = PayloadStorage.makeEmpty()
    }

    /// A visible notification showing `category`'s buttons.
    public static func interactive(category: String, title: String? = nil, body: String) -> Payload {
        var payload = Payload()
        let members = payload.uniqueMembers()
        members.pointee.aps.alert = .content(AlertContent(title: title, body: body))
        members.pointee.aps.category = category
        return payload
    }

    /// Gives this payload a storage of its own before one of its members changes.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// The members to change in place, in a storage of this payload's own; valid while the payload is not
    /// copied or changed otherwise. The builders use it: the accessors copy what they cannot prove unchanged.
    mutating func uniqueMembers() -> UnsafeMutablePointer<PayloadStorage.Members> {
        makeUnique()
        return storage.members
    }

    /// The members to read in place (the writer and the validator read them), valid while the payload lives.
    var members: UnsafePointer<PayloadStorage.Members> { UnsafePointer(storage.members) }

    /// Whether both payloads hold equal members (at once when they share their storage).
    public static func == (lhs: Payload, rhs: Payload) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.members.pointee == rhs.storage.members.pointee
    }

    /// Hashes the members, as equality compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.members.pointee)
    }
}
