/// The store's schema as ordered migrations (DESIGN §4 "Store"). Identifiers sort in application order.
///
/// Days are `TEXT` `YYYY-MM-DD` local dates (they sort as dates); instants are integer seconds since
/// the Unix epoch; times of day are integer minutes after local midnight (0…1439).
enum Schema {
    static let migrations: [Migration] = [
        Migration(identifier: "0001-days-measurements-analytics-settings", sql: initial),
        Migration(
            identifier: "0002-rmssd-adjacent-pairs", sql: rmssdMethod, recompute: RMSSDRecomputation.apply),
        Migration(identifier: "0003-experiments", sql: experiments),
        Migration(
            identifier: "0004-artifact-rule", sql: artifactRecomputation, recompute: ArtifactRuleRecomputation.apply),
        Migration(identifier: "0005-artifact-judgement", sql: artifactJudgement),
    ]

    /// How each morning's beats were judged (docs/artifacts.md, "How each morning was judged"): the rule, its
    /// detector's version, and the rejected beats by reason (`ArtifactTally.countsCode`). NULL for a morning judged
    /// before these were recorded, or imported from another tool. `judgement_job` logs the re-judging of the stored
    /// mornings, once each time the rule or its version changes (`Store.rejudge`).
    private static let artifactJudgement = """
        ALTER TABLE measurement ADD COLUMN artifact_rule TEXT CHECK (artifact_rule IN ('pattern', 'spec-20'));
        ALTER TABLE measurement ADD COLUMN detector_version INTEGER CHECK (detector_version >= 1);
        ALTER TABLE measurement ADD COLUMN hrv_rejections TEXT
            CHECK ((artifact_rule IS NULL) = (detector_version IS NULL)
                AND (artifact_rule IS NULL) = (hrv_rejections IS NULL));
        CREATE TABLE judgement_job (
            rule TEXT NOT NULL CHECK (rule IN ('pattern', 'spec-20')),
            version INTEGER NOT NULL CHECK (version >= 1),
            ran_at INTEGER NOT NULL,
            mornings INTEGER NOT NULL CHECK (mornings >= 0),
            moved INTEGER NOT NULL CHECK (moved >= 0),
            PRIMARY KEY (rule, version)
        ) WITHOUT ROWID;
        """

    /// The artifact rule's recomputation (docs/artifacts.md): which stored mornings it moved, and by how much.
    private static let artifactRecomputation = """
        CREATE TABLE rmssd_recomputation (
            day TEXT PRIMARY KEY NOT NULL \(day),
            rule TEXT NOT NULL,
            before_rmssd_ms REAL,
            after_rmssd_ms REAL,
            before_rejected INTEGER,
            after_rejected INTEGER
        ) WITHOUT ROWID;
        """

    private static let day = "CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')"

    /// rMSSD over adjacent pairs (spec §5.1): which method each stored value used, and over how many pairs.
    /// `RMSSDRecomputation` fills both and recomputes the values from the raw RR.
    private static let rmssdMethod = """
        ALTER TABLE measurement ADD COLUMN rmssd_method TEXT
            CHECK (rmssd_method IN ('adjacent_pairs', 'accepted_list', 'external'));
        ALTER TABLE measurement ADD COLUMN rmssd_pairs INTEGER CHECK (rmssd_pairs >= 0);
        """

