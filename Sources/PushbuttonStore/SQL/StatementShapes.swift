/// The few row counts a multi-row statement is written with, so each connection's prepared statements (kept
/// by SQL text, for the connection's life) stay a handful: a statement for every count a lease or a batch of
/// outcomes happened to have grew the SQLite connections' memory for as long as the gateway ran.
enum StatementShapes {
    /// The counts, largest first: ``SQLGatewayStore/rowsPerStatement`` and the powers of two below it.
    static let sizes: [Int] = {
        var sizes = [SQLGatewayStore.rowsPerStatement]
        var size = 256
        while size >= 1 {
            if size < SQLGatewayStore.rowsPerStatement { sizes.append(size) }
            size /= 2
        }
        return sizes
    }()

    /// `count` rows split into chunks of the fixed sizes, in order (largest first: at most one of each size
    /// below the largest), for statements that cannot be padded (an INSERT of real rows).
    static func chunks(_ count: Int) -> [Range<Int>] {
        var chunks: [Range<Int>] = []
        var start = 0
        for size in sizes {
            while count - start >= size {
                chunks.append(start..<start + size)
                start += size
            }
        }
        return chunks
    }

    /// The row count a statement of `count` rows (at most ``SQLGatewayStore/rowsPerStatement``) is padded to:
    /// the smallest fixed size that holds them, for statements where extra rows change nothing (an `IN` list
    /// repeating a value, an UPDATE's VALUES with keys that match no row).
    static func padded(_ count: Int) -> Int {
        sizes.last { $0 >= count } ?? sizes[0]
    }
}
