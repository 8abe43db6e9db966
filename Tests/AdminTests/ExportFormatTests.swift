import RecoveryCore
import Store
import Testing

@testable import Admin

/// The files `recoverydeck export` writes for other tools, read back by the box's own importers where one
/// exists (`import hrv4training` for the GoldenCheetah file, `import rr` for a morning's RR), on seeded
/// synthetic mornings measured through the real metric core.
struct ExportFormatTests {
    static let person = SyntheticPerson(seed: 35)
    static let today = LocalDate(year: 2026, month: 6, day: 30)!

    /// Days 0…n-1 of the person: check-in and a measured morning each; every fifth morning skips the stand.
    static func days(_ n: Int) -> [DayRecord] {
        person.days(0..<n).map { d in
            let m = SyntheticHistory.morning(
                person: person, day: d.index, startedAtEpoch: 1_767_250_000 + Int64(d.index) * 86_400,
                skipOrthostatic: d.index % 5 == 4)
            return DayRecord(date: d.date, questionnaire: d.questionnaire, measurement: m)
        }
    }

    static let sixThirty = MinuteOfDay(hour: 6, minute: 30)!

    @Test("goldencheetah: import hrv4training reads back every valid morning's date, rMSSD and lying HR")
    func goldenCheetahRoundTrip() throws {
        let days = Self.days(20)
        let text = HRVMeasuresTable.csv(days) { _ in Self.sixThirty }
        let lines = text.split(separator: "\n")
        #expect(lines[0] == "timestamp_measurement,date,time,HR,AVNN,SDNN,rMSSD")
        // GoldenCheetah refuses a row with fewer cells than the header.
        #expect(lines.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 7 })
        let result = try CSVHistory.read(text, format: .hrv4Training, file: "gc.csv", today: Self.today)
        let valid = days.filter { Channel.rmssd.value(in: $0) != nil }
        #expect(valid.count >= 15)
        #expect(result.mornings.map(\.date) == valid.map(\.date))
        for (morning, day) in zip(result.mornings, valid) {
            let rmssd = try #require(morning.rmssdMs)
            #expect(abs(rmssd - Channel.rmssd.value(in: day)!) < 1e-9)
            #expect(morning.lyingHRBpm == Channel.lyingHR.value(in: day))
        }
        // January 2, written the HRV4Training Android way, and as ISO 8601 in the timestamp.
        #expect(lines[2].hasPrefix("2026-01-02T06:30:00,2026-02-01,06:30,"))
    }

    @Test("intervals: the 1-7 answers land on intervals.icu's 1-4 scales with 1 the good end; raw answers kept")
    func intervalsLevels() throws {
        #expect((1...7).map(IntervalsWellnessTable.level) == [4, 3, 3, 2, 2, 1, 1])
        var days = Self.days(3)
        days[1].questionnaire = Questionnaire(
            date: days[1].date, scores: SubjectiveScores([7, 1, 4, 2, 6])!, notes: "slept badly, \"cold\"")
        days.append(DayRecord(date: LocalDate(year: 2026, month: 1, day: 10)!))  // nothing stored: no row
        let text = IntervalsWellnessTable.csv(days)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "date,restingHR,hrv,hrvSDNN,fatigue,soreness,stress,mood,sleepQuality,comments")
        #expect(lines.count == 4)
        let hr = Int(Channel.lyingHR.value(in: days[1])!.rounded())
        let rmssd = Channel.rmssd.value(in: days[1])!
        // fatigue 7 → 1, soreness 4 → 2, stress 2 → 3, mood 1 → 4, sleep 6 → 1.
        #expect(lines[2].hasPrefix("2026-01-02,\(hr),\(rmssd),"))
        #expect(lines[2].contains(",1,2,3,4,1,\"RecoveryDeck check-in 1-7, higher = better: fatigue 7, mood 1, "))
        #expect(lines[2].hasSuffix("sleep 6; note: slept badly, \"\"cold\"\"\""))
    }

    @Test("export --rr: the values read back exactly, and import rr's morning window gives the stored rMSSD")
    func rrRoundTrip() throws {
        let day = Self.days(3)[2]
        let m = try #require(day.measurement)
        let text = try #require(MorningRRText.text(m, rule: .pattern, startTime: Self.sixThirty))
        let format = try RRFileFormat.read(text)
        let lying = MorningRRText.lyingIntervals(m)
        #expect(format.intervalsMs == lying.map(\.milliseconds))
        #expect(lying.count < m.rawRR.count)  // the stand is left out
        #expect(text.hasPrefix("# RecoveryDeck morning 2026-01-03, started 06:30"))
        #expect(text.contains("# artifact rule: pattern\n"))
        #expect(text.contains("# rMSSD window: values "))
        let imported = try RRHistory.read([.init(name: "2026-01-03.txt", text: text)], directory: "rr")
        let stored = try #require(m.hrv?.rmssdMs)
        let back = try #require(imported.mornings.first?.hrv?.rmssdMs)
        // The import's clock is the running sum of the intervals, the session's the arrival time: within 1 %.
        #expect(abs(back - stored) / stored < 0.01)
    }

    @Test("export --rr: a morning without raw RR gives no file")
    func rrMissing() {
        var m = Self.days(1)[0].measurement!
        m.rawRR = []
        #expect(MorningRRText.text(m, rule: .pattern, startTime: Self.sixThirty) == nil)
    }
}
