import Platform

/// Why the panel cannot do what was asked, as one sentence for the log or the person at the console.
public enum PanelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No chip carries any of the labels; `present` lists what was found (name and label).
    case chipNotFound(labels: [String], present: [String])
    /// The chip was found but a line on it could not be requested (in use, no such offset, no permission).
    case lineUnavailable(offset: UInt32, role: String, Errno)
    /// The chip was found but has no line at `offset` (a chip with fewer lines than the pin map needs).
    case lineNotOnChip(offset: UInt32, role: String, label: String, lines: Int)
    /// Reading or writing a requested line failed.
    case lineFailed(offset: UInt32, Errno)
    /// The pin map assigns one GPIO to two parts, or has the wrong number of keypad lines.
    case invalidPinMap(String)

    public var description: String {
        switch self {
        case .chipNotFound(let labels, let present):
            let wanted = labels.map { "\"\($0)\"" }
            let wantedText =
                wanted.count <= 1
                ? (wanted.first ?? "\"\"")
                : wanted.dropLast().joined(separator: ", ") + " or " + wanted.last!
            let presentText = present.isEmpty ? "none" : present.joined(separator: ", ")
            return "No GPIO chip labelled \(wantedText) was found; chips present: \(presentText)."
        case .lineUnavailable(let offset, let role, let errno):
            return "GPIO\(offset) (\(role)) could not be requested: \(errno)."
        case .lineNotOnChip(let offset, let role, let label, let lines):
            return "GPIO\(offset) (\(role)) is not on GPIO chip \"\(label)\", which has \(lines) lines (0–\(lines - 1))."
        case .lineFailed(let offset, let errno):
            return "GPIO\(offset) could not be read or set: \(errno)."
        case .invalidPinMap(let reason):
            return "The pin map is not usable: \(reason)."
        }
    }
}
