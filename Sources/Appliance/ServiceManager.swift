import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's side of the service manager (sd_notify(3)): READY once, the status line when it changes after
/// that, STOPPING, and the watchdog's keep-alive at half the period systemd set. It owns the notify socket and
/// every time and flag of that conversation; the daemon hands it the status text and the real monotonic time.
/// Without `NOTIFY_SOCKET` (run by hand, in a test) it says nothing and has no deadline.
final class ServiceManager {
    private let socket: NotifySocket?
    private let logger: Logger
    /// Half the watchdog period, as sd_watchdog_enabled(3) advises; nil without a watchdog.
    let watchdogIntervalMs: Int64?
    /// When the next keep-alive is due (real monotonic ms); nil until READY, and without a watchdog.
    private(set) var nextWatchdogMs: Int64?
    /// READY=1 was sent: status lines follow from then on.
    private(set) var isReady = false
    private var lastStatus = ""

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` through `environment`.
    init(environment: (String) -> String?, logger: Logger) throws(Errno) {
        socket = try NotifySocket.fromEnvironment(environment)
        self.logger = logger
        watchdogIntervalMs = NotifySocket.watchdogMicroseconds(environment, pid: getpid()).map {
            max(1, Int64($0 / 2000))
        }
    }

    /// READY=1 with the first status line; the watchdog's keep-alives count from `nowMs`.
    func announceReady(status: String, nowMs: Int64) {
        lastStatus = status
        isReady = true
        if let interval = watchdogIntervalMs { nextWatchdogMs = nowMs + interval }
        send([.ready, .status(status)])
    }

    /// The status line, sent only when it changed and only once READY was.
    func update(status: String) {
        guard isReady, status != lastStatus else { return }
        lastStatus = status
        send([.status(status)])
    }

    /// WATCHDOG=1 when the keep-alive is due at `nowMs`, and the next one counted from then.
    func keepAliveIfDue(nowMs: Int64) {
        guard let next = nextWatchdogMs, let interval = watchdogIntervalMs, nowMs >= next else { return }
        send([.watchdog])
        nextWatchdogMs = nowMs + interval
    }

    func stopping() { send([.stopping]) }

    func close() { socket?.close() }

    private func send(_ states: [NotifyState]) {
        guard let socket else { return }
        do { try socket.send(states) } catch { logger.warning("cannot notify the service manager: \(error)") }
    }
}
