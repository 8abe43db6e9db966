import BoxConfiguration
import RecoveryCore
import Store

extension Daemon {
    /// The habit list and reminder as the store now says, when they differ from the routine's.
    func changedSettings() -> MorningRoutine.Event? {
        let settings: MorningSettings
        do { settings = try Daemon.morningSettings(configuration, store) } catch {
            logger.warning("cannot read the settings from the database: \(error)")
            return nil
        }
        let current = routine.configuration
        guard
            settings.habits != current.habits || settings.reminder != current.reminder
                || settings.artifactRule != current.artifactRule
        else { return nil }
        if let warning = settings.warning { logger.warning(warning) }
        // The habit names say something about the person: debug only (the journal outlives `delete`).
        let reminder = settings.reminder.enabled ? settings.reminder.start.description : "off"
        logger.info("settings changed", ["reminder": reminder, "artifact_rule": settings.artifactRule.rawValue])
        logger.debug("habits", ["habits": settings.habits.joined(separator: ",")])
        return .settings(habits: settings.habits, reminder: settings.reminder, artifactRule: settings.artifactRule)
    }

    /// The habit keys and the reminder: the configuration file's keys where set, else the store's settings
    /// (`Settings`, which `recoverydeck settings` writes), else the defaults. A stored value that does not read is
    /// said once in the journal by the store (its default applies); a stored reminder that can never show (at or
    /// after `reminder_window_end`) leaves the reminder off, with a warning that says why; neither stops the
    /// daemon.
    struct MorningSettings {
        var habits: [String]
        var reminder: MorningReminder.Schedule
        var warning: String?
        var artifactRule: ArtifactRule = .default
    }

    static func morningSettings(_ configuration: DaemonConfiguration, _ store: Store) throws(StoreError)
        -> MorningSettings
    {
        let stored = try store.settings()
        let end = configuration.reminderWindowEnd
        var schedule = MorningReminder.Schedule(
            enabled: configuration.reminderEnabled, end: end, buzzer: configuration.reminderBuzzer)
        var warning: String?
        if let start = configuration.reminderTime {
            schedule.start = start
        } else {
            switch stored.reminder {
            case .standard: break
            case .off: schedule.enabled = false
            case .at(let start) where start < end: schedule.start = start
            case .at(let start):
                schedule.enabled = false
                warning =
                    "The reminder time \(start) from `recoverydeck settings` is not before reminder_window_end \(end), "
                    + "so the reminder stays off."
            }
        }
        return MorningSettings(
            habits: configuration.habits ?? stored.habits, reminder: schedule, warning: warning,
            artifactRule: stored.artifactRule)
    }
}
