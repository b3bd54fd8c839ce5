extension JSONByteBuffer {
    /// An action's arguments as an object, keys in sorted order: inline members are already in it, a
    /// dictionary's are sorted by ``writeObject(_:)``.
    mutating func writeArguments(_ arguments: ActionArguments) {
        guard let members = arguments.members else { return writeRaw("{}") }
        switch members.count {
        case 1:
            writeRaw(UInt8(ascii: "{"))
            writeArgument(members.firstKey, members.firstValue)
            writeRaw(UInt8(ascii: "}"))
        case 2:
            writeRaw(UInt8(ascii: "{"))
            writeArgument(members.firstKey, members.firstValue)
            writeRaw(UInt8(ascii: ","))
            writeArgument(members.secondKey, members.secondValue)
            writeRaw(UInt8(ascii: "}"))
        default: writeObject(members.dictionary)
        }
    }

    @inline(__always)
    private mutating func writeArgument(_ key: String, _ value: JSONValue) {
        write(key)
        writeRaw(UInt8(ascii: ":"))
        write(value)
    }
}
