import RecoveryCore

/// What an import would do to each day, decided before anything is written (the `--dry-run` view).
/// A day the box measured or a questionnaire the box took is the person's own record: it is never
/// replaced unless `force` says so. A day imported before is replaced by the new import.
public struct ImportPlan: Sendable {
    public enum Action: String, Sendable {
        case add
        case replaceImported = "replace (imported before)"
        case replaceBox = "replace the box's record (--force)"
        case keepBox = "keep the box's record (--force replaces it)"
    }

    public struct Step: Sendable {
        public var morning: ImportedMorning
        public var action: Action
    }

    public var steps: [Step]

    /// `existing` holds the store's records for the imported dates (absent dates have none).
    public init(_ mornings: [ImportedMorning], existing: [LocalDate: DayRecord], force: Bool) {
        steps = mornings.map { morning in
            guard let day = existing[morning.date], day.questionnaire != nil || day.measurement != nil else {
                return Step(morning: morning, action: .add)
            }
            if day.imported { return Step(morning: morning, action: .replaceImported) }
            return Step(morning: morning, action: force ? .replaceBox : .keepBox)
        }
    }

    /// The mornings to write.
    public var writes: [ImportedMorning] { steps.filter { $0.action != .keepBox }.map(\.morning) }

    public func count(_ action: Action) -> Int { steps.count { $0.action == action } }

    /// One line per day, then a total: what `--dry-run` prints (and the import, after writing).
    public func lines() -> [String] {
        steps.map { "\($0.morning.date.iso)  \($0.action.rawValue): \($0.morning.summary)" }
    }
}
