import Platform

/// A requested input line.
public protocol GPIOInput: AnyObject {
    var offset: UInt32 { get }
    /// Readable while edge events are pending.
    var descriptor: FileDescriptor { get }
    /// The line's level now (true = high).
    func read() throws(PanelError) -> Bool
    /// The pending edge events, oldest first; empty when none (never blocks).
    func readEvents() throws(PanelError) -> [EdgeEvent]
    func release()
}
