/// Migration 65: SQLite's index of the active devices' segment columns (migration 62's `devices_audience`) made to
/// cover a count. A count's `active = 1` names a column the index did not hold, and SQLite 3.40 does not take a
/// partial index's own `WHERE active = 1` for it: every count read each active device's table row beside its
/// index entry (`SEARCH d USING INDEX`, not `COVERING INDEX`). With `active` among its columns (an integer 1 is
/// stored in no bytes) the index alone answers. PostgreSQL has no such index (its counts scan the table).
enum AudienceCoveringSchema {
    static let migration = (
        name: "65-audience-covering",
        sql: """
        {SQLITE: DROP INDEX devices_audience;
        CREATE INDEX devices_audience ON devices (app, locale, version_number, time_zone, updated_at, last_tap_at,
            last_button_at, user_id, tags, token, active) WHERE active = 1;}
        """
    )
}
