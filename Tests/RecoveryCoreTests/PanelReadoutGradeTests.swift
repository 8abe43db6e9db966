import Testing

@testable import RecoveryCore

/// A morning that passed with over 5 % of its beats rejected is still counted, and the readout's sentence
/// says it was fair, with the share (docs/artifacts.md).
@Suite struct PanelReadoutGradeTests {
    @Test("the readout's sentence names a fair morning's share of rejected beats; a good one's says nothing of it")
    func fairMorningIsSaid() throws {
        let day = try #require(LocalDate(iso: "2026-03-02"))
        let readout = Baselines.readout(days: [], today: day)
        let plain = PanelReadout(readout)
        let graded = PanelReadout(readout, grade: "fair (7.3 % of beats rejected)")
        #expect(!plain.summary.contains("fair"))
        #expect(graded.summary.contains(", fair (7.3 % of beats rejected) — "), "\(graded.summary)")
        #expect(graded.composite == plain.composite && graded.channels == plain.channels, "the lights do not change")
    }

    @Test("the share is said to a tenth of a percent; fair only above 5 % and within the 20 % a pass allows")
    func shareText() {
        func metrics(rejected: Int, of total: Int) -> HRVMetrics {
            HRVMetrics(
                rmssdMs: 50, meanRRMs: 1000, meanHRBpm: 60, sdnnMs: 60, accepted: total - rejected, rejected: rejected,
                artifactRatio: Double(rejected) / Double(total), pairs: total - 2 * rejected)
        }
        #expect(metrics(rejected: 5, of: 100).fairNote == nil, "exactly 5 % is good")
        #expect(metrics(rejected: 6, of: 100).fairNote == "fair (6.0 % of beats rejected)")
        #expect(metrics(rejected: 11, of: 150).rejectedShareText == "7.3 %")
        #expect(metrics(rejected: 6, of: 100).grade == "fair" && metrics(rejected: 1, of: 100).grade == "good")
    }
}
