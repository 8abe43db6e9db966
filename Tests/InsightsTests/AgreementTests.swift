import Foundation
import Testing

@testable import Insights

@Suite("Agreement with another app (ratio of means, Pearson, Spearman, co-movement, Bland–Altman on ln)")
struct AgreementTests {
    private func days(_ deck: [Double], _ other: [Double], on d: [Int]? = nil) -> [Agreement.Day] {
        (0..<deck.count).map { Agreement.Day(day: d?[$0] ?? $0, deck: deck[$0], other: other[$0]) }
    }

    @Test("the other app reads exactly half: ratio 2, r = ρ = 1, bias ln 2 with zero-width limits")
    func exactlyHalf() throws {
        let a = try #require(Agreement(days([40, 50, 60, 55, 45], [20, 25, 30, 27.5, 22.5])))
        #expect(a.n == 5 && a.changePairs == 4)
        #expect(abs(a.ratioOfMeans - 2) < 1e-12)
        #expect(abs(try #require(a.pearson) - 1) < 1e-12)
        #expect(abs(try #require(a.spearman) - 1) < 1e-12)
        #expect(abs(try #require(a.changeCorrelation) - 1) < 1e-12)
        #expect(abs(a.bias - log(2)) < 1e-12)
        #expect(abs(a.upperLimit - a.lowerLimit) < 1e-9)
    }

    @Test("ties share their mean rank (hand-worked: ρ = 8/√95, r = 6/√52)")
    func tiesAndRanks() throws {
        // other 5,6,7,8,7 → ranks 1,2,3.5,5,3.5; against 1…5: Σdxdy 8, Σdx² 10, Σdy² 9.5.
        // raw: mean 6.6, Σdxdy 6.0, Σdy² 5.2.
        let a = try #require(Agreement(days([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])))
        #expect(Agreement.ranks([5, 6, 7, 8, 7]) == [1, 2, 3.5, 5, 3.5])
        #expect(abs(try #require(a.spearman) - 8 / 95.0.squareRoot()) < 1e-12)
        #expect(abs(try #require(a.pearson) - 6 / 52.0.squareRoot()) < 1e-12)
    }

    @Test("changes only across consecutive calendar days: a gap breaks the pair")
    func gapBreaksChangePairs() throws {
        let a = try #require(Agreement(days([40, 50, 60, 55, 45], [20, 26, 29, 27, 23], on: [0, 1, 2, 4, 5])))
        #expect(a.changePairs == 3)
    }

    @Test("under 5 overlapping days, or a non-positive value: no figures at all")
    func refusals() {
        #expect(Agreement(days([40, 50, 60, 55], [20, 25, 30, 27.5])) == nil)
        #expect(Agreement(days([40, 50, 0, 55, 45], [20, 25, 30, 27.5, 22.5])) == nil)
    }
}
