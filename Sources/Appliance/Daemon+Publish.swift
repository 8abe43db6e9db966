import Platform
import RecoveryCore

/// What the outside sees of the routine: the panel's lamps, the watchers' snapshots, the service
/// manager's status line.
extension Daemon {
    /// Applies what changed: the lamps, the watchers' snapshot, the service manager's status line.
    func publish(now: Int64) {
        let indication = routine.indication
        if publication.show(indication) {
            panel.show(indication.display, nowMs: now)
            observer?(.display(indication.display))
        }
        guard publication.takeChanged() else { return }
        let snapshot = routine.session.snapshot(atMs: now)
        // A fault's sentence says what went wrong and what to do, never a value of the person's: it stays in the
        // journal at the default level, where the panel's other sentences (the verdict) do not.
        if let fault = publication.faultToLog(snapshot.fault) {
            logger.notice("the morning stopped (\(fault.code)): \(fault.sentence)")
        }
        observer?(.snapshot(snapshot))
        broadcast(.snapshot(controlSnapshot(snapshot)))
        serviceManager.update(status: statusText)
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
}
