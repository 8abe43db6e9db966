import LocalClock
import Platform
import RecoveryCore
import TestSupport
import Testing

@testable import Appliance
@testable import Simulation

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's small owned parts, each on its own: the service manager's conversation (a real datagram
/// socket as systemd's), what was last published, and the reminder's timer (a real wall-clock timerfd).
@Suite struct DaemonComponentsTests {
    // MARK: ServiceManager

    /// A service manager listening on a fresh abstract socket, with `WATCHDOG_USEC` when given.
    static func manager(watchdogUsec: UInt64?) throws -> (ServiceManagerSocket, ServiceManager) {
        let name = "@recoverydeck-components-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let socket = try ServiceManagerSocket(address: try #require(UnixSocketAddress(name)))
        let environment: [String: String] = [
            "NOTIFY_SOCKET": name, "WATCHDOG_PID": String(getpid()),
        ].merging(watchdogUsec.map { ["WATCHDOG_USEC": String($0)] } ?? [:]) { a, _ in a }
        return (socket, try ServiceManager(environment: { environment[$0] }, logger: Logger()))
    }

    @Test("nothing is said before READY; READY carries the status; a status is sent only when it changes")
    func readyThenStatusOnChange() throws {
        let (socket, manager) = try Self.manager(watchdogUsec: nil)
        defer {
            manager.close()
            socket.close()
        }
        manager.update(status: "Idle")
        #expect(socket.receive() == "<nothing>")
        manager.announceReady(status: "Idle", nowMs: 1_000)
        #expect(socket.receive() == "READY=1\nSTATUS=Idle")
        manager.update(status: "Idle")
        #expect(socket.receive() == "<nothing>")
        manager.update(status: "Lying: settling")
        #expect(socket.receive() == "STATUS=Lying: settling")
        manager.stopping()
        #expect(socket.receive() == "STOPPING=1")
    }

    @Test("the watchdog is kept alive at half WATCHDOG_USEC, counted from READY and from each keep-alive")
    func watchdogAtHalfThePeriod() throws {
        let (socket, manager) = try Self.manager(watchdogUsec: 30_000_000)
        defer {
            manager.close()
            socket.close()
        }
        #expect(manager.watchdogIntervalMs == 15_000)
        #expect(manager.nextWatchdogMs == nil)
        manager.keepAliveIfDue(nowMs: 100_000)
        #expect(socket.receive() == "<nothing>")
        manager.announceReady(status: "Idle", nowMs: 1_000)
        _ = socket.receive()
        #expect(manager.nextWatchdogMs == 16_000)
        manager.keepAliveIfDue(nowMs: 15_999)
        #expect(socket.receive() == "<nothing>")
        manager.keepAliveIfDue(nowMs: 17_500)
        #expect(socket.receive() == "WATCHDOG=1")
        #expect(manager.nextWatchdogMs == 32_500)
        manager.keepAliveIfDue(nowMs: 17_600)
        #expect(socket.receive() == "<nothing>")
    }

    @Test("run by hand (no NOTIFY_SOCKET, no WATCHDOG_USEC): silent, and no deadline for the loop")
    func withoutAServiceManager() throws {
        let manager = try ServiceManager(environment: { _ in nil }, logger: Logger())
        defer { manager.close() }
        manager.announceReady(status: "Idle", nowMs: 0)
        manager.keepAliveIfDue(nowMs: 1_000_000)
        #expect(manager.isReady)
        #expect(manager.nextWatchdogMs == nil)
    }

    // MARK: Publication

    @Test("the lamps change only with the indication; a snapshot is due once per change; a fault is logged once")
    func publicationPublishesWhatChanged() {
        var publication = Publication()
        var seen: [Bool] = []
        seen.append(publication.takeChanged())  // nothing yet
        seen.append(publication.show(.dark))  // the first indication lights the lamps
        seen.append(publication.takeChanged())  // and is a change
        seen.append(publication.show(.dark))  // the same again: nothing to light
        seen.append(publication.takeChanged())
        publication.markChanged()  // an event went into the routine
        seen.append(publication.takeChanged())
        seen.append(publication.takeChanged())  // once only
        #expect(seen == [false, true, true, false, false, true, false])
        var logged: [MorningFault?] = []
        for fault in [MorningFault.strapNotFound, .strapNotFound, nil, .strapNotFound] {
            logged.append(publication.faultToLog(fault))
        }
        #expect(logged == [.strapNotFound, nil, nil, .strapNotFound])
    }

    // MARK: ReminderTimer

    static let start = (date: LocalDate(year: 2026, month: 3, day: 10)!, minute: MinuteOfDay(hhmm: "06:00")!)

    @Test("on a simulated clock the next look is a deadline on the daemon's clock, capped at an hour")
    func simulatedReminderDeadline() throws {
        let clock = SteppedClock(speed: 1, startEpoch: LocalTime.epochSeconds(of: Self.start.date, at: Self.start.minute))
        let timer = try ReminderTimer(clock: clock, logger: Logger())
        defer { timer.close() }
        #expect(timer.wallTimer == nil)
        let now = clock.monotonicMs()
        timer.aim(at: (Self.start.date, MinuteOfDay(hhmm: "06:30")!))
        #expect(timer.dueMs == now + 30 * 60_000)
        #expect(!timer.isDue(nowMs: now + 30 * 60_000 - 1))
        #expect(timer.isDue(nowMs: now + 30 * 60_000))
        timer.aim(at: (Self.start.date, MinuteOfDay(hhmm: "10:00")!))
        #expect(timer.dueMs == now + ReminderTimer.simulatedCapMs)
        timer.aim(at: nil)
        #expect(timer.dueMs == nil)
        #expect(!timer.isDue(nowMs: .max))
    }

    @Test("on the system clock the next look is a wall-clock timerfd: a minute already past fires at once, and once read it is armed again")
    func wallClockReminderTimer() throws {
        let clock = KernelClock()
        let timer = try ReminderTimer(clock: clock, logger: Logger())
        defer { timer.close() }
        let wall = try #require(timer.wallTimer)
        #expect(timer.dueMs == nil)
        let past = LocalTime(epochSeconds: SystemClock.epochSeconds() - 120)
        timer.aim(at: (past.date, past.minuteOfDay))
        #expect(try ReadinessWait.readable([wall.descriptor], timeoutMs: 2_000) == [wall.descriptor])
        #expect(timer.acknowledge() == .fired)
        #expect(try ReadinessWait.readable([wall.descriptor], timeoutMs: 0).isEmpty)
        // The same minute again: read, the timer no longer counts as armed for it, so it is armed and fires.
        timer.aim(at: (past.date, past.minuteOfDay))
        #expect(try ReadinessWait.readable([wall.descriptor], timeoutMs: 2_000) == [wall.descriptor])
        #expect(timer.acknowledge() == .fired)
        // An hour ahead: armed, not readable; no look needed: disarmed.
        let later = LocalTime(epochSeconds: SystemClock.epochSeconds() + 3_600)
        timer.aim(at: (later.date, later.minuteOfDay))
        #expect(try ReadinessWait.readable([wall.descriptor], timeoutMs: 50).isEmpty)
        timer.aim(at: nil)
        #expect(try ReadinessWait.readable([wall.descriptor], timeoutMs: 50).isEmpty)
        #expect(timer.dueMs == nil)
    }
}
