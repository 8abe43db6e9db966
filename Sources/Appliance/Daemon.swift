import CSQLite
import Panel
import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Something the daemon did that a watcher (the demo's terminal, a test) may want to see.
public enum DaemonEvent: Sendable {
    case input(PanelInput)
    case display(PanelDisplay)
    case sound(Sound)
    case said(String)
    case snapshot(SessionSnapshot)
    case saved(MorningMeasurement, PanelReadout)
}

/// Why the daemon could not start: a configuration problem (exit 78, EX_CONFIG) or a resource it
/// could not open (exit 1).
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public var exitCode: Int32
    public var description: String

    public static func configuration(_ text: String) -> DaemonError { DaemonError(exitCode: 78, description: text) }
    public static func startup(_ text: String) -> DaemonError { DaemonError(exitCode: 1, description: text) }
}

/// `recoverydeckd`: one thread around one epoll loop (DESIGN §4). It watches the strap's, the panel's and
/// the control socket's descriptors, a signalfd, and a timerfd armed to the earliest deadline anything
/// has; nothing polls. The morning itself is the pure `MorningRoutine`; this class only moves events in
/// and performs the actions that come out (the strap, the panel, the store, the control socket).
public final class Daemon {
    public struct Options {
        /// Reads an environment variable (`NOTIFY_SOCKET`, `WATCHDOG_USEC`, `WATCHDOG_PID`).
        public var environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }
        public var logger = Logger()
        /// Open the control socket (the in-process demo runs without one).
        public var controlSocket = true
        /// Take SIGTERM, SIGINT and SIGHUP through a signalfd.
        public var handleSignals = true
        /// The virtual strap's person: day 0 (the demo seeds the history of the same person).
        public var virtualFirstDate: LocalDate?

