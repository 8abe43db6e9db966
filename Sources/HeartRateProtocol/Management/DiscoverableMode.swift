/// Set Discoverable values.
public enum DiscoverableMode: UInt8, Hashable, Sendable {
    case off = 0
    case general = 1
    case limited = 2
}
