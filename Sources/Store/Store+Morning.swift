import RecoveryCore

extension Store {
    /// Saves a finished morning in one transaction (DESIGN §4): the day's measurement row, replacing
    /// an earlier one for the same day (remeasure overwrites, spec §6.1, no versions), and the
    /// analytics events the morning implies (`AnalyticsEvent.describing(_:at:)`). After a crash at
    /// any instant the day is either as it was or complete. A day the box measured is the box's own from then
    /// on: its imported mark goes, so a later history import leaves it alone unless forced.
    public func saveMorning(_ morning: MorningMeasurement, recordedAt: Int64) throws(StoreError) {
        try followFile()
        try database.transaction { () throws(StoreError) in
            try writeMeasurement(morning, recordedAt: recordedAt)
            try clearImportedMark(morning.date)
            for event in AnalyticsEvent.describing(morning, at: recordedAt) { try writeEvent(event) }
        }
    }

    /// The morning measurement of `date`, or nil when the day has none.
    public func measurement(on date: LocalDate) throws(StoreError) -> MorningMeasurement? {
        try measurements(from: date, through: date)[date]
    }

    func writeMeasurement(_ m: MorningMeasurement, recordedAt: Int64) throws(StoreError) {
        let rr = try SampleEncoding.encode(rr: m.rawRR)
        let hr = try SampleEncoding.encode(heartRates: m.heartRates)
        try database.run("DELETE FROM measurement WHERE day = ?1", [.text(m.date.iso)])
        try database.run(
            """
            INSERT INTO measurement (day, started_at, duration_ms, quality, hrv_accepted, hrv_rejected,
                hrv_artifact_ratio, rmssd_ms, mean_rr_ms, hrv_mean_hr_bpm, sdnn_ms, mean_hr_bpm, orthostatic_status,
                avg_lying_hr, avg_standing_hr, peak_standing_hr, strap_address, strap_battery, settle_start_ms,
                capture_start_ms, capture_end_ms, lying_end_ms, stand_start_ms, stand_end_ms, rr_raw, hr_readings,
                recorded_at, rmssd_method, rmssd_pairs, artifact_rule, detector_version, hrv_rejections)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,
                ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32)
            """,
            [
                .text(m.date.iso), .integer(m.startedAtEpoch), .integer(m.durationMs), .text(m.quality.code),
                SQLValue(m.hrv?.accepted), SQLValue(m.hrv?.rejected), SQLValue(m.hrv?.artifactRatio),
                SQLValue(m.hrv?.rmssdMs), SQLValue(m.hrv?.meanRRMs), SQLValue(m.hrv?.meanHRBpm),
                SQLValue(m.hrv?.sdnnMs), SQLValue(m.meanHRBpm), .text(m.orthostaticStatus.rawValue),
                SQLValue(m.orthostatic?.avgLyingHR), SQLValue(m.orthostatic?.avgStandingHR),
                SQLValue(m.orthostatic?.peakStandingHR), SQLValue(m.strapAddress), SQLValue(m.strapBatteryPercent),
                .integer(m.marks.settleStartMs), .integer(m.marks.captureStartMs), .integer(m.marks.captureEndMs),
                SQLValue(m.marks.lyingEndMs), SQLValue(m.marks.standStartMs), SQLValue(m.marks.standEndMs),
                .blob(rr), .blob(hr), .integer(recordedAt), SQLValue(m.hrv?.rmssdMethod.rawValue),
                SQLValue(m.hrv?.pairs), SQLValue(m.hrv?.judgement?.rule.rawValue), SQLValue(m.hrv?.judgement?.version),
                SQLValue(m.hrv?.judgement?.countsCode),
            ])
    }