        public init() {}
    }

    /// The soft limit on SQLite's heap (page cache and statements): a morning's reads fit many times.
    public static let sqliteHeapLimitBytes: Int64 = 512 << 10

    public let configuration: DaemonConfiguration
    public let clock: DeckClock
    public let store: Store
    public let panel: PanelDevice
    public private(set) var routine: MorningRoutine
    public var observer: ((DaemonEvent) -> Void)?
    /// Set once SIGTERM or SIGINT arrived, or the loop failed; `run` then returns.
    public private(set) var stopRequested = false
    /// Why the event loop stopped working, if it did.
    public private(set) var loopFailure: Errno?

    let logger: Logger
    let strap: any StrapSource
    let control: ControlServer?
    let loop: EventLoop
    let timer: TimerFD
    let signals: SignalFD?
    let notify: NotifySocket?
    var watchdogIntervalRealMs: Int64?
    var nextWatchdogRealMs: Int64?
    var queue: [MorningRoutine.Event] = []
    var draining = false
    var lastIndication: Indication?
    var lastStatus = ""
    var changed = false
    var watched: Set<FileDescriptor> = []
    var strapGeneration = 0
    /// The reminder's next look, as last armed.
    var reminderDueMs: Int64?
    /// READY=1 was sent; STATUS follows changes from then on.
    var ready = false
    var isShutDown = false

    public init(configuration: DaemonConfiguration, options: Options = Options()) throws(DaemonError) {
        self.configuration = configuration
        var logger = options.logger
        logger.minimumLevel = Daemon.level(configuration.logLevel)
        self.logger = logger
        var startEpoch: Int64?
        if configuration.clock == .simulated {
            let start = configuration.clockStart ?? (LocalTime.now().date, LocalTime.now().minuteOfDay)
            startEpoch = LocalTime.epochSeconds(of: start.date, at: start.minute)
        }
        clock = DeckClock(speed: configuration.speed, simulatedStartEpoch: startEpoch)

        // SQLite's page cache would otherwise grow with the database up to its 2 MB default: a box that
        // runs for years keeps its memory flat by letting SQLite recycle pages beyond this.
        sqlite3_soft_heap_limit64(Daemon.sqliteHeapLimitBytes)
        // The store first: nothing else is worth starting without it.
        Daemon.makeParentDirectory(of: configuration.database)
        do { store = try Store(path: configuration.database) } catch {
            throw .startup("Cannot open the database \(configuration.database): \(error).")
        }
        let today = clock.localTime().date
        let settings: MorningSettings
        let firedOn: LocalDate?
        let day: DayContext
        do {
            settings = try Daemon.morningSettings(configuration, store)
            firedOn = try store.setting(.reminderShownOn).flatMap { LocalDate(iso: $0) }
            day = try Daemon.dayContext(store, today)
        } catch {
            throw .startup("Cannot read the database \(configuration.database): \(error).")
        }
        if let warning = settings.warning { logger.warning(warning) }
        routine = MorningRoutine(
            configuration: .init(timings: .standard, habits: settings.habits, reminder: settings.reminder), day: day,
            reminderFiredOn: firedOn)

        do {
            switch configuration.panel {
            case .gpio:
                let chip = try LibgpiodChip(labels: configuration.pins.chipLabels)
                panel = try PanelDevice(gpio: chip, pins: configuration.pins, buzzerEnabled: configuration.buzzer)
            case .simulated:
                panel = try PanelDevice(simulatedWith: configuration.pins, buzzerEnabled: configuration.buzzer)
            }
        } catch {
            throw .startup("The panel could not be opened: \(error)")
        }

        switch configuration.strap {
        case .simulated:
            var strapOptions = VirtualStrap.Options()
            strapOptions.seed = configuration.simulatedSeed
            if let first = options.virtualFirstDate { strapOptions.firstDate = first }
            strapOptions.heartRateOnly = configuration.simulatedHROnly
            strapOptions.artifactProbability = configuration.simulatedArtifacts
            strapOptions.connectMs = Int64(configuration.simulatedConnectSeconds * 1000)
            if let dropout = configuration.simulatedDropout {
                strapOptions.dropoutAtMs = Int64(dropout.atSeconds * 1000)
                strapOptions.dropoutForMs = Int64(dropout.forSeconds * 1000)
            }
            let clock = self.clock
            strap = VirtualStrap(options: strapOptions, today: { clock.localTime().date })
        case .bluetooth:
            // Its refusal keeps its own exit status: a bad `adapter` is a configuration error (78).
            strap = try BluetoothStrap(configuration: configuration, store: store, logger: logger)
        }

        do {
            control =
                options.controlSocket
                ? try ControlServer(path: configuration.controlSocket, groupName: configuration.controlGroup) : nil
        } catch {
            throw .startup("Cannot listen on the control socket \(configuration.controlSocket): \(error).")
        }
        do {
            loop = try EventLoop()
            timer = try TimerFD()
            signals = options.handleSignals ? try SignalFD() : nil
            notify = try NotifySocket.fromEnvironment(options.environment)
        } catch {
            throw .startup("Cannot set up the event loop: \(error).")
        }
        if let usec = NotifySocket.watchdogMicroseconds(options.environment, pid: getpid()) {
            // sd_watchdog_enabled(3): ping at half the period.
            watchdogIntervalRealMs = max(1, Int64(usec / 2000))
        }
        do {
            for fd in [timer.descriptor] + (signals.map { [$0.descriptor] } ?? []) + panel.descriptors
                + (control?.descriptors ?? [])
            {
                try loop.register(fd)
                watched.insert(fd)
            }
        } catch {
            throw .startup("Cannot watch the daemon's descriptors: \(error).")
        }
        do {
            if let script = try configuration.loadPanelScript() {
                _ = panel.schedule(script, startMs: clock.monotonicMs())
            }
        } catch {
            throw .configuration(error.reason)
        }
    }

    deinit {
        loop.close()
        timer.close()
        signals?.close()
        notify?.close()
    }

    // MARK: Running

    /// Tells the service manager the daemon is ready and shows the panel's first state.
    public func start() {
        let now = clock.monotonicMs()
        process(.tick, now: now)
        syncStrapDescriptors()
        publish(now: now)
        if let interval = watchdogIntervalRealMs { nextWatchdogRealMs = SystemClock.monotonicMs() + interval }
        lastStatus = statusText
        ready = true
        tellServiceManager([.ready, .status(lastStatus)])
        logger.notice(
            "ready",
            [
                "panel": configuration.panel.rawValue, "strap": configuration.strap.rawValue,
                "db": configuration.database,
            ])
        if configuration.strap == .bluetooth && configuration.speed != 1 {
            logger.warning(
                "speed \(configuration.speed) with a Bluetooth strap: right only for a strap simulator running as "
                    + "fast; a real strap's heart does not speed up")
        }
    }

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
        if let watchdog = nextWatchdogRealMs { realDeadline = min(realDeadline ?? watchdog, watchdog) }
        try timer.arm(atMonotonicMs: realDeadline)
        let ready = try loop.wait(timeoutMs: nil)
        let timerFired = ready.contains { $0.descriptor == timer.descriptor }
        if clock.isSimulated && ready.count > (timerFired ? 1 : 0) {
            // What is ready is handled at the present instant, before a simulated clock moves on (a key
            // pressed must be seen down before the moment it is released).
            for item in ready where item.descriptor != timer.descriptor { dispatch(item.descriptor) }
        } else {
            // A simulated clock jumps to the deadline it waited for.
            if let deadline, timerFired { clock.reached(deadline) }
            for item in ready { dispatch(item.descriptor) }
        }
        runDeadlines()
        syncStrapDescriptors()
        publish(now: clock.monotonicMs())
    }

    /// The earliest deadline on the daemon's clock.
    func nextDeadlineMs(now: Int64) -> Int64? {
        reminderDueMs = reminderDeadlineMs()
        return EventLoop.earliest([routine.nextDeadlineMs, strap.nextDeadlineMs, panel.nextDeadlineMs, reminderDueMs])
    }

    /// When the reminder next needs a look: its window opening or closing. Capped at an hour so a wall
    /// clock set while the box sleeps (a Pi without a real-time clock) is noticed within the hour.
    func reminderDeadlineMs() -> Int64? {
        let local = clock.localTime()
        guard let next = routine.reminder.nextCheck(date: local.date, minute: local.minuteOfDay) else { return nil }
        let epoch = LocalTime.epochSeconds(of: next.date, at: next.minute)
        let hour = Int64(3_600_000 * (clock.isSimulated ? 1 : clock.speed))
        return min(clock.monotonicMs(atEpoch: epoch), clock.monotonicMs() + hour)
    }

    func dispatch(_ fd: FileDescriptor) {
        let now = clock.monotonicMs()
        if fd == timer.descriptor {
            _ = try? timer.acknowledge()
            return
        }
        if let signals, fd == signals.descriptor {
            for info in (try? signals.readPending()) ?? [] { signal(info) }
            return
        }
        if panel.descriptors.contains(fd) {
            for input in panel.onReadable(fd, nowMs: now) { panelInput(input, now: now) }
            return
        }
        if strap.descriptors.contains(fd) {
            strapEvents(strap.onReadable(fd, nowMs: now), now: now)
            return
        }
        if let control { controlReadable(control, fd) }
    }

    func runDeadlines() {
        // Several may fall due together; each handler moves its own deadline on.
        for _ in 0..<64 {
            let now = clock.monotonicMs()
            var did = false
            if let due = strap.nextDeadlineMs, due <= now {
                strapEvents(strap.onDeadline(nowMs: now), now: now)
                did = true
            }
            if let due = panel.nextDeadlineMs, due <= now {
                for input in panel.onDeadline(nowMs: now) { panelInput(input, now: now) }
                did = true
            }
            if let due = routine.nextDeadlineMs, due <= now {
                process(.tick, now: now)
                did = true
            }
            if let due = reminderDueMs, due <= now {
                // The window opened or closed (or an hour passed): look again, and aim at the next change.
                process(.tick, now: now)
                reminderDueMs = reminderDeadlineMs()
                did = true
            }
            if !did { break }
        }
        for fault in panel.takeFaults() { logger.warning("panel: \(fault)") }
        if let next = nextWatchdogRealMs, let interval = watchdogIntervalRealMs {
            let real = SystemClock.monotonicMs()
            if real >= next {
                tellServiceManager([.watchdog])
                nextWatchdogRealMs = real + interval
            }
        }
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

    /// Leaves the box as it was: a running session is abandoned (nothing of it is written; a finished
    /// morning was written whole, in one transaction, before this can run), the strap released, the
    /// panel dark, the socket closed. Only the first call does anything: a descriptor closed twice could
    /// close whatever reused its number.
    public func shutDown() {
        guard !isShutDown else { return }
        isShutDown = true
        tellServiceManager([.stopping])
        if routine.session.isMeasuring {
            logger.notice(
                "a session in \(routine.session.phase.rawValue) was abandoned at shutdown: nothing of it is saved")
        }
        _ = strap.disconnect()
        strap.close()
        panel.darken(nowMs: clock.monotonicMs())
        panel.close()
        control?.close()
    }

    // MARK: Events into the routine

    func panelInput(_ input: PanelInput, now: Int64) {
        observer?(.input(input))
        switch input {
        case .go(let press):
            // A check-in over SSH may have opened the gate since the day was read.
            refreshDay(now: now)
            process(.go(press), now: now)
        case .key(let key):
            process(.key(key), now: now)
        }
    }

    func strapEvents(_ events: [StrapEvent], now: Int64) {
        for event in events {
            switch event {
            case .connected(let address, let battery):
                logger.info("strap connected", ["ble.address": address ?? "?"])
                process(.strapConnected(address: address, batteryPercent: battery), now: now)
            case .disconnected(let reason):
                logger.info("strap disconnected: \(reason)")
                process(.strapDisconnected, now: now)
            case .failed(let fault, let reason):
                logger.warning("strap failed: \(reason)")
                process(.strapFailed(fault), now: now)
            case .sample(let bpm, let rr):
                process(.heartRate(bpm: bpm, rr: rr), now: now)
            }
        }
    }

    /// Hands `event` to the routine and performs what comes out, including the follow-up events the
    /// actions produce (a save's answer, a day's facts). Returns the actions of `event` itself.
    @discardableResult
    func process(_ event: MorningRoutine.Event, now: Int64) -> [MorningRoutine.Action] {
        queue.append(event)
        guard !draining else { return [] }
        draining = true
        defer { draining = false }
        var first: [MorningRoutine.Action]?
        while !queue.isEmpty {
            let next = queue.removeFirst()
            let actions = routine.handle(next, at: routineNow(now))
            if first == nil { first = actions }
            changed = true
            for action in actions { perform(action, now: now) }
        }
        return first ?? []
    }

    func routineNow(_ now: Int64) -> MorningRoutine.Now {
        let epoch = clock.epochSeconds()
        let local = LocalTime(epochSeconds: epoch)
        return MorningRoutine.Now(
            monotonicMs: now, epochSeconds: epoch, localDate: local.date, localMinute: local.minuteOfDay)
    }

    func perform(_ action: MorningRoutine.Action, now: Int64) {
        switch action {
        case .connectStrap:
            strapEvents(strap.connect(nowMs: now), now: now)
        case .disconnectStrap:
            strapEvents(strap.disconnect(), now: now)
        case .sound(let sound):
            panel.play(sound, nowMs: now)
            if sound == .standNow { strap.personStands(atMs: now) }
            observer?(.sound(sound))
            control?.broadcast(.object([("event", .string("sound")), ("name", .string(sound.pattern.name))]))
        case .saveMorning(let morning, _):
            do {
                try store.saveMorning(morning, recordedAt: clock.epochSeconds())
                let readout = try readout(for: morning.date)
                logger.notice(
                    "morning saved",
                    [
                        "day": morning.date.iso, "quality": "\(morning.quality)",
                        "orthostatic": morning.orthostaticStatus.rawValue,
                    ])
                observer?(.saved(morning, readout))
                queue.append(.morningSaved(readout))
            } catch {
                logger.error("the morning could not be saved: \(error)")
                queue.append(.morningSaveFailed("\(error)"))
            }
        case .saveQuestionnaire(let questionnaire):
            do {
                try store.saveQuestionnaire(questionnaire, recordedAt: clock.epochSeconds())
                logger.notice("questionnaire saved from the keypad", ["day": questionnaire.date.iso])
                queue.append(.questionnaireSaved(questionnaire))
            } catch {
                logger.error("the questionnaire could not be saved: \(error)")
                queue.append(.questionnaireSaveFailed("\(error)"))
            }
        case .record(let record):
            let event = AnalyticsEvent(
                at: clock.epochSeconds(), day: routine.day.today, kind: AnalyticsKind(rawValue: record.name),
                value: record.value.map { Int64($0.rounded()) }, payload: record.detail)
            do { try store.appendEvent(event) } catch { logger.warning("analytics event not written: \(error)") }
        case .rememberReminder(let date):
            do { try store.setSetting(.reminderShownOn, date.iso) } catch {
                logger.warning("the reminder's day was not kept: \(error)")
            }
            logger.info("morning reminder shown", ["day": date.iso])
        case .loadDay(let date):
            do { queue.append(.day(try Daemon.dayContext(store, date))) } catch {
                logger.warning("cannot read \(date.iso) from the database: \(error)")
            }
            if let changed = changedSettings() { queue.append(changed) }
        case .say(let sentence):
            logger.notice(sentence)
            observer?(.said(sentence))
            control?.broadcast(.object([("event", .string("say")), ("text", .string(sentence))]))
        case .declined(let decline):
            logger.info("request declined: \(decline.sentence)")
        }
    }

    /// Reloads today's facts and the settings from the store (a check-in, a delete or `settings` over SSH
    /// changes them).
    func refreshDay(now: Int64) {
        if let changed = changedSettings() { process(changed, now: now) }
        let today = clock.localTime().date
        guard let context = try? Daemon.dayContext(store, today), context != routine.day else { return }
        process(.day(context), now: now)
    }

    /// The habit list and reminder as the store now says, when they differ from the routine's.
    func changedSettings() -> MorningRoutine.Event? {
        let settings: MorningSettings
        do { settings = try Daemon.morningSettings(configuration, store) } catch {
            logger.warning("cannot read the settings from the database: \(error)")
            return nil
        }
        let current = routine.configuration
        guard settings.habits != current.habits || settings.reminder != current.reminder else { return nil }
        if let warning = settings.warning { logger.warning(warning) }
        logger.info(
            "settings changed",
            ["habits": settings.habits.joined(separator: ","),
             "reminder": settings.reminder.enabled ? settings.reminder.start.description : "off"])
        return .settings(habits: settings.habits, reminder: settings.reminder)
    }

    /// The habit keys and the reminder: the configuration file's keys where set, else the store's settings
    /// (`recoverydeck settings`), else the defaults. A stored reminder that can never show (at or after
    /// `reminder_window_end`) or cannot be read leaves the reminder off or at 06:30, with a warning that
    /// says why; it never stops the daemon.
    struct MorningSettings {
        var habits: [String]
        var reminder: MorningReminder.Schedule
        var warning: String?
    }

    static func morningSettings(_ configuration: DaemonConfiguration, _ store: Store) throws(StoreError)
        -> MorningSettings
    {
        let end = configuration.reminderWindowEnd
        var schedule = MorningReminder.Schedule(
            enabled: configuration.reminderEnabled, end: end, buzzer: configuration.reminderBuzzer)
        var warning: String?
        if let start = configuration.reminderTime {
            schedule.start = start
        } else if let stored = try store.setting(.reminderTime) {
            if stored == ReminderSetting.off {
                schedule.enabled = false
            } else if let start = MinuteOfDay(hhmm: stored), start < end {
                schedule.start = start
            } else if let start = MinuteOfDay(hhmm: stored) {
                schedule.enabled = false
                warning =
                    "The reminder time \(start) from `recoverydeck settings` is not before reminder_window_end \(end), "
                    + "so the reminder stays off."
            } else {
                warning = "The stored reminder time \"\(stored)\" is not HH:MM or off, so the reminder starts at 06:30."
            }
        }
        let habits: [String]
        if let configured = configuration.habits { habits = configured } else { habits = try store.habitList() }
        return MorningSettings(habits: habits, reminder: schedule, warning: warning)
    }

    func readout(for date: LocalDate) throws(StoreError) -> PanelReadout {
        let days = try store.days(from: date.adding(days: -(Baselines.normDays + 1)), through: date)
        return PanelReadout(Baselines.readout(days: days, today: date))
    }

    static func dayContext(_ store: Store, _ date: LocalDate) throws(StoreError) -> DayContext {
        DayContext(
            today: date, questionnaire: try store.questionnaire(on: date),
            measured: try store.measurement(on: date) != nil)
    }

    // MARK: Showing

    /// Applies what changed: the lamps, the watchers' snapshot, the service manager's status line.
    func publish(now: Int64) {
        let indication = routine.indication
        if indication != lastIndication {
            lastIndication = indication
            panel.show(indication.display, nowMs: now)
            observer?(.display(indication.display))
            changed = true
        }
        guard changed else { return }
        changed = false
        let snapshot = routine.session.snapshot(atMs: now)
        observer?(.snapshot(snapshot))
        if let control, control.watcherCount > 0 { control.broadcast(snapshotJSON(snapshot)) }
        let status = statusText
        if ready && status != lastStatus {
            lastStatus = status
            tellServiceManager([.status(status)])
        }
    }

    var statusText: String {
        let session = routine.session
        if session.phase != .idle { return session.title }
        if routine.entry != nil { return "Questionnaire on the keypad" }
        return routine.reminder.isShowing ? "Idle: morning reminder showing" : "Idle"
    }

    func tellServiceManager(_ states: [NotifyState]) {
        guard let notify else { return }
        do { try notify.send(states) } catch { logger.warning("cannot notify the service manager: \(error)") }
    }

    static func level(_ name: DaemonConfiguration.LogLevelName) -> LogLevel {
        switch name {
        case .error: .error
        case .warning: .warning
        case .notice: .notice
        case .info: .info
        case .debug: .debug
        }
    }

    static func makeParentDirectory(of path: String) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        if access(directory, F_OK) != 0 { _ = mkdir(directory, 0o750) }
    }

    static func readFile(_ path: String) throws(DaemonError) -> String {
        guard let file = fopen(path, "r") else {
            throw .configuration("cannot read \(path): \(String(cString: strerror(errno))).")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension SettingKey {
    /// The last local day the morning reminder started (spec §10: once a day, across restarts).
    static let reminderShownOn = SettingKey(rawValue: "reminder_shown_on")
}
