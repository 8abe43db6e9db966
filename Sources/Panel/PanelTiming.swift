import RecoveryCore

/// The panel's timing rules (DESIGN §2: debounce 30 ms, long press 2 s).
public struct PanelTiming: Hashable, Sendable {
    /// A level must stay unchanged this long before a press or release counts.
    public var debounceMs: Int64
    /// GO held this long (from its first edge) is a long press.
    public var longPressMs: Int64
    /// How often the keypad is scanned while any key is down (never while idle).
    public var keypadScanIntervalMs: Int64

    public init(
        debounceMs: Int64 = 30, longPressMs: Int64 = SessionTimings.standard.longPressMs,
        keypadScanIntervalMs: Int64 = 10
    ) {
        self.debounceMs = debounceMs
        self.longPressMs = longPressMs
        self.keypadScanIntervalMs = keypadScanIntervalMs
    }

    public static let standard = PanelTiming()
}
