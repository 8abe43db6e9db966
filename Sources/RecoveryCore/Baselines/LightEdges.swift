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
