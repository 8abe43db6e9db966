import ControlProtocol
import JSON
import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

extension Daemon {
    /// A control packet arrived, or a peer connected or left.
    func controlReadable(_ control: ControlServer, _ fd: FileDescriptor) {
        for incoming in control.onReadable(fd) {
            switch incoming {
            case .accepted:
                break
            case .closed(let client):
                forgetDiscovery(of: client)
                // A restore that died mid-way must not leave the box unable to measure.
                if writePause.clientLeft(client) { writesResumed(now: clock.monotonicMs()) }
            case .refused(let client, let refusal):
                control.reply(client, refusal.json)
            case .extra(let client, let request):
                if let extraRequests { control.reply(client, extraRequests.answer(request)) }
            case .request(let client, let request):
                // nil: answered later (a scan, when its time is up).
                if let reply = answer(request, from: client, control) { control.reply(client, reply) }
            case .turnedAway(let peer, let crowded):
                logger.warning(
                    crowded
                        ? "control socket: refused a peer whose user has \(ControlServer.connectionsPerUser) connections open"
                        : "control socket: refused a peer that is not root, the daemon's user or in \(configuration.controlGroup)",
                    ["peer.uid": String(peer.uid), "peer.pid": String(peer.pid)])
            }
        }
        for gone in control.takeDropped() { forgetDiscovery(of: gone) }
        for warning in control.takeWarnings() { logger.warning("control socket: \(warning)") }
        if let exhausted = control.takeAcceptExhausted() { pauseListener(control, exhausted) }
    }

    /// Out of descriptors at accept: the level-triggered listener would wake the loop at once, for ever
    /// (measured: 83–93 % CPU). Stop watching it for `ControlServer.acceptPauseMs`; the peers wait in the
    /// backlog, and a CLI gives up after its connect timeout with a sentence.
    func pauseListener(_ control: ControlServer, _ error: Errno) {
        guard control.pauseAccepting(nowRealMs: clock.realMs()) else { return }
        logger.warning(
            "control socket: out of file descriptors (\(error)) with \(control.clientCount) clients connected; "
                + "not accepting for \(ControlServer.acceptPauseMs) ms")
    }

    /// Watches the listener again once its pause is over; if it cannot be watched yet, after another pause.
    func resumeListenerIfDue() {
        guard let control else { return }
        do { try control.resumeAcceptingIfDue(nowRealMs: clock.realMs()) } catch {
            logger.warning(
                "cannot watch the control socket again (\(error)); trying again in \(ControlServer.acceptPauseMs) ms")
        }
    }

    func forgetDiscovery(of client: FileDescriptor) {
        guard let discovery else { return }
        discovery.forget(client)
    }

    func answer(_ request: ControlRequest, from client: FileDescriptor, _ control: ControlServer) -> JSONValue? {
        let now = clock.monotonicMs()
        switch request {
        case .measure(let overwrite):
            if writesArePaused() { return Daemon.pausedRefusal.json }
            followStore(now: now)
            if clockRefuses(.measure, now: now) {
                return ControlRefusal(code: .clockUnsynchronised, message: ClockGuard.sentence).json
            }
            let actions = process(.session(.measure(overwrite: overwrite)), now: now)
            publish(now: clock.monotonicMs())
            if let decline = actions.lazy.compactMap({ if case .declined(let d) = $0 { d } else { nil } }).first {
                return ControlRefusal(code: RefusalCode(decline), message: decline.sentence).json
            }
            return MeasureStarted(phase: routine.session.phase.rawValue, date: routine.day.today.iso).json
        case .cancel:
            let before = routine.session.phase
            let measuring = routine.session.isMeasuring
            let actions = process(.session(.cancel), now: now)
            publish(now: clock.monotonicMs())
            if let decline = actions.lazy.compactMap({ if case .declined(let d) = $0 { d } else { nil } }).first {
                return ControlRefusal(code: RefusalCode(decline), message: decline.sentence).json
            }
            // `cancelled` false: no session was running, only a readout or a fault code was cleared.
            return CancelOutcome(phase: routine.session.phase.rawValue, was: before.rawValue, cancelled: measuring).json
        case .watch:
            control.startWatching(client)
            return SessionStatus(snapshot: controlSnapshot(routine.session.snapshot(atMs: now))).json
        case .status:
            return SessionStatus(snapshot: controlSnapshot(routine.session.snapshot(atMs: now))).json
        case .dayChanged:
            // `delete` removes the spooled records of the days it deletes.
            filing.reload()
            refreshDay(now: now)
            publish(now: clock.monotonicMs())
            return DayAnswer(date: routine.day.today.iso).json
        case .pauseWrites:
            if let refusal = writeAuthorityRefusal(client, control) { return refusal.json }
            // The session would save into a database being rewritten: a restore waits for it to end.
            guard !routine.session.isMeasuring else {
                return ControlRefusal(
                    code: .busy,
                    message: "A morning session is running; try again when it is over, or cancel it first."
                ).json
            }
            switch writePause.pause(by: client, nowRealMs: clock.realMs()) {
            case .granted:
                logger.info("writes paused for a restore")
                return Acknowledged().json
            case .alreadyHeld:
                // Its end stays where it was: asking again cannot hold the mornings past the limit.
                return Acknowledged().json
            case .heldByAnother:
                return ControlRefusal(
                    code: .paused,
                    message: "Another restore holds the database's writes; try again when it is done "
                        + "(at most \(Daemon.pauseLimitMs / 60_000) minutes)."
                ).json
            }
        case .resumeWrites:
            if let refusal = writeAuthorityRefusal(client, control) { return refusal.json }
            if writePause.resume(by: client) {
                writesResumed(now: now)
            } else if writePause.isHeld {
                return ControlRefusal(
                    code: .notHolder, message: "Only the restore that paused the writes may resume them."
                ).json
            }
            return DayAnswer(date: routine.day.today.iso).json
        case .scan(let seconds, let adapter):
            guard let discovery else {
                return ControlRefusal(
                    code: .notBluetooth, message: "This box measures with a simulated strap: there is no strap to scan for."
                ).json
            }
            // The strap link and a discovery share the radio, and a morning needs every beat.
            guard !routine.session.isMeasuring else {
                return ControlRefusal(
                    code: .busy, message: "A morning session is running; scan when it is over, or cancel it first."
                ).json
            }
            let refusal = discovery.begin(
                client: client, seconds: seconds, adapter: adapter, nowMs: clock.realMs())
            if let refusal { return refusal.json }
            logger.info("scanning for straps for \(seconds) s, asked over the control socket")
            return nil
        }
    }