    private static let initial = """
        -- The day's questionnaire (spec §9.1 Blocks A–E; review notes §6): five 1–7 scores, higher is better.
        CREATE TABLE questionnaire (
            day TEXT PRIMARY KEY NOT NULL \(day),
            fatigue INTEGER NOT NULL CHECK (fatigue BETWEEN 1 AND 7),
            mood INTEGER NOT NULL CHECK (mood BETWEEN 1 AND 7),
            soreness INTEGER NOT NULL CHECK (soreness BETWEEN 1 AND 7),
            stress INTEGER NOT NULL CHECK (stress BETWEEN 1 AND 7),
            sleep INTEGER NOT NULL CHECK (sleep BETWEEN 1 AND 7),
            caffeine_time INTEGER CHECK (caffeine_time BETWEEN 0 AND 1439),
            caffeine_mg INTEGER CHECK (caffeine_mg BETWEEN 0 AND 2000),
            last_meal_time INTEGER CHECK (last_meal_time BETWEEN 0 AND 1439),
            notes TEXT,
            recorded_at INTEGER NOT NULL
        );

        -- Habit tags toggled with the questionnaire; they go when the questionnaire is replaced or deleted.
        CREATE TABLE habit_tag (
            day TEXT NOT NULL REFERENCES questionnaire (day) ON DELETE CASCADE,
            habit TEXT NOT NULL CHECK (length(habit) BETWEEN 1 AND 64),
            PRIMARY KEY (day, habit)
        ) WITHOUT ROWID;

        -- The morning measurement (spec §5, §6.1): one row per day; remeasure replaces it.
        -- HRV columns are all NULL together in degraded (HR-only) mode. rr_raw and hr_readings use the
        -- sample encoding documented in SampleEncoding.swift.
        CREATE TABLE measurement (
            day TEXT PRIMARY KEY NOT NULL \(day),
            started_at INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL CHECK (duration_ms >= 0),
            quality TEXT NOT NULL
                CHECK (quality IN ('ok', 'too_few_beats', 'too_many_artifacts', 'rr_unavailable')),
            hrv_accepted INTEGER CHECK (hrv_accepted >= 0),
            hrv_rejected INTEGER CHECK (hrv_rejected >= 0),
            hrv_artifact_ratio REAL CHECK (hrv_artifact_ratio BETWEEN 0 AND 1),
            rmssd_ms REAL CHECK (rmssd_ms >= 0),
            mean_rr_ms REAL CHECK (mean_rr_ms > 0),
            hrv_mean_hr_bpm REAL CHECK (hrv_mean_hr_bpm > 0),
            sdnn_ms REAL CHECK (sdnn_ms >= 0),
            mean_hr_bpm REAL CHECK (mean_hr_bpm > 0),
            orthostatic_status TEXT NOT NULL CHECK (orthostatic_status IN ('completed', 'skipped', 'failed')),
            avg_lying_hr REAL,
            avg_standing_hr REAL,
            peak_standing_hr REAL,
            strap_address TEXT,
            strap_battery INTEGER CHECK (strap_battery BETWEEN 0 AND 100),
            settle_start_ms INTEGER NOT NULL,
            capture_start_ms INTEGER NOT NULL,
            capture_end_ms INTEGER NOT NULL,
            lying_end_ms INTEGER,
            stand_start_ms INTEGER,
            stand_end_ms INTEGER,
            rr_raw BLOB NOT NULL,
            hr_readings BLOB NOT NULL,
            recorded_at INTEGER NOT NULL,
            CHECK ((hrv_accepted IS NULL) = (hrv_rejected IS NULL)
                AND (hrv_accepted IS NULL) = (hrv_artifact_ratio IS NULL)),
            CHECK (hrv_accepted IS NOT NULL OR rmssd_ms IS NULL),
            CHECK ((avg_lying_hr IS NULL) = (avg_standing_hr IS NULL)
                AND (avg_lying_hr IS NULL) = (peak_standing_hr IS NULL))
        );

        -- Days that came from a history import rather than a box measurement.
        CREATE TABLE imported_day (
            day TEXT PRIMARY KEY NOT NULL \(day),
            source TEXT NOT NULL,
            imported_at INTEGER NOT NULL
        );

        -- Local analytics (spec §7.3): append-only, never leaves the box except in a full export.
        CREATE TABLE analytics_event (
            id INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            day TEXT,
            kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 64),
            value INTEGER,
            payload TEXT CHECK (payload IS NULL OR length(payload) <= 1024)
        );
        CREATE INDEX analytics_event_kind ON analytics_event (kind, at);

        -- Settings: habit list, display name, paired strap, reminder time…
        CREATE TABLE setting (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        """

    /// T4 experiments (DESIGN §6): the stored randomisation. The seed and block size re-draw the scheme for the
    /// randomisation test; each night's arm is kept too, so the schedule the person followed is on record as it
    /// was shown, whatever a later program's drawing code does.
    private static let experiments = """
        CREATE TABLE experiment (
            id INTEGER PRIMARY KEY,
            habit TEXT NOT NULL CHECK (length(habit) BETWEEN 1 AND 64),
            outcome TEXT NOT NULL CHECK (outcome IN ('rmssd', 'lyingHR', 'gapPeak', 'gapAvg', 'subjective')),
            first_day TEXT NOT NULL CHECK (first_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
            mornings INTEGER NOT NULL CHECK (mornings BETWEEN 4 AND 366),
            block INTEGER NOT NULL CHECK (block >= 2 AND block % 2 = 0 AND mornings % block = 0),
            seed INTEGER NOT NULL,
            started_at INTEGER NOT NULL,
            -- Stopped early: the first morning no longer in the experiment.
            stopped_day TEXT CHECK (stopped_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
            stopped_at INTEGER
        );

        -- One row per morning of the schedule: the arm of the night before it.
        CREATE TABLE experiment_morning (
            experiment_id INTEGER NOT NULL REFERENCES experiment (id) ON DELETE CASCADE,
            day TEXT NOT NULL \(day),
            arm TEXT NOT NULL CHECK (arm IN ('habit', 'without')),
            PRIMARY KEY (experiment_id, day)
        ) WITHOUT ROWID;
        """
}
