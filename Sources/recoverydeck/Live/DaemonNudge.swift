import Appliance

/// Tells a running daemon that the store changed under it (a check-in, a delete, the settings), so the
/// reminder, the habit keys and today's gate follow at once rather than at the next press or day.
/// Best effort: no daemon, a socket the user may not open, or a busy daemon change nothing here — the
/// daemon reads the store again on the next GO press, `measure` request and local day anyway.
enum DaemonNudge {
    static func storeChanged(_ context: Context) {
        guard let client = try? ControlClient(path: SessionFollower.socketPath(nil, context)) else { return }
        _ = try? client.send(.dayChanged, timeoutMs: 1000)
    }
}
