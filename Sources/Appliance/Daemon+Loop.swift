import ControlProtocol
import LocalClock
import Platform
import RecoveryCore

#if canImport(Glibc)
    import Glibc
#endif

/// The loop: one thread, one epoll wait (DESIGN §4). Each turn arms the timerfd to the earliest deadline,
/// waits, hands each ready descriptor to its owner, runs what fell due and publishes what changed.
extension Daemon {
    /// Runs until SIGTERM or SIGINT (exit status 0) or until the event loop fails (1: under
    /// `Restart=on-failure` the service manager then starts the daemon again, systemd.service(5)).
    public func run() -> Int32 {
        start()
        run(until: { false })
        shutDown()
        return loopFailure == nil ? 0 : 1
    }

    /// Runs the loop until `done()` is true after a step, a stop signal arrives, or the loop fails.
    public func run(until done: () -> Bool) {
        while !stopRequested && !done() {
            do { try step() } catch {
                logger.error("the event loop failed: \(error); stopping with exit status 1")
                loopFailure = error
                stopRequested = true
            }
        }
    }

    /// One turn of the loop: arm the timer to the earliest deadline, wait, handle what is ready.
    public func step() throws(Errno) {
        let now = clock.monotonicMs()
        let deadline = nextDeadlineMs(now: now)
        var realDeadline = deadline.map { clock.realWakeMs(for: $0) }
        let realDeadlines = [serviceManager.nextWatchdogMs, filing.nextRetryDueRealMs, control?.listenerResumeRealMs, discovery?.nextDeadlineMs]
        for other in realDeadlines.compactMap({ $0 }) {
            realDeadline = min(realDeadline ?? other, other)
        }
        try timer.arm(atMonotonicMs: realDeadline)
        let ready = try registration.wait(timeoutMs: nil)
        noticeStall()
        // Whatever woke the loop, what another process wrote since is read first.
        followStore(now: clock.monotonicMs())
        let timerFired = ready.contains { $0.edge == .timer }
        let timerNow = clock.woke(aimedAt: deadline, timerFired: timerFired, othersReady: ready.count > (timerFired ? 1 : 0))
        for item in ready where timerNow || item.edge != .timer { dispatch(item) }
        runDeadlines()
        publish(now: clock.monotonicMs())
    }

    /// The earliest deadline on the daemon's clock.
    func nextDeadlineMs(now: Int64) -> Int64? {
        aimReminder()
        return EventLoop.earliest([
            routine.nextDeadlineMs, strap.nextDeadlineMs, panel.nextDeadlineMs, reminderTimer.dueMs,
        ])
    }

    /// Aims the reminder's timer at the minute its window next opens or closes, from the local time now.
    func aimReminder() {
        let local = clock.localTime()
        reminderTimer.aim(at: routine.reminder.nextCheck(date: local.date, minute: local.minuteOfDay))
    }

    /// The wall-clock timer fired (the minute came) or the wall clock was set: look again, and re-arm.
    func wallTimerReadable() {
        guard let expiry = reminderTimer.acknowledge() else { return }
        if expiry == .clockSet { logger.notice("the wall clock was set", ["clock": clockText]) }
        process(.session(.tick), now: clock.monotonicMs())
        aimReminder()
    }

    /// Hands one ready descriptor to its edge.
    func dispatch(_ item: Registration.Ready) {
        let now = clock.monotonicMs()
        let fd = item.descriptor
        switch item.edge {
        case .timer:
            do { _ = try timer.acknowledge() } catch { logger.warning("cannot acknowledge the timer: \(error)") }
        case .wallTimer:
            wallTimerReadable()
        case .signals:
            guard let signals else { return }
            let pending: [SignalInfo]
            do { pending = try signals.readPending() } catch {
                logger.warning("cannot read the pending signals: \(error)")
                return
            }
            for info in pending { signal(info) }
        case .panel:
            for input in panel.onReadable(fd, nowMs: now) { panelInput(input, now: now) }
        case .strap:
            strapEvents(strap.onReadable(fd, nowMs: now), now: now)
        case .discovery:
            if let discovery { answerDiscovery(discovery.onReadable(nowMs: clock.realMs())) }
        case .control:
            if let control { controlReadable(control, fd) }
        }
    }

    /// Sends the discovery's answers to the clients that asked.
    func answerDiscovery(_ answers: [StrapDiscovery.Answer]) {
        guard let control else { return }
        for answer in answers { control.reply(answer.client, answer.reply) }
    }

    /// Woken far past the earliest deadline: the daemon itself was not running (SIGSTOP, swap, throttling),
    /// in the wait or in the middle of a turn. Checked before anything that fell due is handled, so the hole
    /// never reaches the session as if it had been measured.
    func noticeStall() {
        guard let deadline = EventLoop.earliest([routine.nextDeadlineMs, strap.nextDeadlineMs]) else { return }
        let now = clock.monotonicMs()
        let late = now - deadline
        let lateReal = clock.realMs() - clock.realWakeMs(for: deadline)
        guard MorningSession.isStall(lateMs: late, lateRealMs: lateReal) else { return }
        logger.warning(
            "the loop did not run for \(lateReal) ms past a deadline", ["phase": routine.session.phase.rawValue])
        process(.session(.stalled(gapMs: late)), now: now)
    }

    func runDeadlines() {
        noticeStall()
        // Several may fall due together; each handler moves its own deadline on.
        for _ in 0..<64 {
            let now = clock.monotonicMs()
            var did = false
            if let due = strap.nextDeadlineMs, due <= now {
                strapEvents(strap.onDeadline(nowMs: now), now: now)
                did = true
            }
            if let due = routine.nextDeadlineMs, due <= now {
                process(.session(.tick), now: now)
                did = true
            }
            // What the routine shows now goes to the lamps before the panel writes its due edges: a new display's
            // first edge is written in this turn, with the sound that came with it (the readout's 30 s count from
            // the save's answer), and a state that ends replaces its pattern before an edge due at the same
            // instant is written (a flash as the readout goes dark).
            publish(now: clock.monotonicMs())
            if let due = panel.nextDeadlineMs, due <= clock.monotonicMs() {
                // Read again: the strap's events and the routine's tick just handled may have saved a morning,
                // and the panel writes a new pattern's first edge now; its steps count from this instant
                // (Panel.show).
                let at = clock.monotonicMs()
                for input in panel.onDeadline(nowMs: at) { panelInput(input, now: at) }
                did = true
            }
            if reminderTimer.isDue(nowMs: now) {
                // The window opened or closed (or an hour passed): look again, and aim at the next change.
                process(.session(.tick), now: now)
                aimReminder()
                did = true
            }
            if !did { break }
        }
        for fault in panel.takeFaults() { logger.warning("panel: \(fault)") }
        retryWaitingIfDue()
        resumeListenerIfDue()
        if let discovery, discovery.isRunning, routine.session.isMeasuring {
            answerDiscovery(
                discovery.abandon(
                    ControlRefusal(
                        code: .busy, message: "A morning session started, so the scan stopped; scan again when it is over.")))
        }
        if let discovery, let due = discovery.nextDeadlineMs, due <= clock.realMs() {
            answerDiscovery(discovery.onDeadline(nowMs: clock.realMs()))
        }
        serviceManager.keepAliveIfDue(nowMs: clock.realMs())
    }

    func signal(_ info: SignalInfo) {
        switch info.signal {
        case .terminate, .interrupt:
            logger.notice("stopping on \(info.signal)", ["sender.pid": String(info.senderPID)])
            stopRequested = true
        default:
            logger.notice("\(info.signal) ignored: restart the service to apply configuration changes")
        }
    }
}
