extension DayRecord {
    /// RecoveryDeck spec §7.2: questionnaire done ∧ rMSSD present ∧ quality ok ∧ (orthostatic ok ∨ skipped).
    /// "Orthostatic ok" is a completed test with its numbers; a failed one leaves the day incomplete.
    public var isComplete: Bool {
        guard questionnaire != nil, let m = measurement, m.hrv?.rmssdMs != nil, m.quality.isOK else { return false }
        switch m.orthostaticStatus {
        case .completed: return m.orthostatic != nil
        case .skipped: return true
        case .failed: return false
        }
    }
}
