import Testing

@testable import RecoveryCore

/// The ring buffer keeps value semantics over its shared storage: a copy never sees the other's appends or pops,
/// in any wrap-around layout.
@Suite struct RingBufferCopyTests {
    @Test("a copy is independent of the original in every layout (value semantics)")
    func copiesAreIndependent() {
        for capacity in 1...5 {
            for head in 0..<capacity {
                for count in 0...capacity {
                    var original = RingBuffer<Int>(capacity: capacity)
                    for _ in 0..<head {
                        _ = original.append(-1)
                        _ = original.popFirst()
                    }
                    for i in 0..<count { _ = original.append(i) }
                    var copy = original
                    if count < capacity { _ = copy.append(99) }
                    _ = copy.popFirst()
                    #expect(Array(original) == Array(0..<count), "capacity \(capacity) head \(head) count \(count)")
                    if count > 0 { _ = original.popFirst() }
                    let expectedCopy = Array((count < capacity ? Array(0..<count) + [99] : Array(0..<count)).dropFirst())
                    #expect(Array(copy) == expectedCopy, "capacity \(capacity) head \(head) count \(count)")
                }
            }
        }
    }
}
