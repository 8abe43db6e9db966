import Testing

@testable import Insights

@Suite("Benjamini–Hochberg q-values (Health Engine: BH-FDR over the scan's whole family)")
struct FalseDiscoveryTests {
    @Test("q-values equal R multtest's BH column that statsmodels' fdr_bh is tested against")
    func multtestVector() {
        // Provenance: statsmodels/stats/tests/test_multi.py, `pval0` and column 6 ('BH') of
        // `res_multtest1` (R multtest mt.rawp2adjp), rows in ascending p. statsmodels asserts 15 decimals.
        let p = [
            5.23656777208e-05, 0.00028140506198, 0.0149877310796, 0.0202732688798, 0.177096952723,
            0.642193923795, 0.680845947633, 0.71626938238, 0.838541367553, 0.967833824309,
        ]
        let expected = [
            5.2365677720800005e-04, 1.4070253098999999e-03, 4.9959103598666670e-02, 5.0683172199499998e-02,
            3.5419390544599999e-01, 8.9533672797500008e-01, 8.9533672797500008e-01, 8.9533672797500008e-01,
            9.3171263061444454e-01, 9.6783382430900000e-01,
        ]
        // Shuffled input order must give the same q per p-value.
        let order = [7, 2, 9, 0, 5, 3, 8, 1, 6, 4]
        let q = benjaminiHochbergQValues(order.map { p[$0] })
        for (k, i) in order.enumerated() { #expect(abs(q[k] - expected[i]) < 1e-15) }
    }

    @Test("a family where every test survives: all six q-values are 0.012 (statsmodels res_multtest2)")
    func allRejected() {
        let q = benjaminiHochbergQValues([0.002, 0.004, 0.006, 0.008, 0.01, 0.012])
        for v in q { #expect(abs(v - 0.012) < 1e-15) }
    }

    @Test("Benjamini & Hochberg 1995's own example rejects four at 0.05")
    func originalPaperExample() {
        // Provenance: Benjamini & Hochberg (1995) JRSS B 57:289, §4 (15 p-values; step-up rejects 4 at q = .05).
        let p = [
            0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528,
            0.7590, 1.000,
        ]
        let q = benjaminiHochbergQValues(p)
        #expect(q.filter { $0 <= 0.05 }.count == 4)
        #expect(q.allSatisfy { $0 <= 1 })
        #expect(abs(q.last! - 1.0) < 1e-15)
    }

    @Test("q-values are monotone in p, never below p, capped at 1, and empty in → empty out")
    func shape() {
        var rng = SeededGenerator(seed: 3)
        let p = (0..<200).map { _ in rng.unit() }
        let q = benjaminiHochbergQValues(p)
        let order = p.indices.sorted { p[$0] < p[$1] }
        for k in 1..<order.count { #expect(q[order[k]] >= q[order[k - 1]]) }
        for i in p.indices { #expect(q[i] >= p[i] && q[i] <= 1) }
        #expect(benjaminiHochbergQValues([]).isEmpty)
    }
}
