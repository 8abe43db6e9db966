import Platform

/// What an input line is connected to when nothing drives it.
public enum LineBias: Hashable, Sendable {
    case asIs
    case disabled
    case pullUp
    case pullDown
}

/// How an output line drives: both levels (push-pull), or low only and released (high impedance) for high,
/// so that two outputs joined through switches (two keys of one keypad column) can never short a high
/// line to a low one (open drain; on the Pi the kernel emulates it by turning the line into an input).
public enum OutputDrive: Hashable, Sendable {
    case pushPull
    case openDrain
}

/// Which level changes of an input line become edge events.
public enum EdgeDetection: Hashable, Sendable {
    case none
    case rising
    case falling
    case both
}

/// A GPIO chip as the panel needs it: input lines with bias and edge events, each with a descriptor the
/// daemon's event loop watches, and output lines it sets. Implemented over libgpiod (`LibgpiodChip`) on a box;
/// a simulated box and the tests implement it in memory, and the panel code above is the same for both.
public protocol GPIOChip: AnyObject {
    /// The label the chip is found by.
    var label: String { get }
    func requestInput(offset: UInt32, bias: LineBias, edge: EdgeDetection, consumer: String) throws(PanelError)
        -> any GPIOInput
    func requestOutput(offset: UInt32, initiallyHigh: Bool, drive: OutputDrive, consumer: String) throws(PanelError)
        -> any GPIOOutput
}

extension GPIOChip {
    /// A push-pull output (the lamps and the buzzer).
    public func requestOutput(offset: UInt32, initiallyHigh: Bool, consumer: String) throws(PanelError)
        -> any GPIOOutput
    {
        try requestOutput(offset: offset, initiallyHigh: initiallyHigh, drive: .pushPull, consumer: consumer)
    }
}
