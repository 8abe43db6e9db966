import Platform
import Testing

@Suite("EventLoop: epoll readiness for the daemon's one thread (DESIGN §4 one event loop)")
struct EventLoopTests {
    @Test("An idle loop reports nothing: a zero-timeout wait over quiet descriptors returns empty")
    func idleLoopReportsNothing() throws {
        let loop = try EventLoop()
        defer { loop.close() }
        let counter = try EventFD()
        defer { counter.close() }
        try loop.register(counter.descriptor)
        #expect(try loop.wait(timeoutMs: 0).isEmpty)
    }

    @Test("A descriptor that becomes readable is reported with the readable bit, and only that one")
    func readableDescriptorIsReported() throws {
        let loop = try EventLoop()
        defer { loop.close() }
        let a = try EventFD()
        let b = try EventFD()
        defer {
            a.close()
            b.close()
        }
        try loop.register(a.descriptor)
        try loop.register(b.descriptor)
        try b.signal()
        let ready = try loop.wait(timeoutMs: 10_000)
        #expect(ready == [ReadyDescriptor(descriptor: b.descriptor, events: .readable)])
        #expect(try b.drain() == 1)
        #expect(try loop.wait(timeoutMs: 0).isEmpty)
    }

    @Test("Unregistered descriptors are no longer reported; modify switches readable to writable")
    func unregisterAndModify() throws {
        let loop = try EventLoop()
        defer { loop.close() }
        let a = try EventFD(initialValue: 1)
        defer { a.close() }
        try loop.register(a.descriptor, for: .readable)
        #expect(try loop.wait(timeoutMs: 0).map(\.descriptor) == [a.descriptor])
        try loop.modify(a.descriptor, for: .writable)
        #expect(try loop.wait(timeoutMs: 0).first?.events == .writable)
        try loop.unregister(a.descriptor)
        #expect(try loop.wait(timeoutMs: 0).isEmpty)
    }

    @Test("Registering the same descriptor twice fails with EEXIST, unregistering an unknown one with ENOENT")
    func registrationErrorsAreTyped() throws {
        let loop = try EventLoop()
        defer { loop.close() }
        let a = try EventFD()
        defer { a.close() }
        try loop.register(a.descriptor)
        #expect(throws: Errno(rawValue: 17)) { try loop.register(a.descriptor) }
        let b = try EventFD()
        defer { b.close() }
        #expect(throws: Errno.noEntry) { try loop.unregister(b.descriptor) }
    }

    @Test("The earliest deadline among the edges' optional deadlines is the one the timer gets")
    func earliestDeadline() {
        #expect(EventLoop.earliest([nil, 5_000, 1_200, nil]) == 1_200)
        #expect(EventLoop.earliest([nil, nil]) == nil)
    }
}

@Suite("TimerFD: one-shot CLOCK_MONOTONIC deadlines (APIS event-loop contract)")
struct TimerFDTests {
    @Test("A timer armed to a deadline already past is readable at once and acknowledges one expiry")
    func pastDeadlineFiresAtOnce() throws {
        let loop = try EventLoop()
        defer { loop.close() }
        let timer = try TimerFD()
        defer { timer.close() }
        try loop.register(timer.descriptor)
        try timer.arm(atMonotonicMs: SystemClock.monotonicMs() - 1)
        #expect(try loop.wait(timeoutMs: 10_000).map(\.descriptor) == [timer.descriptor])
        #expect(try timer.acknowledge() == 1)
        #expect(try timer.acknowledge() == 0)
        #expect(try loop.wait(timeoutMs: 0).isEmpty)
    }

    @Test("Deadline 0 still fires (an all-zero setting would disarm the timer instead)")
    func zeroDeadlineFires() throws {
        let timer = try TimerFD()
        defer { timer.close() }
        let loop = try EventLoop()
        defer { loop.close() }
        try loop.register(timer.descriptor)
        try timer.arm(atMonotonicMs: 0)
        #expect(try loop.wait(timeoutMs: 10_000).count == 1)
    }

    @Test("A future deadline is not ready yet; re-arming replaces it; disarming (nil) silences a due timer")
    func futureDeadlineAndDisarm() throws {
        let loop = try EventLoop()
        defer { loop.close() }
        let timer = try TimerFD()
        defer { timer.close() }
        try loop.register(timer.descriptor)
        try timer.arm(atMonotonicMs: SystemClock.monotonicMs() + 3_600_000)
        #expect(try loop.wait(timeoutMs: 0).isEmpty)
        try timer.arm(atMonotonicMs: SystemClock.monotonicMs() - 5)
        #expect(try loop.wait(timeoutMs: 10_000).count == 1)
        try timer.arm(atMonotonicMs: nil)
        #expect(try loop.wait(timeoutMs: 0).isEmpty)
        #expect(try timer.acknowledge() == 0)
    }
}

@Suite("EventFD: how in-process sources wake the loop")
struct EventFDTests {
    @Test("Signals add up until drained; a drained counter reads 0 without blocking")
    func countsAddUp() throws {
        let counter = try EventFD()
        defer { counter.close() }
        try counter.signal()
        try counter.signal(2)
        #expect(try counter.drain() == 3)
        #expect(try counter.drain() == 0)
    }
}
