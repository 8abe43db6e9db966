import ControlProtocol
import RecoveryCore

/// The command line's words to a running daemon about the database it shares with it.
enum DaemonNudge {
    /// Before a delete: cancels a running session whose day is being deleted (`day` nil: every day), so the
    /// session cannot save new health data right after the delete. True when a session was cancelled; false when
    /// no daemon runs or none of its sessions is for the day. A daemon that is there but does not answer, or
    /// answers out of shape, stops the delete with one sentence: a morning it is measuring could save into the
    /// deleted day.
    static func cancelSession(deleting day: LocalDate?, _ context: Context) throws(CommandError) -> Bool {
        let client: ControlClient
        do { client = try ControlClient(path: SessionFollower.socketPath(nil, context)) } catch {
            if error.notRunning { return false }
            throw .failure(unanswered(error.description))
        }
        let snapshot: ControlSnapshot
        do { snapshot = try client.ask(.status, SessionStatus.self, timeoutMs: 2000).snapshot } catch {
            throw .failure(unanswered(error.description))
        }
        let settled: [MorningSession.Phase] = [.idle, .readout, .showingFault]
        guard !settled.map(\.rawValue).contains(snapshot.phase) else { return false }
        if let day, snapshot.date != day.iso { return false }
        do { return try client.ask(.cancel, CancelOutcome.self, timeoutMs: 2000).cancelled } catch {
            throw .failure(unanswered(error.description))
        }
    }

    private static func unanswered(_ why: String) -> String {
        "Nothing was deleted: a morning recoverydeckd may be measuring could save into the deleted day, and it could "
            + "not be asked to stop (\(why.hasSuffix(".") ? String(why.dropLast()) : why)). Try again, or stop it "
            + "first with `sudo systemctl stop recoverydeckd`."
    }

    /// Tells a running daemon that the store changed, so the panel (the reminder's blink, the habit keys)
    /// follows at once instead of at the loop's next wake. Only a matter of latency: the daemon sees every commit
    /// of another process by itself (`PRAGMA data_version`) before it acts on a press, a request or a deadline.
    /// Best effort: no daemon, a socket this user may not open, or a busy daemon change nothing here.
    static func storeChanged(_ context: Context) {
        guard let client = try? ControlClient(path: SessionFollower.socketPath(nil, context)) else { return }
        _ = try? client.send(.dayChanged, timeoutMs: 1000)
    }
}
