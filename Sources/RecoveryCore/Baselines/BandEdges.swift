/// Where one channel's light changes colour, in SDs of the channel's 60-day norm: |z| ≤ `yellow` green,
/// ≤ `red` yellow, beyond red. The spec's edges are 1.0 and 1.5 (RecoveryDeck spec §5.4, after Couzens); the
/// spec says they are not proven for any one person and allows tuning once months of data exist.
public struct BandEdges: Hashable, Sendable, CustomStringConvertible {
    /// |z| above this is yellow.
    public let yellow: Double
    /// |z| above this is red.
    public let red: Double

    /// The spec's edges: 1.0 and 1.5 SD.
    public static let spec = BandEdges(uncheckedYellow: 1.0, red: 1.5)
    /// The widest edge accepted: beyond 3 SD a red light would be all but unreachable on a 60-day norm.
    public static let maximum = 3.0

    /// nil unless 0 < yellow < red ≤ `maximum` (both finite).
    public init?(yellow: Double, red: Double) {
        guard yellow.isFinite, red.isFinite, yellow > 0, yellow < red, red <= BandEdges.maximum else { return nil }
        self.init(uncheckedYellow: yellow, red: red)
    }

    private init(uncheckedYellow yellow: Double, red: Double) {
        self.yellow = yellow
        self.red = red
    }

    /// The light for a z-score.
    public func light(z: Double) -> TrafficLight {
        let size = abs(z)
        return size <= yellow ? .green : (size <= red ? .yellow : .red)
    }

    /// "1.0,1.5": the form `--band-edges` takes and the setting stores.
    public var description: String { BandEdges.format(yellow) + "," + BandEdges.format(red) }

    /// Reads "A,B"; nil for anything else, including edges outside 0 < A < B ≤ 3.
    public init?(text: some StringProtocol) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = BandEdges.number(parts[0]), let b = BandEdges.number(parts[1]) else {
            return nil
        }
        self.init(yellow: a, red: b)
    }

    static func number(_ text: some StringProtocol) -> Double? {
        let trimmed = text.trimmingCharacters(in: " ")
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { return nil }
        return Double(trimmed)
    }

    /// Shortest decimal form with at least one decimal: 1 → "1.0", 1.25 → "1.25".
    public static func format(_ v: Double) -> String {
        let hundredths = (v * 100).rounded()
        if abs(v * 100 - hundredths) < 1e-9 {
            let whole = Int(hundredths) / 100
            let frac = Int(hundredths) % 100
            if frac == 0 { return "\(whole).0" }
            return frac % 10 == 0 ? "\(whole).\(frac / 10)" : "\(whole).\(frac < 10 ? "0" : "")\(frac)"
        }
        return String(v)
    }
}

/// Why a band-edges text was refused, as one sentence.
public enum BandEdgesError: Error, Hashable, Sendable, CustomStringConvertible {
    case malformed(String)
    case unknownChannel(String)

    public var description: String {
        switch self {
        case .malformed(let text):
            return "\"\(text)\" is not a pair of band edges: write A,B in SDs with 0 < A < B ≤ "
                + "\(BandEdges.format(BandEdges.maximum)) (the spec's are 1.0,1.5), optionally after a channel "
                + "name (rmssd=1.2,1.8)."
        case .unknownChannel(let name):
            return "\"\(name)\" is not a channel; the channels are "
                + Channel.allCases.map(\.rawValue).joined(separator: ", ") + "."
        }
    }
}