    func measurements(from: LocalDate, through: LocalDate) throws(StoreError) -> [LocalDate: MorningMeasurement] {
        let sql = """
            SELECT day, started_at, duration_ms, quality, hrv_accepted, hrv_rejected, hrv_artifact_ratio, rmssd_ms,
                mean_rr_ms, hrv_mean_hr_bpm, sdnn_ms, mean_hr_bpm, orthostatic_status, avg_lying_hr, avg_standing_hr,
                peak_standing_hr, strap_address, strap_battery, settle_start_ms, capture_start_ms, capture_end_ms,
                lying_end_ms, stand_start_ms, stand_end_ms, rr_raw, hr_readings, rmssd_method, rmssd_pairs,
                artifact_rule, detector_version, hrv_rejections
            FROM measurement WHERE day BETWEEN ?1 AND ?2 ORDER BY day
            """
        let rows = try database.prepare(sql).decodedRows(
            [.text(from.iso), .text(through.iso)], table: "measurement", skipped: skipRow
        ) { (row) throws(StoreError) -> MorningMeasurement in
            let day = try row.date("day")
            let qualityText = try row.text("quality")
            guard let quality = Quality(code: qualityText) else {
                throw .corrupt("the measurement of \(day) has an unknown quality \"\(qualityText)\", so it was left out")
            }
            let status = try row.value("orthostatic_status", as: OrthostaticStatus.self)
            // A number outside what a morning can hold (written by an older restore, or by hand) reads as
            // missing: every reader formats and counts these, and none should trap on one.
            var hrv: HRVMetrics?
            if let accepted = try row.optionalInt("hrv_accepted"), let rejected = try row.optionalInt("hrv_rejected"),
                let ratio = Plausible.value(try row.optionalDouble("hrv_artifact_ratio"), in: Plausible.ratio)
            {
                // NULL only in rows from before the column (protocol 1), whose rMSSD was over the accepted list.
                let method =
                    try row.optionalText("rmssd_method").map { (text) throws(StoreError) -> RMSSDMethod in
                        guard let method = RMSSDMethod(rawValue: text) else {
                            throw .corrupt("the measurement of \(day) has an unknown rmssd_method \"\(text)\"")
                        }
                        return method
                    } ?? .acceptedList
                hrv = HRVMetrics(
                    rmssdMs: Plausible.value(try row.optionalDouble("rmssd_ms"), in: Plausible.variabilityMs),
                    meanRRMs: Plausible.value(try row.optionalDouble("mean_rr_ms"), in: Plausible.rrMs),
                    meanHRBpm: Plausible.value(try row.optionalDouble("hrv_mean_hr_bpm"), in: Plausible.heartRateBpm),
                    sdnnMs: Plausible.value(try row.optionalDouble("sdnn_ms"), in: Plausible.variabilityMs),
                    accepted: accepted, rejected: rejected, artifactRatio: ratio, pairs: try row.optionalInt("rmssd_pairs"),
                    rmssdMethod: method,
                    judgement: Store.judgement(
                        rule: try row.optionalText("artifact_rule"), version: try row.optionalInt("detector_version"),
                        counts: try row.optionalText("hrv_rejections")))
            }
            var orthostatic: OrthostaticResult?
            if let lying = Plausible.value(try row.optionalDouble("avg_lying_hr"), in: Plausible.heartRateBpm),
                let standing = Plausible.value(try row.optionalDouble("avg_standing_hr"), in: Plausible.heartRateBpm),
                let peak = Plausible.value(try row.optionalDouble("peak_standing_hr"), in: Plausible.heartRateBpm)
            {
                orthostatic = OrthostaticResult(avgLyingHR: lying, avgStandingHR: standing, peakStandingHR: peak)
            }
            let marks = PhaseMarks(
                settleStartMs: try row.int64("settle_start_ms"), captureStartMs: try row.int64("capture_start_ms"),
                captureEndMs: try row.int64("capture_end_ms"), lyingEndMs: try row.optionalInt64("lying_end_ms"),
                standStartMs: try row.optionalInt64("stand_start_ms"), standEndMs: try row.optionalInt64("stand_end_ms"))
            return MorningMeasurement(
                date: day, startedAtEpoch: try row.int64("started_at"), durationMs: try row.int64("duration_ms"), hrv: hrv,
                meanHRBpm: Plausible.value(try row.optionalDouble("mean_hr_bpm"), in: Plausible.heartRateBpm),
                quality: quality, orthostaticStatus: status, orthostatic: orthostatic,
                strapAddress: try row.optionalText("strap_address"), strapBatteryPercent: try row.optionalInt("strap_battery"),
                marks: marks, rawRR: try SampleEncoding.decodeRR(try row.blob("rr_raw")),
                heartRates: try SampleEncoding.decodeHeartRates(try row.blob("hr_readings")))
        }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.date, $0) })
    }

    /// A stored judgement; nil when the morning has none, or one this program cannot read (reads as unknown).
    static func judgement(rule: String?, version: Int?, counts: String?) -> ArtifactTally? {
        guard let rule = rule.flatMap(ArtifactRule.init(rawValue:)), let version, let counts else { return nil }
        return ArtifactTally(rule: rule, version: version, countsCode: counts)
    }
}
