import Foundation
@testable import Store
import Testing

@testable import Appliance
@testable import RecoveryCore

/// The daemon's readout follows the `band_edges` setting (`recoverydeck settings --band-edges`).
@Suite(.serialized)
struct DaemonBandEdgesTests {
    /// Offsets −90…−8 from the harness's today alternate rMSSD 50 / 70, −7…0 are 47 ms; every other channel is
    /// constant. By hand today's rMSSD z is −1.094 (norm 58.3167 ± 10.3441, 7-day mean 47): yellow at 1.0 SD,
    /// green at 1.2 SD (the same history as BandEdgesTests, moved to the harness's date).
    static func history(through today: LocalDate) -> [DayRecord] {
        (-90...0).map { o in
            let date = today.adding(days: o)
            let rmssd: Double = o >= -7 ? 47 : (o % 2 == 0 ? 50 : 70)
            return storedDay(date, rmssd: rmssd)
        }
    }

    @Test("the readout the daemon lights is yellow for rMSSD at 1.0 / 1.5 and green once band_edges is 1.2,1.8")
    func daemonFollowsTheSetting() throws {
        let h = try DaemonHarness()
        let today = DaemonHarness.today
        try h.store.saveImportedDays(Self.history(through: today), source: "test", recordedAt: 0)
        let spec = h.daemon.readout(forMorningOn: today)
        #expect(spec.channels[0] == .yellow && spec.channels[1] == .green, "\(spec)")
        try h.store.setSetting(.bandEdges, "1.2,1.8")
        let wide = h.daemon.readout(forMorningOn: today)
        #expect(wide.channels[0] == .green && wide.composite == .green, "\(wide)")
        try h.store.setSetting(.bandEdges, "rmssd=0.5,1.05")
        #expect(h.daemon.readout(forMorningOn: today).channels[0] == .red)
    }

    @Test("a running daemon measures the next morning with the artifact rule `settings --artifact-rule` stored")
    func daemonFollowsTheArtifactRule() throws {
        let h = try DaemonHarness()
        #expect(h.daemon.routine.session.artifactRule == .pattern)
        try h.store.setSetting(.artifactRule, ArtifactRule.spec20.rawValue)
        #expect(try h.request(.dayChanged)["ok"]?.boolValue == true)
        #expect(h.daemon.routine.session.artifactRule == .spec20)
        #expect(h.daemon.routine.configuration.artifactRule == .spec20)
        try h.store.setSetting(.artifactRule, nil)
        #expect(try h.request(.dayChanged)["ok"]?.boolValue == true)
        #expect(h.daemon.routine.session.artifactRule == .pattern)
    }
}
