/// The morning's readout: one entry per channel in keypad order, and the composite.
public struct Readout: Hashable, Sendable {
    public enum Composite: Hashable, Sendable {
        case lit(TrafficLight)
        /// Fewer than 14 complete days: the box blinks blue (DESIGN §1).
        case building
        /// No channel has a light today.
        case missing
    }

    public var today: LocalDate
    public var completeDaysInNorm: Int
    public var channels: [ChannelReadout]
    public var composite: Composite

    public var isBuilding: Bool { composite == .building }

    public subscript(channel: Channel) -> ChannelReadout { channels.first { $0.channel == channel }! }
}
