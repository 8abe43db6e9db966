import Foundation
import Store
import Testing

@testable import Appliance
@testable import RecoveryCore

/// The daemon's readout carries the "Not like you" flag to the panel (docs/not-like-you.md).
@Suite(.serialized)
struct DaemonNotLikeYouTests {
    /// 60 steady mornings (lying HR 54–56 bpm, rMSSD 55–65 ms in a fixed pattern) ending `episode` days before
    /// today, then lying HR +7 bpm and rMSSD × 0.75 through today.
    static func history(through today: LocalDate, episode: Int) -> [DayRecord] {
        (-(59 + episode)...0).map { o in
            let date = today.adding(days: o)
            let t = o + 59 + episode
            var hr = 54.0 + Double(t * 7 % 3)
            var rmssd = 55.0 + Double(t * 5 % 11)
            if t >= 60 {
                hr += 7
                rmssd *= 0.75
            }
            return storedDay(date, rmssd: rmssd, meanHR: hr, lying: hr, standing: hr + 15, peak: hr + 30)
        }
    }

    @Test("three mornings unlike the person: the panel's readout is flagged; steady mornings: it is not")
    func readoutCarriesTheFlag() throws {
        let today = DaemonHarness.today
        let flagged = try DaemonHarness()
        try flagged.store.saveImportedDays(Self.history(through: today, episode: 3), source: "test", recordedAt: 0)
        #expect(flagged.daemon.readout(forMorningOn: today).notLikeYou)
        let steady = try DaemonHarness()
        try steady.store.saveImportedDays(Self.history(through: today, episode: 0), source: "test", recordedAt: 0)
        #expect(!steady.daemon.readout(forMorningOn: today).notLikeYou)
    }
}
