/// Set Advertising values (0x02 is connectable advertising, preferred for a peripheral).
public enum AdvertisingMode: UInt8, Hashable, Sendable {
    case off = 0
    case on = 1
    case connectable = 2
}
