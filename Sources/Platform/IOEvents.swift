import CPlatform

/// Readiness bits for `EventLoop`: what to watch for, and what happened.
public struct IOEvents: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let readable = IOEvents(rawValue: UInt32(CPLATFORM_EPOLLIN))
    public static let priority = IOEvents(rawValue: UInt32(CPLATFORM_EPOLLPRI))
    public static let writable = IOEvents(rawValue: UInt32(CPLATFORM_EPOLLOUT))
    /// Reported whether asked for or not.
    public static let error = IOEvents(rawValue: UInt32(CPLATFORM_EPOLLERR))
    /// Reported whether asked for or not.
    public static let hangup = IOEvents(rawValue: UInt32(CPLATFORM_EPOLLHUP))
    /// The peer shut down its writing side (stream sockets).
    public static let peerClosed = IOEvents(rawValue: UInt32(CPLATFORM_EPOLLRDHUP))

    public var description: String {
        let names: [(IOEvents, String)] = [
            (.readable, "readable"), (.priority, "priority"), (.writable, "writable"), (.error, "error"),
            (.hangup, "hangup"), (.peerClosed, "peerClosed"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}

/// One descriptor that `EventLoop.wait` found ready.
public struct ReadyDescriptor: Hashable, Sendable {
    public var descriptor: FileDescriptor
    public var events: IOEvents

    public init(descriptor: FileDescriptor, events: IOEvents) {
        self.descriptor = descriptor
        self.events = events
    }
}
