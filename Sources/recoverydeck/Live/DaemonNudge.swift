import ControlProtocol
import RecoveryCore

/// Tells a running daemon that the store changed under it (a check-in, a delete, the settings), so the
/// reminder, the habit keys and today's gate follow at once rather than at the next press or day.
/// Best effort: no daemon, a socket the user may not open, or a busy daemon change nothing here — the
/// daemon reads the store again on the next GO press, `measure` request and local day anyway.
enum DaemonNudge {
    /// Before a delete: cancels a running session whose day is being deleted (`day` nil: every day), so the
    /// session cannot save new health data right after the delete. True when a session was cancelled.
    static func cancelSession(deleting day: LocalDate?, _ context: Context) -> Bool {
        guard let client = try? ControlClient(path: SessionFollower.socketPath(nil, context)),
            let snapshot = try? client.ask(.status, SessionStatus.self, timeoutMs: 2000).snapshot, ![
                MorningSession.Phase.idle, .readout, .showingFault,
            ].map(\.rawValue).contains(snapshot.phase)
        else { return false }
        if let day, snapshot.date != day.iso { return false }
        let outcome = try? client.ask(.cancel, CancelOutcome.self, timeoutMs: 2000)
        return outcome?.cancelled == true
    }

    static func storeChanged(_ context: Context) {
        guard let client = try? ControlClient(path: SessionFollower.socketPath(nil, context)) else { return }
        _ = try? client.send(.dayChanged, timeoutMs: 1000)
    }
}
