import Foundation
import Testing

@testable import Insights

@Suite("ln rMSSD week (Plews 2012 rolling mean and CV; Plews 2014 3-of-7 validity; SWC 0.5 × 60-day SD)")
struct LnRMSSDWeekTests {
    /// rMSSD values chosen as e^x so the ln values are exact and the arithmetic below is by hand.
    private func e(_ x: Double) -> Double? { Foundation.exp(x) }

    @Test("window is the last 7 calendar days; gaps count against k (hand-worked)")
    func weekOfFourValid() throws {
        // Last 7: 4.0, –, 4.2, –, 3.8, –, 4.0 → k 4, mean 4.0, SS 0.08, SD √(0.08/3) = 0.1632993,
        // CV 0.1632993 / 4 × 100 = 4.082483 %.
        // All ten days: 5,5,5,4,4.2,3.8,4 → Σx² 139.08, n·m² 961/7, SS 1.7942857, SD √(SS/6) = 0.5468526,
        // SWC 0.2734263.
        let w = LnRMSSDWeek(rmssd: [e(5), e(5), e(5), e(4.0), nil, e(4.2), nil, e(3.8), nil, e(4.0)])
        #expect(w.validMornings == 4)
        #expect(!w.isRollingMeanUnreliable)
        #expect(abs(try #require(w.lnRMSSD) - 4.0) < 1e-12)
        #expect(abs(try #require(w.rollingMean) - 4.0) < 1e-12)
        #expect(abs(try #require(w.coefficientOfVariation) - 4.082483) < 1e-6)
        #expect(abs(try #require(w.smallestWorthwhileChange) - 0.2734263) < 1e-6)
    }

    @Test("two valid mornings of seven: the mean is marked unreliable (Plews 2014)")
    func twoOfSevenIsUnreliable() throws {
        // 4.0 and 4.2: mean 4.1, SD √0.02 = 0.1414214, CV 3.449302 %.
        let w = LnRMSSDWeek(rmssd: [e(4.0), nil, nil, nil, nil, nil, e(4.2)])
        #expect(w.validMornings == 2)
        #expect(w.isRollingMeanUnreliable)
        #expect(abs(try #require(w.rollingMean) - 4.1) < 1e-12)
        #expect(abs(try #require(w.coefficientOfVariation) - 3.449302) < 1e-6)
    }

    @Test("no reading today, zero, negative or NaN rMSSD: missing, never ln of nonsense")
    func invalidValuesAreMissing() {
        let w = LnRMSSDWeek(rmssd: [0, -1, .nan, .infinity, e(4.0), nil])
        #expect(w.lnRMSSD == nil)
        #expect(w.validMornings == 1)
        #expect(w.coefficientOfVariation == nil)
        #expect(w.smallestWorthwhileChange == nil)
        let empty = LnRMSSDWeek(rmssd: [])
        #expect(empty.rollingMean == nil && empty.validMornings == 0 && empty.isRollingMeanUnreliable)
    }

    @Test("SWC looks back 60 days only: an outlier 61 days ago does not widen it")
    func baselineWindowIsSixtyDays() throws {
        // 60 days alternating 4.0 / 4.2 (SD √(0.01·60/59)); day 61 back is 9.0 and must be ignored.
        let days: [Double?] = [e(9.0)] + (0..<60).map { e($0 % 2 == 0 ? 4.0 : 4.2) }
        let w = LnRMSSDWeek(rmssd: days)
        #expect(abs(try #require(w.smallestWorthwhileChange) - 0.5 * (0.6 / 59).squareRoot()) < 1e-9)
    }
}
