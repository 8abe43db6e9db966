/// The handles of one characteristic: its declaration, its value and, when it can notify or
/// indicate, its Client Characteristic Configuration descriptor.
public struct CharacteristicHandles: Hashable, Sendable {
    public let declaration: UInt16
    public let value: UInt16
    public let cccd: UInt16?
}
