import RecoveryCore

/// What the outside was last shown of the routine, so the daemon publishes only what changed: the lamps'
/// indication, the fault last written to the journal, and whether anything happened since the last snapshot.
/// Whoever changes the routine marks it; `Daemon+Publish` alone reads and clears it.
struct Publication {
    private var lastIndication: Indication?
    private var loggedFault: MorningFault?
    private var pending = false

    /// Something the watchers may see differently now (an event went into the routine, a record was filed).
    mutating func markChanged() { pending = true }

    /// True when `indication` differs from the one last shown: the lamps must change (and so must the snapshot).
    mutating func show(_ indication: Indication) -> Bool {
        guard indication != lastIndication else { return false }
        lastIndication = indication
        pending = true
        return true
    }

    /// True once for each change since the last call: a snapshot is due.
    mutating func takeChanged() -> Bool {
        defer { pending = false }
        return pending
    }

    /// The fault to write to the journal: `fault` when it differs from the one last written (nil when the
    /// session has none now, or still the same one).
    mutating func faultToLog(_ fault: MorningFault?) -> MorningFault? {
        guard fault != loggedFault else { return nil }
        loggedFault = fault
        return fault
    }
}
