import Foundation
import Testing

@testable import RecoveryCore

/// The inline slots that replace `InlineArray` (Swift 6.2+) on the per-beat path: each index is its own double.
@Suite struct InlineDoublesTests {
    @Test("8, 64 and 512 slots: every index keeps its own value, and the count is the tuple's")
    func slotsKeepTheirValues() {
        var small = InlineDoubles.zero8
        var ring = InlineDoubles.zero64
        var window = InlineDoubles.zero512
        #expect(InlineDoubles.count(InlineDoubles.Slots8.self) == 8)
        #expect(InlineDoubles.count(InlineDoubles.Slots64.self) == 64)
        #expect(InlineDoubles.count(InlineDoubles.Slots512.self) == 512)
        for i in 0..<8 { InlineDoubles.set(&small, i, Double(i) + 0.5) }
        for i in 0..<64 { InlineDoubles.set(&ring, i, Double(i * 3)) }
        for i in 0..<512 { InlineDoubles.set(&window, i, Double(512 - i)) }
        #expect((0..<8).map { InlineDoubles.get(small, $0) } == (0..<8).map { Double($0) + 0.5 })
        #expect((0..<64).map { InlineDoubles.get(ring, $0) } == (0..<64).map { Double($0 * 3) })
        #expect((0..<512).map { InlineDoubles.get(window, $0) } == (0..<512).map { Double(512 - $0) })
        let sum = InlineDoubles.withBuffer(&window) { $0.reduce(0, +) }
        #expect(sum == Double(512 * 513 / 2))
    }

    @Test("the median of an unsorted buffer, odd and even counts")
    func median() {
        var ring = InlineDoubles.zero64
        for (i, v) in [5.0, 1, 4, 2, 3].enumerated() { InlineDoubles.set(&ring, i, v) }
        let odd = InlineDoubles.withBuffer(&ring) { PatternArtifactDetector.median(of: .init(rebasing: $0[..<5])) }
        InlineDoubles.set(&ring, 5, 10)
        let even = InlineDoubles.withBuffer(&ring) { PatternArtifactDetector.median(of: .init(rebasing: $0[..<6])) }
        #expect(odd == 3 && even == 3.5)
    }

    @Test("a morning window keeps its accepted intervals in order through the inline slots")
    func windowKeepsAccepted() {
        let rr = (0..<80).map { 1000 + 20 * sin(Double($0)) }
        let result = HRVAnalysis.analyze(rr, window: .whole)
        #expect(result.accepted == rr)
        let morning = HRVAnalysis.analyze(rr, window: .morning)
        #expect(morning.accepted.count == morning.metrics.accepted && !morning.accepted.isEmpty)
        #expect(morning.accepted.allSatisfy { rr.contains($0) })
    }
}
