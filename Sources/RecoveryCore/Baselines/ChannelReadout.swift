/// One channel's light for the morning, with the numbers behind it.
public struct ChannelReadout: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        /// Personal band (|z| bands).
        case lit(TrafficLight)
        /// Subjective absolute fallback while baselines build.
        case fallback(TrafficLight)
        /// Not enough history for a norm.
        case building
        /// Not enough recent values (acute window) for a light today.
        case missing
    }

    public var channel: Channel
    public var state: State
    public var todayValue: Double?
    public var acute: Double?
    public var acuteCount: Int
    public var normMean: Double?
    public var normSD: Double?
    public var normCount: Int
    public var z: Double?
    /// The edges this light was judged with.
    public var edges: BandEdges = .spec

    /// The light shown, when there is one (band or fallback).
    public var light: TrafficLight? {
        switch state {
        case .lit(let light), .fallback(let light): light
        case .building, .missing: nil
        }
    }

    /// The side of the norm the acute mean is on, when beyond the yellow edge (±1 SD by default); nil inside the
    /// green band or without a z.
    public var deviation: Channel.Direction? {
        guard let z, abs(z) > edges.yellow else { return nil }
        return z < 0 ? .low : .high
    }

    /// True when the deviation is in the channel's concerning direction (spec §5.4).
    public var isConcerning: Bool {
        if case .fallback(let light) = state { return light != .green }
        return deviation == channel.concerningDirection
    }

    /// Words for the person: "rMSSD low", "lying HR normal", "subjective low (absolute, baselines building)".
    public var words: String {
        switch state {
        case .building: return "\(channel.label) building baseline"
        case .missing: return "\(channel.label) not enough recent mornings"
        case .fallback(let light):
            let side = light == .green ? "fine" : "low"
            return "\(channel.label) \(side) (absolute, baselines building)"
        case .lit:
            guard let deviation else { return "\(channel.label) normal" }
            return "\(channel.label) \(deviation.rawValue)"
        }
    }
}
