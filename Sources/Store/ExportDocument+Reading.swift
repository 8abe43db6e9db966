import JSON
import RecoveryCore

/// Why an export document could not be read back: where in the document, and what was wrong.
public struct ExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where, as a path: `days[3].questionnaire.fatigue`.
    public let path: String
    public let reason: String
    public var description: String { path.isEmpty ? "The export \(reason)." : "The export's \(path) \(reason)." }
}

extension ExportDocument {
    /// Reads an export written by `json` (any protocol version up to this program's), whole, through the same
    /// checks as a streamed restore (`ExportDocumentReader`). Derived keys (`subjectiveMean`, `gapAvg`,
    /// `gapPeak`) are ignored; unknown keys are ignored.
    public init(parsing text: String) throws(ExportError) {
        var reader = ExportDocumentReader(JSONStream(bytes: Array(text.utf8)))
        var days: [DayRecord] = []
        var settings: [String: String] = [:]
        var analytics: [AnalyticsEvent] = []
        var experiments: [StoredExperiment] = []
        while let item = try reader.next() {
            switch item {
            case .day(let day): days.append(day)
            case .settings(let pairs): for (key, value) in pairs { settings[key] = value }
            case .event(let event): analytics.append(event)
            case .experiment(let experiment): experiments.append(experiment)
            }
        }
        let header = try reader.header()
        if !header.full {
            settings = [:]
            analytics = []
            experiments = []
        }
        self.init(
            generatedAt: header.generatedAt, full: header.full, habits: header.habits, days: days, settings: settings,
            analytics: analytics, experiments: experiments)
    }

    static func habits(_ f: Field) throws(ExportError) -> [String] {
        try f.array().map { (f) throws(ExportError) in try f.habitName() }
    }

    static func settings(_ f: Field) throws(ExportError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for (key, value) in try f.members() { pairs.append((key, try value.setting(key))) }
        return pairs.sorted { $0.0 < $1.0 }
    }

    static func event(_ e: Field) throws(ExportError) -> AnalyticsEvent {
        AnalyticsEvent(
            at: try e["at"].int64(), day: try e["day"].optional { (f) throws(ExportError) in try f.date() },
            kind: AnalyticsKind(rawValue: try e["kind"].string()),
            value: try e["value"].optional { (f) throws(ExportError) in try f.int64() },
            payload: try e["payload"].optional { (f) throws(ExportError) in try f.text(limit: 2000) })
    }

    /// The schema checks habit, outcome, days, block and arm values on restore; here only what it cannot see.
    static func experiment(_ e: Field) throws(ExportError) -> StoredExperiment {
        guard let seed = UInt64(try e["seed"].string()) else {
            throw e["seed"].error("must be a whole number from 0 to 18446744073709551615, written as text")
        }
        let mornings = try e["mornings"].int()
        let arms = try e["arms"].array().map { (a) throws(ExportError) in try a.string() }
        guard arms.count == mornings else { throw e["arms"].error("has \(arms.count) arms for \(mornings) mornings") }
        return StoredExperiment(
            id: try e["id"].int64(), habit: try e["habit"].string(), outcome: try e["outcome"].string(),
            firstDay: try e["firstDay"].date(), mornings: mornings, block: try e["block"].int(), seed: seed,
            startedAt: try e["startedAt"].int64(),
            stoppedDay: try e["stoppedDay"].optional { (f) throws(ExportError) in try f.date() },
            stoppedAt: try e["stoppedAt"].optional { (f) throws(ExportError) in try f.int64() }, arms: arms)
    }

    static func day(_ f: Field) throws(ExportError) -> DayRecord {
        let date = try f["date"].date()
        guard date >= LocalDate.earliestMorning, date <= Plausible.latestMorning else {
            throw f["date"].error(
                "is \(date.iso), outside \(LocalDate.earliestMorning.iso) to \(Plausible.latestMorning.iso)")
        }
        do { return try dayContent(f, date: date) } catch {
            // Every refusal names the morning as well as the field.
            throw ExportError(path: error.path, reason: "\(error.reason) (the morning of \(date.iso))")
        }
    }

    private static func dayContent(_ f: Field, date: LocalDate) throws(ExportError) -> DayRecord {
        let questionnaire = try f["questionnaire"].optional { (q) throws(ExportError) in
            try ExportDocument.questionnaire(q, date: date)
        }
        let measurement = try f["measurement"].optional { (m) throws(ExportError) in
            try ExportDocument.measurement(m, date: date)
        }
        return DayRecord(
            date: date, questionnaire: questionnaire, measurement: measurement, imported: try f["imported"].bool())
    }

