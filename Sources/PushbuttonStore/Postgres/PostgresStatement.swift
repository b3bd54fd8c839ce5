internal import CPostgreSQL

/// A statement prepared on one connection (`PQprepare`), with what the server inferred for it
/// (`PQdescribePrepared`): its parameters' types, so integers, reals and bytes go in binary, and whether every
/// result column has a binary form the connection reads (then results come back binary: no text to parse, no
/// bytea hex to decode).
struct PostgresStatement {
    /// The server-side name, unique on its connection.
    let name: String
    /// Each parameter's type OID, in order.
    let parameterTypes: [UInt32]
    /// Each result column's type OID, in order.
    let columnTypes: [UInt32]
    /// Results in binary (1) or text (0), for `PQexecPrepared`'s `resultFormat`.
    let resultFormat: Int32
    /// When it was last run, in the cache's count of runs (the least recent is let go first).
    var lastUse: Int

    /// The column types whose binary form ``PostgresConnection`` decodes; a result with any other (numeric,
    /// timestamps…) comes back as text.
    static func readsBinary(_ type: UInt32) -> Bool {
        switch Int(type) {
        case PUSHBUTTON_PG_BOOL, PUSHBUTTON_PG_BYTEA, PUSHBUTTON_PG_INT8, PUSHBUTTON_PG_INT2, PUSHBUTTON_PG_INT4,
            PUSHBUTTON_PG_FLOAT4, PUSHBUTTON_PG_FLOAT8, PUSHBUTTON_PG_TEXT, PUSHBUTTON_PG_VARCHAR:
            true
        default: false
        }
    }
}
