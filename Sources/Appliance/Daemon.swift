import BlueZ
import BoxConfiguration
import ControlProtocol
import LocalClock
import Panel
import Platform
import RecoveryCore
import JSON
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
///
/// This file holds the type and its start-up wiring of owned components, each keeping its own state:
/// `Registration` (what the loop watches, one descriptor an edge), `Filing` (the spool and what waits for the
/// database), `ControlServer` and `WritePause`, the strap and `StrapDiscovery`, `ServiceManager` (READY,
/// status, watchdog), `ReminderTimer` and `Publication` (what was last shown). The verbs live beside it:
/// `Daemon+Loop` (the epoll loop and the dispatch of ready descriptors), `Daemon+Actions` (events into the
/// routine, its actions performed), `Daemon+Settings` (the reminder and habit settings policy),
/// `Daemon+Publish` (lamps, snapshots, status line), `Daemon+Control` (the control socket's requests),
/// `Daemon+Filing` (saves handed to its `Filing`) and `Daemon+Files` (libc file helpers).
public final class Daemon {
    public struct Options {
        /// Reads an environment variable (`NOTIFY_SOCKET`, `WATCHDOG_USEC`, `WATCHDOG_PID`).
        public var environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }
        public var logger = Logger()
        /// Open the control socket (a test driving the daemon in-process may run without one).
        public var controlSocket = true
        /// Take SIGTERM, SIGINT and SIGHUP through a signalfd.
        public var handleSignals = true
        /// The clock the daemon runs on: the kernel's on a box; a simulated box hands in its own.
        public var clock: any DaemonClock = KernelClock()
        /// The strap to use instead of the one the configuration names: `strap = simulated` needs one (a
        /// simulated box's virtual strap); tests hand in their own.
        public var strap: (any StrapSource)?
        /// Opens the panel on the configuration's pin map instead of the GPIO chip: `panel = simulated` needs it
        /// (a simulated box's panel).
        public var openPanel: ((PinMap) throws(PanelError) -> any PanelSource)?
        /// Opens the Bluetooth management socket (tests hand in a stand-in for the kernel's).
        public var openManagement: () throws(BlueZError) -> ManagementSocket = { () throws(BlueZError) in
            try ManagementSocket()
        }

        /// Requests beyond the control protocol's, answered by whoever built the daemon (a simulated box's
        /// presses and clock moves); the box itself has none.
        public var extraRequests: ExtraRequests?

