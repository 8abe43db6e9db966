/// One light of the morning readout (DESIGN §1 step 5; spec §5.4): a channel's or the composite's
/// traffic light, blue while its baseline is still building, or nothing when today has no value
/// (missing stays missing: never shown as a colour).
public enum ReadoutLight: String, CaseIterable, Hashable, Sendable {
    case green
    case yellow
    case red
    case building
    case missing
}

/// What the box shows after a morning: the composite and each channel's light, worked out by the
/// daemon from the stored history with the core's baselines, and handed to the session to display.
public struct PanelReadout: Hashable, Sendable {
    /// The channels in keypad order: key N shows `channels[N - 1]` (DESIGN §1 step 5).
    public static let channelNames = ["rMSSD", "lying HR", "gapPeak", "gapAvg", "subjective"]

    public var composite: ReadoutLight
    /// Exactly five lights, in `channelNames` order; missing entries are filled with `.missing`.
    public var channels: [ReadoutLight]
    /// The words for the terminal and the journal ("yellow: low rMSSD — rough signal — not medical").
    public var summary: String
    /// This morning belongs to a stretch of mornings unlike the person (lying HR up, ln rMSSD down; the
    /// detector is Insights' `NotLikeYou`): after the readout the panel says so (`Indication.notLikeYou`).
    public var notLikeYou = false

    public init(composite: ReadoutLight, channels: [ReadoutLight], summary: String = "") {
        self.composite = composite
        self.channels = Array((channels + Array(repeating: .missing, count: 5)).prefix(5))
        self.summary = summary
    }

    /// The light behind keypad key `number` (1–5), nil for other keys.
    public func channel(_ number: Int) -> ReadoutLight? {
        (1...5).contains(number) ? channels[number - 1] : nil
    }
}
