/// The experiments' tables (issue 36), as one named migration of ``StoreMigrations``.
enum ExperimentSchema {
    static let migration = (
        name: "50-experiments",
        sql: """
        -- A campaign's A/B experiment: its variants (JSON array of names, in order), the rule, and where it is
        -- (running: no test phase; testing → deciding (claimed by one process) → rolling_out → rolled_out).
        CREATE TABLE experiments (
            campaign_id TEXT PRIMARY KEY,
            app TEXT NOT NULL,
            variants TEXT NOT NULL,
            control TEXT NOT NULL,
            default_variant TEXT NOT NULL,
            metric TEXT,
            state TEXT NOT NULL,
            decide_after {REAL},
            planned_trials INTEGER,
            claimed_at {REAL},
            decided_at {REAL},
            rolled_out TEXT,
            verdict TEXT
        );
        CREATE INDEX experiments_due ON experiments (state, decide_after);
        -- Each recipient's variant and phase: test (sent its variant), holdout (sent nothing), waiting (for the
        -- decision; `data` is its line's own template data, if any), rolled_out (sent the rolled-out variant).
        CREATE TABLE experiment_recipients (
            campaign_id TEXT NOT NULL,
            token TEXT NOT NULL,
            variant TEXT,
            phase TEXT NOT NULL,
            data {BLOB},
            PRIMARY KEY (campaign_id, token)
        );
        -- The variant a device reported with a tap (the payload's pushbutton.variant).
        ALTER TABLE tap_events ADD COLUMN variant TEXT;
        """
    )
}
