/// One event packet: the controller it concerns and the event.
public struct MgmtEventPacket: Hashable, Sendable {
    public var index: ControllerIndex
    public var event: MgmtEvent

    public init(index: ControllerIndex, event: MgmtEvent) {
        self.index = index
        self.event = event
    }
}
