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

/// The band edges of every channel: what the readout uses to turn a z-score into a light. The composite has
/// no edges of its own: it is the majority of the channel lights.
public struct LightEdges: Hashable, Sendable, CustomStringConvertible {
    private var byChannel: [Channel: BandEdges]

    /// Every channel at the spec's 1.0 / 1.5 SD.
    public static let spec = LightEdges(all: .spec)

    public init(all edges: BandEdges) {
        byChannel = Dictionary(uniqueKeysWithValues: Channel.allCases.map { ($0, edges) })
    }

    public subscript(channel: Channel) -> BandEdges {
        get { byChannel[channel] ?? .spec }
        set { byChannel[channel] = newValue }
    }

    /// True when every channel has the same edges.
    public var isUniform: Bool { Set(Channel.allCases.map { self[$0] }).count == 1 }

    /// The setting's text: "1.2,1.8" when every channel has the same edges, else one `channel=A,B` per channel
    /// joined by ";" ("rmssd=1.2,1.8;lyingHR=1.0,1.5;…"), in keypad order.
    public var description: String {
        if isUniform { return self[.rmssd].description }
        return Channel.allCases.map { "\($0.rawValue)=\(self[$0])" }.joined(separator: ";")
    }

    /// Reads the setting's text (any form `applying` accepts, over the spec's edges); nil when it is not valid.
    public init?(setting text: String) {
        guard case .success(let edges) = LightEdges.spec.applying(text) else { return nil }
        self = edges
    }

    /// The channel a `--band-edges` prefix names: the channel's raw name or its label, any case, `-`/`_`/space
    /// ignored ("rmssd", "lyingHR", "lying-hr", "gap_peak").
    public static func channel(named name: some StringProtocol) -> Channel? {
        let key = { (s: String) in s.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " } }
        let wanted = key(String(name))
        return Channel.allCases.first { key($0.rawValue) == wanted || key($0.label) == wanted }
    }

    /// These edges with `text` applied: "A,B" sets every channel; "channel=A,B" sets that channel and keeps the
    /// rest; several parts are joined by ";" ("rmssd=1.2,1.8;lying-hr=1.0,1.6"); "spec" restores 1.0,1.5
    /// everywhere. All or nothing: one bad part and nothing is applied.
    public func applying(_ text: String) -> Result<LightEdges, BandEdgesError> {
        let trimmed = text.trimmingCharacters(in: " ")
        if trimmed == "spec" || trimmed == "default" { return .success(.spec) }
        var result = self
        let parts = trimmed.split(separator: ";", omittingEmptySubsequences: false)
        guard !parts.isEmpty else { return .failure(.malformed(text)) }
        for part in parts {
            let piece = part.trimmingCharacters(in: " ")
            if let eq = piece.firstIndex(of: "=") {
                let name = piece[..<eq]
                guard let channel = LightEdges.channel(named: name) else {
                    return .failure(.unknownChannel(String(name)))
                }
                guard let edges = BandEdges(text: piece[piece.index(after: eq)...]) else {
                    return .failure(.malformed(String(piece)))
                }
                result[channel] = edges
            } else {
                guard parts.count == 1, let edges = BandEdges(text: piece) else {
                    return .failure(.malformed(String(piece)))
                }
                result = LightEdges(all: edges)
            }
        }
        return .success(result)
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