    /// Pausing the database's writes holds every morning, so only root and the daemon's own user (root's
    /// command line acts as that user) may ask; members of the group may not.
    func writeAuthorityRefusal(_ client: FileDescriptor, _ control: ControlServer) -> ControlRefusal? {
        guard let peer = control.peer(client), !Daemon.mayPauseWrites(peerUID: peer.uid, daemonUID: geteuid()) else {
            return nil
        }
        return ControlRefusal(
            code: .permission, message: "Only root or the daemon's user may pause or resume the database's writes.")
    }

    static func mayPauseWrites(peerUID: UInt32, daemonUID: UInt32) -> Bool { peerUID == 0 || peerUID == daemonUID }

    /// The longest a restore may hold the daemon's writes: a restore of years of data takes seconds.
    static let pauseLimitMs: Int64 = 300_000

    /// True while a restore holds the writes; a pause older than `pauseLimitMs` ends here, said in the journal.
    func writesArePaused() -> Bool {
        guard writePause.isHeld else { return false }
        if writePause.hasExpired(nowRealMs: clock.realMs()) {
            logger.warning(
                "a restore held the database's writes for \(Daemon.pauseLimitMs / 60_000) minutes without resuming: "
                    + "writing again")
            resumeWrites(now: clock.monotonicMs())
            return false
        }
        return true
    }

    static let pausedRefusal = ControlRefusal(code: .paused, message: MorningFault.restoring.sentence)

    /// Ends a pause: the restored database's day and settings are read again.
    func resumeWrites(now: Int64) {
        guard writePause.resume() else { return }
        writesResumed(now: now)
    }

    /// The pause just ended: the restored database's day and settings are read again.
    func writesResumed(now: Int64) {
        logger.info("writes resumed")
        refreshDay(now: now)
        publish(now: clock.monotonicMs())
    }

    /// The local wall-clock time, "YYYY-MM-DD HH:MM:SS".
    /// Runs what fell due and shows the result: for a clock moved from outside the loop (a simulated box's jump
    /// to the next morning).
    public func catchUp() {
        runDeadlines()
        publish(now: clock.monotonicMs())
    }

    /// Stops the loop at the end of this turn, as SIGTERM does.
    public func requestStop() { stopRequested = true }

    public var clockText: String {
        let local = clock.localTime()
        let s = local.second
        return "\(local.date.iso) \(local.minuteOfDay):\(s < 10 ? "0" : "")\(s)"
    }

    /// Sends a packet of the `watch` stream to every watcher.
    func broadcast(_ event: ControlEvent) {
        guard let control, control.watcherCount > 0 else { return }
        control.broadcast(event.json)
    }

    /// The snapshot as `watch` receives it (`ControlSnapshot`, the protocol's one encoding of it).
    func controlSnapshot(_ s: SessionSnapshot) -> ControlSnapshot {
        let display = s.indication.display
        return ControlSnapshot(
            sessionMs: clock.monotonicMs(), date: routine.day.today.iso, clock: clockText, phase: s.phase.rawValue,
            title: s.title, remainingMs: s.remainingMs.map { Int64(Double($0) / clock.speed) },
            phaseProgress: s.phaseProgress, progress: s.overallProgress, bpm: s.bpm.map(Int64.init), rrOK: s.rrOK,
            degraded: s.degraded, acceptedBeats: s.acceptedBeats.map(Int64.init), acceptedSeconds: s.acceptedSeconds,
            fault: s.fault?.code, faultSentence: s.fault?.sentence, state: s.indication.name,
            lamps: Lamp.allCases.map { ($0.rawValue, display[$0].name) },
            // The whole panel as it shows now (the questionnaire's blinks too), in the words of LIGHTS.md.
            display: "\(routine.indication.display)", strap: strap.statusLine, speed: clock.speed,
            // Saved records the database has not taken yet (they wait in the spool), and why.
            waitingForDatabase: Int64(filing.waitingCount), waitingReason: filing.reason)
    }
}

extension RefusalCode {
    /// The control protocol's code for a session's decline.
    init(_ decline: MorningSession.Decline) {
        switch decline {
        case .questionnaireMissing: self = .questionnaireMissing
        case .alreadyMeasured: self = .alreadyMeasured
        case .busy: self = .busy
        case .nothingToCancel: self = .nothingToCancel
        }
    }
}
