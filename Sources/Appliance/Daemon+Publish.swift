import Platform
import RecoveryCore

/// What the outside sees of the routine: the panel's lamps, the watchers' snapshots, the service
/// manager's status line.
extension Daemon {
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
        if snapshot.fault != loggedFault {
            loggedFault = snapshot.fault
            // A fault's sentence says what went wrong and what to do, never a value of the person's: it stays
            // in the journal at the default level, where the panel's other sentences (the verdict) do not.
            if let fault = snapshot.fault { logger.notice("the morning stopped (\(fault.code)): \(fault.sentence)") }
        }
        observer?(.snapshot(snapshot))
        if let control, control.watcherCount > 0 { control.broadcast(snapshotJSON(snapshot)) }
        let status = statusText
        if ready && status != lastStatus {
            lastStatus = status
            tellServiceManager([.status(status)])
        }
    }

    var statusText: String {
        let activity = activityText
        guard filing.reason != nil else { return activity }
        return activity + "; saved, waiting for the database"
    }

    private var activityText: String {
        let session = routine.session
        if session.phase != .idle { return session.title }
        if routine.entry != nil { return "Questionnaire on the keypad" }
        return routine.reminder.isShowing ? "Idle: morning reminder showing" : "Idle"
    }

    func tellServiceManager(_ states: [NotifyState]) {
        guard let notify else { return }
        do { try notify.send(states) } catch { logger.warning("cannot notify the service manager: \(error)") }
    }
}