        public init() {}
    }

    /// Control requests that a daemon built for something other than a box answers, by name: `answer` gets the
    /// request and returns the reply.
    public struct ExtraRequests {
        public var names: Set<String>
        public var answer: (JSONValue) -> JSONValue

        public init(names: Set<String>, answer: @escaping (JSONValue) -> JSONValue) {
            self.names = names
            self.answer = answer
        }
    }

    /// The soft limit on SQLite's heap (page cache and statements): a morning's reads fit many times.
    public static let sqliteHeapLimitBytes: Int64 = 512 << 10
    /// How long the daemon's statements wait for another process's write lock: short, because the one loop
    /// answers the panel and the control socket meanwhile; what the database refuses waits in the spool.
    public static let storeBusyTimeoutMs: Int32 = 100

    public let configuration: DaemonConfiguration
    public let clock: any DaemonClock
    public let store: Store
    /// Finished mornings and keypad questionnaires on their way into the database (the spool, the back-off).
    let filing: Filing
    public let panel: PanelDevice
    public internal(set) var routine: MorningRoutine
    public var observer: ((DaemonEvent) -> Void)?
    /// Set once SIGTERM or SIGINT arrived, or the loop failed; `run` then returns.
    public internal(set) var stopRequested = false
    /// Why the event loop stopped working, if it did.
    public internal(set) var loopFailure: Errno?

    let logger: Logger
    let strap: any StrapSource
    let control: ControlServer?
    /// Scans asked for over the control socket (a Bluetooth strap only).
    let discovery: StrapDiscovery?
    /// The epoll loop and the one descriptor each edge is registered by.
    let registration: Registration
    let timer: TimerFD
    /// The reminder's next look: a wall-clock timer on the system clock, a deadline on a simulated one.
    let reminderTimer: ReminderTimer
    let signals: SignalFD?
    /// READY, STATUS, STOPPING and the watchdog's keep-alives.
    let serviceManager: ServiceManager
    /// Events waiting for the routine while an earlier one's actions are performed (`Daemon+Actions` alone).
    var queue: [MorningRoutine.Event] = []
    var draining = false
    /// What the watchers, the lamps and the journal were last shown (`Daemon+Publish` reads it).
    var publication = Publication()
    /// A restore's pause of the daemon's writes (`ControlRequest.pauseWrites`), while a client holds it.
    var writePause = WritePause(limitMs: Daemon.pauseLimitMs)
    /// The database as the loop last saw it (`followStore`), and the last reason it could not look (said once).
    var storeStamp: Store.ChangeStamp?
    var storeStampProblem: String?
    /// How many times the day and the settings were read from the database (`refreshDay`).
    var dayReads = 0
    /// Requests beyond the control protocol's (`Options.extraRequests`).
    let extraRequests: ExtraRequests?
    private var isShutDown = false

    /// Why the daemon cannot run `configuration` with `options`, nil when it can: the simulated panel or strap
    /// named where nothing hands one in. A box has neither; they run on a simulated box only.
    public static func refusal(of configuration: DaemonConfiguration, _ options: Options) -> DaemonError? {
        if configuration.panel == .simulated && options.openPanel == nil {
            return .configuration(
                "panel = simulated: the simulated panel runs only on a simulated box (recoverydeck demo, recoverydeckd-sim).")
        }
        if configuration.strap == .simulated && options.strap == nil {
            return .configuration(
                "strap = simulated: the virtual strap runs only on a simulated box (recoverydeck demo, recoverydeckd-sim).")
        }
        return nil
    }

    public init(configuration: DaemonConfiguration, options: Options = Options()) throws(DaemonError) {
        // Refused before anything is opened or written.
        if let refusal = Daemon.refusal(of: configuration, options) { throw refusal }
        self.configuration = configuration
        var logger = options.logger
        logger.minimumLevel = configuration.logLevel
        self.logger = logger
        clock = options.clock

        // SQLite's page cache would otherwise grow with the database up to its 2 MB default: a box that
        // runs for years keeps its memory flat by letting SQLite recycle pages beyond this.
        Store.limitHeap(toBytes: Daemon.sqliteHeapLimitBytes)
        // The store first: nothing else is worth starting without it.
        Daemon.makeParentDirectory(of: configuration.database)
        do { store = try Store(path: configuration.database, busyTimeoutMs: Daemon.storeBusyTimeoutMs) } catch {
            throw .startup(Daemon.unsoundDatabaseSentence(configuration.database, "\(error)"))
        }
        store.onSkippedRow = { [logger] sentence in logger.warning("a row of the database was left out: \(sentence)") }
        // A malformed file is refused before anything is written into it (mornings would vanish into it).
        do {
            let findings = try store.quickCheck()
            if !findings.isEmpty {
                throw StoreError(resultCode: 11, message: "quick_check: " + findings.joined(separator: "; "))
            }
        } catch {
            throw .startup(Daemon.unsoundDatabaseSentence(configuration.database, "\(error)"))
        }
        filing = Filing(
            store: store, spoolDirectory: MorningSpool.directory(forDatabase: configuration.database), logger: logger)
        let today = clock.localTime().date
        let settings: MorningSettings
        let firedOn: LocalDate?
        let day: DayContext
        do {
            settings = try Daemon.morningSettings(configuration, store)
            firedOn = try store.settings().reminderShownOn
            day = filing.day(try Daemon.dayContext(store, today))
        } catch {
            throw .startup("Cannot read the database \(configuration.database): \(error).")
        }
        if let warning = settings.warning { logger.warning(warning) }
        // Stored mornings judged by another rule or detector version are re-judged from their raw RR, once per
        // version (docs/artifacts.md, "How each morning was judged"); a failure leaves them as they were.
        do {
            if let job = try store.rejudge(rule: settings.artifactRule, at: clock.epochSeconds()) {
                logger.info(
                    "stored mornings re-judged",
                    ["rule": job.rule.rawValue, "version": "\(job.version)", "mornings": "\(job.mornings)",
                     "moved": "\(job.moved)"])
            }
        } catch {
            logger.warning("cannot re-judge the stored mornings: \(error)")
        }
        var routineConfiguration = MorningRoutine.Configuration(
            timings: .standard, habits: settings.habits, reminder: settings.reminder)
        routineConfiguration.artifactRule = settings.artifactRule
        routine = MorningRoutine(configuration: routineConfiguration, day: day, reminderFiredOn: firedOn)

        do {
            let source: any PanelSource
            if let openPanel = options.openPanel {
                source = try openPanel(configuration.pins)
            } else {
                let chip = try LibgpiodChip(labels: configuration.pins.chipLabels)
                logger.info(
                    "gpio chip \(chip.label) at \(chip.path), \(chip.lineCount) lines",
                    ["library": LibgpiodChip.libraryDescription])
                source = try Panel(chip: chip, pins: configuration.pins)
            }
            panel = PanelDevice(source, buzzerEnabled: configuration.buzzer)
        } catch {
            throw .startup("The panel could not be opened: \(error)")
        }
        let panelClock = self.clock
        panel.panel.writeClock = { panelClock.monotonicMs() }

        if let given = options.strap {
            strap = given
        } else {
            // `refusal` left the Bluetooth strap. Its refusal keeps its own exit status: a bad `adapter` is a
            // configuration error (78).
            strap = try BluetoothStrap(
                configuration: configuration, logger: logger, nowMs: clock.monotonicMs(),
                openManagement: options.openManagement)
        }
        if configuration.strap == .bluetooth {
            do {
                discovery = try StrapDiscovery(configuredAdapter: configuration.adapter, open: options.openManagement)
            } catch {
                throw .startup("Cannot set up the event loop: \(error).")
            }
        } else {
            discovery = nil
        }

        do {
            control =
                options.controlSocket
                ? try ControlServer(path: configuration.controlSocket, groupName: configuration.controlGroup) : nil
        } catch {
            throw .startup("Cannot listen on the control socket \(configuration.controlSocket): \(error).")
        }
        for warning in control?.takeWarnings() ?? [] { logger.warning("control socket: \(warning)") }
        do {
            registration = try Registration()
            timer = try TimerFD()
            reminderTimer = try ReminderTimer(clock: clock, logger: logger)
            signals = options.handleSignals ? try SignalFD() : nil
            serviceManager = try ServiceManager(environment: options.environment, logger: logger)
        } catch {
            throw .startup("Cannot set up the event loop: \(error).")
        }
        do {
            // Once, for the daemon's life: an edge whose descriptors change keeps them in its own set.
            try registration.register(timer.descriptor, as: .timer)
            if let wallTimer = reminderTimer.wallTimer { try registration.register(wallTimer.descriptor, as: .wallTimer) }
            if let signals { try registration.register(signals.descriptor, as: .signals) }
            for fd in panel.descriptors { try registration.register(fd, as: .panel) }
            if let set = strap.readiness { try registration.register(set, as: .strap) }
            if let control { try registration.register(control.readiness, as: .control) }
            if let discovery { try registration.register(discovery.readiness, as: .discovery) }
        } catch {
            throw .startup("Cannot watch the daemon's descriptors: \(error).")
        }
        extraRequests = options.extraRequests
        control?.extraNames = options.extraRequests?.names ?? []
    }

    deinit {
        registration.close()
        timer.close()
        reminderTimer.close()
        signals?.close()
        serviceManager.close()
    }

    // MARK: Starting and stopping

    /// Tells the service manager the daemon is ready and shows the panel's first state.
    public func start() {
        storeStamp = try? store.changeStamp()
        filing.fileEarlierRun(nowRealMs: clock.realMs())
        let now = clock.monotonicMs()
        process(.session(.tick), now: now)
        publish(now: now)
        serviceManager.announceReady(status: statusText, nowMs: clock.realMs())
        logger.notice(
            "ready",
            [
                "panel": configuration.panel.rawValue, "strap": configuration.strap.rawValue,
                "db": configuration.database,
            ])
    }

    /// Leaves the box as it was: a running session is abandoned (nothing of it is written; a finished
    /// morning was written whole, in one transaction, before this can run), the strap released, the
    /// panel dark, the socket closed. Only the first call does anything: a descriptor closed twice could
    /// close whatever reused its number.
    public func shutDown() {
        guard !isShutDown else { return }
        isShutDown = true
        serviceManager.stopping()
        if routine.session.isMeasuring {
            logger.notice(
                "a session in \(routine.session.phase.rawValue) was abandoned at shutdown: nothing of it is saved")
        }
        filing.end()
        discovery?.end()
        _ = strap.disconnect()
        strap.close()
        panel.darken(nowMs: clock.monotonicMs())
        for fault in panel.takeFaults() { logger.warning("panel: \(fault)") }
        panel.close()
        control?.close()
    }

    static func unsoundDatabaseSentence(_ path: String, _ detail: String) -> String {
        "The database \(path) cannot be used (\(detail)); nothing was written to it. Move it aside "
            + "(mv \(path) \(path).damaged) and restore a backup, or start afresh; mornings waiting in "
            + "\(MorningSpool.directory(forDatabase: path)) are filed once a sound database is in place."
    }
}
