import Panel
import Platform

/// The panel behind the daemon's keys, lamps and buzzer: the GPIO `Panel` on a box, or what a simulated box
/// hands in (`Daemon.Options.openPanel`). Both follow the event-loop contract (APIS.md): descriptors to watch,
/// a deadline, never blocking.
public protocol PanelSource: AnyObject {
    /// The panel whose lamps and buzzer the daemon sets.
    var panel: Panel { get }
    var descriptors: [FileDescriptor] { get }
    func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [PanelEvent]
    var nextDeadlineMs: Int64? { get }
    func onDeadline(nowMs: Int64) -> [PanelEvent]
}

/// The GPIO panel is its own source: its edges are the person's hands.
extension Panel: PanelSource {
    public var panel: Panel { self }
}
