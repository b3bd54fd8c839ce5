/// Migration 70: SQLite's audience table gains `bits` (``AudienceBits``), a Bloom filter of the device's tags and
/// language that a tag or locale leaf tests first (issue 35: on a million devices a tag count read and searched
/// every device's tag list, 171–184 ms against a 200 ms target). The table is made again with the column after
/// its key (a WITHOUT ROWID record starts with the key columns, so the integer is read before the variable-width
/// ones), with triggers computing it, and filled from the devices as migration 69 filled it. PostgreSQL's counts
/// were well under the target: nothing changes there.
enum AudienceBitsSchema {
    /// The audience columns and their values of a device row (`row` its columns' prefix), with `bits`.
    private static func columnsAndValues(of row: String) -> (columns: String, values: String) {
        (
            AudienceTableSchema.columns + ", bits",
            AudienceTableSchema.values(of: row, greatest: "max", find: "instr") + ", "
                + AudienceBits.sql(
                    tags: "\(row)tags", language: AudienceTableSchema.language(of: row, find: "instr"))
        )
    }

    static let migration = (
        name: "70-audience-bits",
        sql: "{SQLITE: " + sqlite + "}"
    )

    /// The migration's SQLite script (the triggers dropped first: they write the table made again).
    private static var sqlite: String {
        let trigger = columnsAndValues(of: "NEW.")
        let fill = columnsAndValues(of: "v.")
        return """
            DROP TRIGGER devices_audience_insert;
            DROP TRIGGER devices_audience_update;
            DROP TRIGGER devices_audience_delete;
            DROP TABLE audience;
            CREATE TABLE audience (
                app TEXT NOT NULL,
                bits INTEGER NOT NULL,
                \(AudienceTableSchema.columnDefinitions)
            ) WITHOUT ROWID;
            \(AudienceTableSchema.sqliteTriggers(columns: trigger.columns, values: trigger.values))
            INSERT INTO audience (\(fill.columns)) SELECT \(fill.values) FROM devices v WHERE v.active = 1;
            ANALYZE audience;
            """
    }
}
