import Testing

@testable import RecoveryCore

/// DESIGN §4: the session's fixed-size ring buffer. Every layout of small buffers is walked: for each capacity
/// 1...6, each starting head position (reached by popping), and each fill level.
@Suite struct RingBufferTests {
    /// A buffer of `capacity` whose head sits at physical slot `head`, holding `count` elements `base ..< base + count`.
    func layout(capacity: Int, head: Int, count: Int, base: Int = 100) -> RingBuffer<Int> {
        var buffer = RingBuffer<Int>(capacity: capacity)
        // Fill the whole storage once, then pop `head` elements and the rest, so head lands at `head`.
        for i in 0..<capacity { buffer.append(-1 - i) }
        for _ in 0..<capacity { _ = buffer.popFirst() }
        // After popping everything head is back at slot 0 (capacity pops wrap); move it to `head`.
        for _ in 0..<head {
            buffer.append(-99)
            _ = buffer.popFirst()
        }
        for i in 0..<count { buffer.append(base + i) }
        return buffer
    }

    @Test("every wrap-around layout keeps FIFO order, count and free capacity (DESIGN §4)")
    func everyLayout() {
        for capacity in 1...6 {
            for head in 0..<capacity {
                for count in 0...capacity {
                    var buffer = layout(capacity: capacity, head: head, count: count)
                    #expect(buffer.head.position == head)
                    #expect(buffer.count == count)
                    #expect(buffer.freeCapacity == capacity - count)
                    #expect(buffer.isFull == (count == capacity))
                    #expect(Array(buffer) == Array(100..<(100 + count)))
                    if count > 0 {
                        #expect(buffer.first == 100)
                        #expect(buffer.last == 100 + count - 1)
                        #expect(buffer[count - 1] == 100 + count - 1)
                    }
                    // Append to the free slots (crossing the physical end when the layout wraps), then drain.
                    for i in count..<capacity {
                        let appended = buffer.append(100 + i)
                        #expect(appended)
                    }
                    #expect(buffer.isFull)
                    var drained: [Int] = []
                    while let x = buffer.popFirst() { drained.append(x) }
                    #expect(drained == Array(100..<(100 + capacity)))
                    #expect(buffer.isEmpty)
                    let none = buffer.popFirst()
                    #expect(none == nil)
                }
            }
        }
    }

    @Test("a full buffer refuses and counts, and keeps the oldest samples (overflow rule, DESIGN §4)")
    func overflowRefuses() {
        for capacity in 1...5 {
            for head in 0..<capacity {
                var buffer = layout(capacity: capacity, head: head, count: capacity)
                let before = Array(buffer)
                let refused7 = !buffer.append(7)
                let refused8 = !buffer.append(8)
                #expect(refused7 && refused8)
                #expect(buffer.refusedCount == 2)
                #expect(Array(buffer) == before)
                _ = buffer.popFirst()
                let appended = buffer.append(9)
                #expect(appended)
                #expect(buffer.last == 9)
                #expect(buffer.refusedCount == 2)
            }
        }
    }

    @Test("removeAll empties without losing capacity; later appends reuse slots")
    func removeAllReuses() {
        var buffer = layout(capacity: 4, head: 3, count: 3)
        buffer.removeAll()
        #expect(buffer.isEmpty && buffer.freeCapacity == 4)
        for i in 0..<4 {
            let appended = buffer.append(i)
            #expect(appended)
        }
        #expect(Array(buffer) == [0, 1, 2, 3])
        let refused = !buffer.append(4)
        #expect(refused)
    }

    @Test("slots are physical, offsets logical: offset 0 is the oldest wherever the head is")
    func slotVersusOffset() {
        let buffer = layout(capacity: 5, head: 3, count: 4)
        #expect(buffer.slot(forOffset: 0) == RingBuffer<Int>.Slot(3))
        #expect(buffer.slot(forOffset: 1) == RingBuffer<Int>.Slot(4))
        #expect(buffer.slot(forOffset: 2) == RingBuffer<Int>.Slot(0))
        #expect(buffer[2] == 102)
    }

    @Test("session capacity covers the longest recording at 220 bpm with a quarter margin, from the timings")
    func sessionCapacityArithmetic() {
        // First RR wait 10 + settle 15 + capture 90 + lying 30 + cue 3 + standing 60, then one drop-out: resume
        // offer 15, a fresh settle 15 and the longer rerun (lying 30 + cue 3 + standing 60 = 93 > capture 90).
        #expect(SessionTimings.standard.longestRecordingMs == 331_000)
        let beatsAt220 = 331 * 220 / 60
        #expect(beatsAt220 == 1213)
        #expect(SessionCapacity.standard.rrIntervals == 1516)
        #expect(SessionCapacity.standard.heartRates == SessionCapacity.standard.rrIntervals)
        // Longer timings get larger stores.
        var longer = SessionTimings.standard
        longer.standingMs *= 2
        #expect(SessionCapacity(timings: longer).rrIntervals > SessionCapacity.standard.rrIntervals + 200)
        // The window accepts only RR ≥ 300 ms: at most 90 000 / 300 beats in 90 s.
        #expect(90_000 / 300 <= SessionCapacity.windowIntervals)
    }
}
