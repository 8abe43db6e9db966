/// The name of a setting (spec §7.1 AppSettings). What each holds, its default and its bounds are `Settings`'s;
/// a row under any other name is reported, never read.
public struct SettingKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The configured habit names, comma-separated (review notes §6 Block C). Unset = the starter list.
    public static let habits = SettingKey(rawValue: "habits")
    /// The optional display name used for "Good morning, NAME" (review notes §7).
    public static let displayName = SettingKey(rawValue: "display_name")
    /// The paired strap's Bluetooth address, `AA:BB:CC:DD:EE:FF`.
    public static let strapAddress = SettingKey(rawValue: "strap_address")
    /// The paired strap's address type, `public` or `random`.
    public static let strapAddressType = SettingKey(rawValue: "strap_address_type")
    /// The morning reminder time, `HH:MM`, or `off` (`ReminderSetting.off`); unset = 06:30, the spec's default.
    public static let reminderTime = SettingKey(rawValue: "reminder_time")
    /// The lights' band edges in SDs (`LightEdges`' text: "1.2,1.8" or "rmssd=1.2,1.8;lyingHR=1.0,1.5;…");
    /// unset = the spec's 1.0,1.5.
    public static let bandEdges = SettingKey(rawValue: "band_edges")
    /// The artifact rule, `pattern` (unset: the default) or `spec-20` (the spec's 20 % rule); docs/artifacts.md.
    public static let artifactRule = SettingKey(rawValue: "artifact_rule")
    /// The last local day the daemon started the morning reminder, `YYYY-MM-DD`.
    public static let reminderShownOn = SettingKey(rawValue: "reminder_shown_on")

    /// Every key `Settings` holds, in the order `settings` lists them (by name).
    public static let known: [SettingKey] = [
        .artifactRule, .bandEdges, .displayName, .habits, .reminderShownOn, .reminderTime, .strapAddress,
        .strapAddressType,
    ]
}
