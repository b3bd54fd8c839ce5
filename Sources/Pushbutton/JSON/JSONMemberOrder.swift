/// An object's members in sorted key order, as both JSON writers write them: up to eight are sorted on the
/// stack (one pass over the dictionary copies them into stack memory, an insertion sort orders them — a
/// comparison or two for the usual two or three keys), more into a new array.
enum JSONMemberOrder {
    /// Objects up to this size are sorted on the stack instead of into a new array.
    static let stackLimit = 8

    /// Calls `body` with each member's position, key and value, in key order.
    @inline(__always)
    static func forEach(_ members: [String: JSONValue], _ body: (Int, String, JSONValue) -> Void) {
        guard members.count <= stackLimit else {
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                body(index, member.key, member.value)
            }
            return
        }
        withUnsafeTemporaryAllocation(of: (key: String, value: JSONValue).self, capacity: members.count) { buffer in
            var count = 0
            for member in members {
                buffer.initializeElement(at: count, to: member)
                var index = count
                while index > 0, buffer[index].key < buffer[index - 1].key {
                    buffer.swapAt(index, index - 1)
                    index -= 1
                }
                count += 1
            }
            for index in 0..<count { body(index, buffer[index].key, buffer[index].value) }
            _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<count]).deinitialize()
        }
    }
}
