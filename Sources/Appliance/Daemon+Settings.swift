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
    /// (`recoverydeck settings`), else the defaults. A stored reminder that can never show (at or after
    /// `reminder_window_end`) or cannot be read leaves the reminder off or at 06:30, with a warning that
    /// says why; it never stops the daemon.
    struct MorningSettings {
        var habits: [String]
        var reminder: MorningReminder.Schedule
        var warning: String?
        var artifactRule: ArtifactRule = .default
    }

    static func morningSettings(_ configuration: DaemonConfiguration, _ store: Store) throws(StoreError)
        -> MorningSettings
    {
        let end = configuration.reminderWindowEnd
        var schedule = MorningReminder.Schedule(
            enabled: configuration.reminderEnabled, end: end, buzzer: configuration.reminderBuzzer)
        var warning: String?
        if let start = configuration.reminderTime {
            schedule.start = start
        } else if let stored = try store.setting(.reminderTime) {
            if stored == ReminderSetting.off {
                schedule.enabled = false
            } else if let start = MinuteOfDay(hhmm: stored), start < end {
                schedule.start = start
            } else if let start = MinuteOfDay(hhmm: stored) {
                schedule.enabled = false
                warning =
                    "The reminder time \(start) from `recoverydeck settings` is not before reminder_window_end \(end), "
                    + "so the reminder stays off."
            } else {
                warning = "The stored reminder time \"\(stored)\" is not HH:MM or off, so the reminder starts at 06:30."
            }
        }
        let habits: [String]
        if let configured = configuration.habits { habits = configured } else { habits = try store.habitList() }
        var settings = MorningSettings(habits: habits, reminder: schedule, warning: warning)
        if let stored = try store.setting(.artifactRule) {
            if let rule = ArtifactRule(rawValue: stored) {
                settings.artifactRule = rule
            } else {
                settings.warning = (warning.map { $0 + " " } ?? "")
                    + "The stored artifact rule \"\(stored)\" is not pattern or spec-20, so mornings use pattern."
            }
        }
        return settings
    }
}

extension SettingKey {
    /// The last local day the morning reminder started (spec §10: once a day, across restarts).
    static let reminderShownOn = SettingKey(rawValue: "reminder_shown_on")
}