    private static func questionnaire(_ q: Field, date: LocalDate) throws(ExportError) -> Questionnaire {
        var values: [Int] = []
        for item in SubjectiveItem.allCases {
            let score = try q[item.rawValue].int()
            guard Score.range.contains(score) else {
                throw q[item.rawValue].error("must be a whole number from 1 to 7, not \(score)")
            }
            values.append(score)
        }
        guard let scores = SubjectiveScores(values) else { throw q.error("holds a score outside 1 to 7") }
        var habits: [String] = []
        for h in try q["habits"].array() { habits.append(try h.habitName()) }
        return Questionnaire(
            date: date, scores: scores, habits: habits,
            caffeineTime: try q["caffeineTime"].optional { (t) throws(ExportError) in try t.time() },
            caffeineMg: try q["caffeineMg"].optional { (v) throws(ExportError) in try v.int(in: 0...2000) },
            lastMealTime: try q["lastMealTime"].optional { (t) throws(ExportError) in try t.time() },
            notes: try q["notes"].optional { (v) throws(ExportError) in try v.text(limit: 2000, newlines: true) })
    }

    private static func measurement(_ m: Field, date: LocalDate) throws(ExportError) -> MorningMeasurement {
        let qualityText = try m["quality"].string()
        guard let quality = Quality(code: qualityText) else {
            throw m["quality"].error("is not a known quality (\(qualityText))")
        }
        let statusText = try m["orthostaticStatus"].string()
        guard let status = OrthostaticStatus(rawValue: statusText) else {
            throw m["orthostaticStatus"].error("is not a known status (\(statusText))")
        }
        let hrv = try m["hrv"].optional { (h) throws(ExportError) -> HRVMetrics in
            let methodText = try h["rmssdMethod"].optional { (v) throws(ExportError) in try v.string() }
            // Version 1 had no method: its values were taken over the accepted list.
            guard let method = RMSSDMethod(rawValue: methodText ?? RMSSDMethod.acceptedList.rawValue) else {
                throw h["rmssdMethod"].error("is not a known method (\(methodText ?? ""))")
            }
            return HRVMetrics(
                rmssdMs: try h["rmssdMs"].optional { (v) throws(ExportError) in try v.double(in: Plausible.variabilityMs, " ms") },
                meanRRMs: try h["meanRRMs"].optional { (v) throws(ExportError) in try v.double(in: Plausible.rrMs, " ms") },
                meanHRBpm: try h["meanHRBpm"].optional { (v) throws(ExportError) in try v.double(in: Plausible.heartRateBpm, " bpm") },
                sdnnMs: try h["sdnnMs"].optional { (v) throws(ExportError) in try v.double(in: Plausible.variabilityMs, " ms") },
                accepted: try h["accepted"].int(in: Plausible.countPerMorning),
                rejected: try h["rejected"].int(in: Plausible.countPerMorning),
                artifactRatio: try h["artifactRatio"].double(in: Plausible.ratio, ""),
                pairs: try h["rmssdPairs"].optional { (v) throws(ExportError) in try v.int(in: Plausible.countPerMorning) }, rmssdMethod: method,
                judgement: try h["judgedBy"].optional { (j) throws(ExportError) in try j.judgement() })
        }
        let orthostatic = try m["orthostatic"].optional { (o) throws(ExportError) in
            OrthostaticResult(
                avgLyingHR: try o["avgLyingHR"].double(in: Plausible.heartRateBpm, " bpm"),
                avgStandingHR: try o["avgStandingHR"].double(in: Plausible.heartRateBpm, " bpm"),
                peakStandingHR: try o["peakStandingHR"].double(in: Plausible.heartRateBpm, " bpm"))
        }
        let p = m["phases"]
        let marks = PhaseMarks(
            settleStartMs: try p["settleStartMs"].int64(in: Plausible.sessionMs, " ms"),
            captureStartMs: try p["captureStartMs"].int64(in: Plausible.sessionMs, " ms"),
            captureEndMs: try p["captureEndMs"].int64(in: Plausible.sessionMs, " ms"),
            lyingEndMs: try p["lyingEndMs"].optional { (v) throws(ExportError) in try v.int64(in: Plausible.sessionMs, " ms") },
            standStartMs: try p["standStartMs"].optional { (v) throws(ExportError) in try v.int64(in: Plausible.sessionMs, " ms") },
            standEndMs: try p["standEndMs"].optional { (v) throws(ExportError) in try v.int64(in: Plausible.sessionMs, " ms") })
        var rawRR: [RRInterval] = []
        if m.has("rr") {
            let raw = try m["rr"]["raw"].list()
            let at = try m["rr"]["receivedAtMs"].list()
            guard raw.count == at.count else { throw m["rr"].error("has \(raw.count) values but \(at.count) times") }
            rawRR.reserveCapacity(raw.count)
            for i in raw.indices {
                rawRR.append(
                    RRInterval(
                        raw: try m["rr"]["raw"].uint16(raw[i], at: i),
                        receivedAtMs: try m["rr"]["receivedAtMs"].sessionMs(at[i], at: i)))
            }
        }
        var heartRates: [HeartRateReading] = []
        if m.has("heartRate") {
            let bpm = try m["heartRate"]["bpm"].list()
            let at = try m["heartRate"]["receivedAtMs"].list()
            guard bpm.count == at.count else {
                throw m["heartRate"].error("has \(bpm.count) values but \(at.count) times")
            }
            heartRates.reserveCapacity(bpm.count)
            for i in bpm.indices {
                heartRates.append(
                    HeartRateReading(
                        bpm: try m["heartRate"]["bpm"].uint16(bpm[i], at: i),
                        receivedAtMs: try m["heartRate"]["receivedAtMs"].sessionMs(at[i], at: i)))
            }
        }
        return MorningMeasurement(
            date: date, startedAtEpoch: try m["startedAt"].int64(in: 0...Plausible.epochSeconds.upperBound, " seconds since 1970"),
            durationMs: try m["durationMs"].int64(in: Plausible.sessionMs, " ms"), hrv: hrv,
            meanHRBpm: try m["meanHRBpm"].optional { (v) throws(ExportError) in try v.double(in: Plausible.heartRateBpm, " bpm") },
            quality: quality,
            orthostaticStatus: status, orthostatic: orthostatic,
            strapAddress: try m["strapAddress"].optional { (v) throws(ExportError) in try v.text(limit: 64) },
            strapBatteryPercent: try m["strapBatteryPercent"].optional { (v) throws(ExportError) in try v.int(in: 0...100) },
            marks: marks, rawRR: rawRR, heartRates: heartRates)
    }
}

