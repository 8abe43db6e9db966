import RecoveryCore

/// The box's settings (spec §7.1 AppSettings) as one record: every key, its type, its default and its bounds,
/// with the one codec between the record and the `setting` table's rows. `recoverydeck settings`, `doctor`,
/// restore and the daemon all read and write through it, so no process parses a stored string by itself.
/// A stored value that does not read is one sentence (`read(rows:)`'s problems; `Store.settings()` puts each
/// in `skippedRows`, which the daemon's journal and `doctor` show) and the key's default stands in, said.
public struct Settings: Hashable, Sendable {
    /// When the morning reminder starts.
    public enum Reminder: Hashable, Sendable {
        /// Unset: the spec's 06:30 (spec §10).
        case standard
        case off
        case at(MinuteOfDay)
    }

    /// The habit names, in the keypad's order (review notes §6 Block C). Default: the starter list.
    public var habits = Questionnaire.starterHabits
    /// "Good morning, NAME" (review notes §7). Default: none.
    public var displayName: String?
    /// The paired strap's Bluetooth address, `AA:BB:CC:DD:EE:FF` in capitals (`recoverydeck pair`). Default: none.
    public var strapAddress: String?
    /// The paired strap's address type, `public` or `random`. Default: none (the address's form says).
    public var strapAddressType: String?
    public var reminder = Reminder.standard
    /// The lights' band edges in SDs. Default: the spec's 1.0 / 1.5.
    public var bandEdges = LightEdges.spec
    /// The artifact rule (docs/artifacts.md). Default: `ArtifactRule.default`.
    public var artifactRule = ArtifactRule.default
    /// The last local day the daemon started the morning reminder (spec §10: once a day, across restarts).
    public var reminderShownOn: LocalDate?

    public init() {}

    /// How many habits a list holds.
    public static let habitCount = 1...20
    /// The longest display name, in characters.
    public static let displayNameLimit = 40

    /// The longest stored text of each key, in characters (what restore reads before `read` judges it); a key
    /// this version does not know may hold up to 2000, a note's limit.
    public static func longest(_ key: SettingKey) -> Int {
        switch key {
        case .habits: habitCount.upperBound * 33
        case .displayName: displayNameLimit
        case .strapAddress: 17
        case .strapAddressType: 6
        case .reminderTime: 5
        case .bandEdges: 200
        case .artifactRule: 16
        case .reminderShownOn: 10
        default: 2000
        }
    }

    /// A display name a terminal and the panel's greeting can show: 1 to 40 characters, no control character.
    public static func isDisplayName(_ name: String) -> Bool {
        (1...displayNameLimit).contains(name.count)
            && name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7f && !(0x80..<0xa0).contains($0.value) }
    }

    /// `AA:BB:CC:DD:EE:FF`, six hexadecimal octets in capitals, as `pair` stores it.
    static func isStrapAddress(_ text: String) -> Bool {
        let octets = text.split(separator: ":", omittingEmptySubsequences: false)
        return octets.count == 6
            && octets.allSatisfy { $0.utf8.count == 2 && $0.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 70) } }
    }

    // MARK: The codec

    /// Reads one stored value into its field; the reason it does not read otherwise, the field unchanged.
    public mutating func read(_ key: SettingKey, _ text: String) -> String? {
        switch key {
        case .habits:
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard Settings.habitCount.contains(names.count), names.allSatisfy(Store.isHabitName),
                Set(names).count == names.count
            else { return "is not a list of 1 to 20 different habit names (a–z, 0–9 and -)" }
            habits = names
        case .displayName:
            guard Settings.isDisplayName(text) else {
                return "is not a name of 1 to \(Settings.displayNameLimit) characters without control characters"
            }
            displayName = text
        case .strapAddress:
            guard Settings.isStrapAddress(text) else { return "is not a Bluetooth address AA:BB:CC:DD:EE:FF" }
            strapAddress = text
        case .strapAddressType:
            guard text == "public" || text == "random" else { return "is not public or random" }
            strapAddressType = text
        case .reminderTime:
            if text == Settings.off {
                reminder = .off
            } else if let time = MinuteOfDay(hhmm: text) {
                reminder = .at(time)
            } else {
                return "is not a time written HH:MM, or off"
            }
        case .bandEdges:
            guard let edges = LightEdges(setting: text) else {
                return "is not a set of band edges (A,B with 0 < A < B ≤ 3, or channel=A,B joined by ;)"
            }
            bandEdges = edges
        case .artifactRule:
            guard let rule = ArtifactRule(rawValue: text) else {
                return "is not one of " + ArtifactRule.allCases.map(\.rawValue).joined(separator: ", ")
            }
            artifactRule = rule
        case .reminderShownOn:
            guard let day = LocalDate(iso: text) else { return "is not a date written YYYY-MM-DD" }
            reminderShownOn = day
        default:
            return "is not a setting this version knows"
        }
        return nil
    }

    /// The record from the `setting` table's rows, and one sentence for each row that does not read (the
    /// key's default stands in, and the sentence says which).
    public static func read(rows: [(key: SettingKey, value: String)]) -> (settings: Settings, problems: [String]) {
        var settings = Settings()
        var problems: [String] = []
        for (key, value) in rows {
            guard let why = settings.read(key, value) else { continue }
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            let instead = Settings.defaultWords[key].map { ", so \($0) applies" } ?? " and is not used"
            problems.append("the setting \(key.rawValue) \"\(shown)\" \(why)\(instead)")
        }
        return (settings, problems)
    }

    /// What applies while a key is unset, for the sentence about a value that does not read.
    static let defaultWords: [SettingKey: String] = [
        .habits: "the starter list", .displayName: "no name", .strapAddress: "no paired strap",
        .strapAddressType: "the type the address's form implies", .reminderTime: "06:30",
        .bandEdges: "the spec's 1.0,1.5", .artifactRule: "the \(ArtifactRule.default.rawValue) rule",
        .reminderShownOn: "no earlier reminder",
    ]

    /// One key's stored text; nil while it has its default (the row is removed). The habit list is always
    /// written out, so `settings` shows it.
    public func value(of key: SettingKey) -> String? {
        switch key {
        case .habits: habits.joined(separator: ",")
        case .displayName: displayName
        case .strapAddress: strapAddress
        case .strapAddressType: strapAddressType
        case .reminderTime:
            switch reminder {
            case .standard: nil
            case .off: Settings.off
            case .at(let time): time.description
            }
        case .bandEdges: bandEdges == .spec ? nil : bandEdges.description
        case .artifactRule: artifactRule == .default ? nil : artifactRule.rawValue
        case .reminderShownOn: reminderShownOn?.iso
        default: nil
        }
    }

    /// The rows for `keys` (nil: the row is removed).
    public func rows(_ keys: [SettingKey] = SettingKey.known) -> [(SettingKey, String?)] {
        keys.map { ($0, value(of: $0)) }
    }

    /// The stored word for a reminder turned off.
    public static let off = "off"
}
