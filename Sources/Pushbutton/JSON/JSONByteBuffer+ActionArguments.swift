extension JSONByteBuffer {
    /// An action's arguments as an object, keys in sorted order: inline members are already in it, a
    /// dictionary's are sorted by ``writeObject(_:)``.
    mutating func writeArguments(_ arguments: ActionArguments) {
        guard let members = arguments.members else { return writeRaw("{}") }
        switch members.storage {
        case .none: writeRaw("{}")
        case .one(let key, let value):
            writeRaw(UInt8(ascii: "{"))
            writeArgument(key, value)
            writeRaw(UInt8(ascii: "}"))
        case .two(let key, let value, let otherKey, let otherValue):
            writeRaw(UInt8(ascii: "{"))
            writeArgument(key, value)
            writeRaw(UInt8(ascii: ","))
            writeArgument(otherKey, otherValue)
            writeRaw(UInt8(ascii: "}"))
        case .many(let members): writeObject(members)
        }
    }

    @inline(__always)
    private mutating func writeArgument(_ key: String, _ value: JSONValue) {
        write(key)
        writeRaw(UInt8(ascii: ":"))
        write(value)
    }
}