/// A value inside the document together with its path, for error sentences that say where.
struct Field {
    let value: JSONValue?
    let path: String

    subscript(key: String) -> Field {
        Field(value: value?[key], path: path.isEmpty ? key : "\(path).\(key)")
    }

    func has(_ key: String) -> Bool { value?[key] != nil }

    func error(_ reason: String) -> ExportError { ExportError(path: path, reason: reason) }

    private func required() throws(ExportError) -> JSONValue {
        guard let value, !value.isNull else { throw error("is missing") }
        return value
    }

    func optional<T>(_ read: (Field) throws(ExportError) -> T) throws(ExportError) -> T? {
        guard let value, !value.isNull else { return nil }
        return try read(self)
    }

    func string() throws(ExportError) -> String {
        guard let s = try required().stringValue else { throw error("must be text") }
        return s
    }

    func bool() throws(ExportError) -> Bool {
        guard let b = try required().boolValue else { throw error("must be true or false") }
        return b
    }

    func double() throws(ExportError) -> Double {
        guard let d = try required().doubleValue else { throw error("must be a number") }
        return d
    }

    func int64() throws(ExportError) -> Int64 {
        guard let i = try required().int64Value else { throw error("must be a whole number") }
        return i
    }

    func int() throws(ExportError) -> Int {
        guard let i = Int(exactly: try int64()) else { throw error("is too large a number") }
        return i
    }

    /// A finite number inside `range`: the ranges are the box's own (`Plausible`), so nothing a file
    /// holds becomes a value a reader cannot format or count.
    func double(in range: ClosedRange<Double>, _ unit: String) throws(ExportError) -> Double {
        let d = try double()
        guard d.isFinite, range.contains(d) else {
            throw error("is \(d)\(unit), outside \(range.lowerBound) to \(range.upperBound)\(unit)")
        }
        return d
    }

    func int64(in range: ClosedRange<Int64>, _ unit: String) throws(ExportError) -> Int64 {
        let i = try int64()
        guard range.contains(i) else {
            throw error("is \(i)\(unit), outside \(range.lowerBound) to \(range.upperBound)\(unit)")
        }
        return i
    }

