import Foundation
import Testing

@testable import RecoveryCore

/// The pattern rule (docs/artifacts.md) on hand-built series: each artifact is taken out with its partner, and a
/// genuine respiratory swing of 30 % from one beat to the next is kept.
@Suite struct PatternArtifactDetectorTests {
    /// Each beat's verdict, in order (every beat is judged once the list ends).
    func verdicts(_ rr: [Double]) -> [PatternArtifactDetector.Verdict] {
        var detector = PatternArtifactDetector()
        var out: [PatternArtifactDetector.Verdict] = []
        for x in rr { detector.push(x, gapBefore: false) { _, verdict, _ in out.append(verdict) } }
        detector.flush { _, verdict, _ in out.append(verdict) }
        return out
    }

    /// A resting rhythm around 1000 ms with a small breathing swing (±30 ms).
    func steady(_ count: Int) -> [Double] { (0..<count).map { 1000 + 30 * sin(Double($0) * 1.3) } }

    func rejectedIndices(_ rr: [Double]) -> [Int] {
        verdicts(rr).enumerated().filter { $0.element != .accepted }.map(\.offset)
    }

    @Test("an isolated ectopic beat and its compensatory pause are both rejected, nothing else")
    func ectopicWithPause() {
        var rr = steady(30)
        rr[15] = 650  // premature
        rr[16] = 1000 + 350  // the pause makes up the time
        #expect(rejectedIndices(rr) == [15, 16])
        #expect(verdicts(rr)[15] == .ectopicBeat)
    }

    @Test("a missed beat (one RR about twice its neighbours) is rejected alone")
    func missedBeat() {
        var rr = steady(30)
        rr[12] = rr[12] + rr[13]
        rr.remove(at: 13)
        #expect(rejectedIndices(rr) == [12])
        #expect(verdicts(rr)[12] == .missedBeat)
    }

    @Test("an extra beat (two RR summing to one) is rejected as a pair")
    func extraBeat() {
        var rr = steady(30)
        let whole = rr[10]
        rr[10] = whole * 0.4
        rr.insert(whole * 0.6, at: 11)
        #expect(rejectedIndices(rr) == [10, 11])
        #expect(verdicts(rr)[10] == .extraBeat)
    }

    @Test("a respiratory swing of 30 % from one beat to the next is kept; the spec's 20 % rule drops it")
    func longRSASwingKept() {
        // Breathing every 5 beats at HR ~55: RR 1100 ± 280 ms, successive changes up to 30 % of the previous RR.
        let rr = (0..<120).map { 1100 + 280 * sin(2 * Double.pi * Double($0) / 5) }
        let largest = zip(rr, rr.dropFirst()).map { abs($1 - $0) / $0 }.max()!
        #expect(largest > 0.29)
        #expect(rejectedIndices(rr).isEmpty)
        var spec = ArtifactFilter()
        let specRejected = rr.filter { spec.judge($0) != .accepted }.count
        #expect(specRejected > 10)
    }

    @Test("the threshold follows the person's variability, within 20...35 %")
    func thresholdScales() {
        var calm = PatternArtifactDetector()
        for x in steady(80) { calm.push(x, gapBefore: false) { _, _, _ in } }
        #expect(calm.threshold == PatternArtifactDetector.thresholdFloor)
        var rich = PatternArtifactDetector()
        for i in 0..<80 { rich.push(1100 + 280 * sin(2 * Double.pi * Double(i) / 5), gapBefore: false) { _, _, _ in } }
        #expect(rich.threshold > 0.3 && rich.threshold <= PatternArtifactDetector.thresholdCeiling)
    }

    @Test("a beat waits for at most two in-range beats after it, and memory stays bounded")
    func lookAhead() {
        var detector = PatternArtifactDetector()
        var judged = 0
        for (i, x) in steady(200).enumerated() {
            detector.push(x, gapBefore: false) { _, _, _ in judged += 1 }
            #expect(judged == max(0, i - 1))
            #expect(detector.waiting <= 2)
        }
    }

    @Test("a morning on the pattern rule still completes on 45 accepted beats and 60 s of RR")
    func morningCompletes() {
        var window = RMSSDWindow(startMs: 0)
        var clock: Int64 = 0
        var completed: HRVWindowResult?
        for x in steady(200) {
            clock += Int64(x)
            if case .complete(let result) = window.append(x, at: clock) {
                completed = result
                break
            }
        }
        let result = try? #require(completed)
        #expect(result?.quality == .ok)
        #expect((result?.metrics.accepted ?? 0) >= Quality.minimumAccepted)
        #expect((result?.acceptedSumMs ?? 0) >= Quality.minimumAcceptedSumMs)
        #expect(result?.metrics.rejected == 0)
    }

    @Test("the spec rule stays selectable and judges as before")
    func specRuleSelectable() {
        let rr: [Double] = [1000, 1010, 1300, 1040, 1030]
        #expect(HRVAnalysis.analyze(rr, rule: .spec20).metrics.rejected == 1)
        #expect(ArtifactRule(rawValue: "spec-20") == .spec20 && ArtifactRule.default == .pattern)
    }
}

/// The routine's configuration carries the artifact rule to the session's window.
@Suite struct ArtifactRuleRoutineTests {
    @Test("a routine configured with the spec rule gives its session windows judged by it; the default is pattern")
    func routineCarriesTheRule() {
        let day = DayContext(today: SessionHarness.today, questionnaire: SessionHarness.questionnaire, measured: false)
        var configuration = MorningRoutine.Configuration()
        #expect(MorningRoutine(configuration: configuration, day: day, reminderFiredOn: nil)
            .session.windowConfiguration.artifactRule == .pattern)
        configuration.artifactRule = .spec20
        let routine = MorningRoutine(configuration: configuration, day: day, reminderFiredOn: nil)
        #expect(routine.session.windowConfiguration.artifactRule == .spec20)
    }
}