    func int(in range: ClosedRange<Int>) throws(ExportError) -> Int {
        let i = try int()
        guard range.contains(i) else { throw error("is \(i), outside \(range.lowerBound) to \(range.upperBound)") }
        return i
    }

    /// Text of at most `limit` characters (the limits `checkin` and `settings` enforce), without control
    /// characters (newline and tab allowed when `newlines`): a NUL would cut the text where SQLite reads it.
    func text(limit: Int, newlines: Bool = false) throws(ExportError) -> String {
        let s = try string()
        guard s.count <= limit else { throw error("is \(s.count) characters long; the limit is \(limit)") }
        let allowed: Set<UInt32> = newlines ? [0x0a, 0x09] : []
        if let bad = s.unicodeScalars.first(where: {
            ($0.value < 0x20 || (0x7f...0x9f).contains($0.value)) && !allowed.contains($0.value)
        }) {
            throw error("holds the control character U+\(String(bad.value, radix: 16, uppercase: true)), which RecoveryDeck does not keep")
        }
        return s
    }

    func habitName() throws(ExportError) -> String {
        let s = try string()
        guard Store.isHabitName(s) else {
            throw error("is not a habit name (1 to 32 lower-case letters, digits and -)")
        }
        return s
    }

    /// A setting's value, read by `Settings`'s own codec (the bounds `settings` writes with); a key this version
    /// does not know gets the note's limit and is kept as written.
    func setting(_ key: String) throws(ExportError) -> String {
        let s = try text(limit: Settings.longest(SettingKey(rawValue: key)))
        guard SettingKey.known.contains(SettingKey(rawValue: key)) else { return s }
        var settings = Settings()
        if let why = settings.read(SettingKey(rawValue: key), s) { throw error(why) }
        return s
    }

    func uint16() throws(ExportError) -> UInt16 {
        guard let v = UInt16(exactly: try int64()) else { throw error("must be a whole number from 0 to 65535") }
        return v
    }

    func date() throws(ExportError) -> LocalDate {
        guard let d = LocalDate(iso: try string()) else { throw error("must be a date written YYYY-MM-DD") }
        return d
    }

    func time() throws(ExportError) -> MinuteOfDay {
        guard let t = MinuteOfDay(hhmm: try string()) else { throw error("must be a time written HH:MM") }
        return t
    }

    /// The items of a list, without a `Field` each: a morning's samples are hundreds of thousands of values.
    func list() throws(ExportError) -> [JSONValue] {
        guard let items = try required().arrayValue else { throw error("must be a list") }
        return items
    }

    /// Item `i` of this list as a sample value (the path is written only when it is wrong).
    func uint16(_ item: JSONValue, at i: Int) throws(ExportError) -> UInt16 {
        if case .integer(let v) = item, let small = UInt16(exactly: v) { return small }
        return try Field(value: item, path: "\(path)[\(i)]").uint16()
    }

    func sessionMs(_ item: JSONValue, at i: Int) throws(ExportError) -> Int64 {
        if case .integer(let v) = item, Plausible.sessionMs.contains(v) { return v }
        return try Field(value: item, path: "\(path)[\(i)]").int64(in: Plausible.sessionMs, " ms")
    }

    /// A morning's `judgedBy` (docs/artifacts.md, "Provenance"): a known rule, a version, counts by known reason.
    func judgement() throws(ExportError) -> ArtifactTally {
        let ruleText = try self["rule"].string()
        guard let rule = ArtifactRule(rawValue: ruleText) else {
            throw self["rule"].error("is not a known artifact rule (\(ruleText))")
        }
        var tally = ArtifactTally(rule: rule, version: try self["version"].int(in: 1...1_000))
        for (key, count) in try self["rejected"].members() {
            guard let reason = ArtifactTally.Reason(rawValue: key) else {
                throw count.error("is not a known reason for a rejected beat")
            }
            tally[reason] = try count.int(in: Plausible.countPerMorning)
        }
        return tally
    }

    func array() throws(ExportError) -> [Field] {
        guard let items = try required().arrayValue else { throw error("must be a list") }
        return items.enumerated().map { Field(value: $1, path: "\(path)[\($0)]") }
    }

    func members() throws(ExportError) -> [(String, Field)] {
        guard case .object(let members) = try required() else { throw error("must be an object") }
        return members.map { ($0.0, Field(value: $0.1, path: "\(path).\($0.0)")) }
    }
}
