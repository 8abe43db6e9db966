import CGPIOD
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// A real GPIO chip through libgpiod (v1 or v2, whichever the build found; see CGPIOD). Found by its label,
/// never by number: chip numbering changes between boards and kernels (DESIGN §2).
public final class LibgpiodChip: GPIOChip {
    public let label: String
    /// The device the label was found on ("/dev/gpiochip0").
    public let path: String
    private var chip: OpaquePointer?
    private var requests: [ObjectIdentifier: OpaquePointer] = [:]

    /// Labels of the header chip on Raspberry Pi boards, newest first: Raspberry Pi 5 (RP1), 4, and 3 or
    /// earlier (their kernels' pinctrl driver names).
    public static let raspberryPiLabels = ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"]

    /// Which libgpiod API this build uses (1 or 2) and the library's version string.
    public static var libraryDescription: String {
        "libgpiod \(String(cString: cgpiod_library_version())) (API v\(cgpiod_api_major()))"
    }

    /// Opens the first chip under `directory`, in name order, whose label is one of `labels`, tried in order.
    /// Throws `chipNotFound` naming the labels and listing every chip present with its label.
    public init(labels: [String], directory: String = "/dev") throws(PanelError) {
        let devices = GPIOChipDevice.all(in: directory)
        var refused: [String: Errno] = [:]
        for wanted in labels {
            for device in devices where device.label == wanted {
                guard let handle = cgpiod_chip_open(device.path) else {
                    refused[device.path] = .current
                    continue
                }
                chip = handle
                label = wanted
                path = device.path
                return
            }
        }
        let present = devices.map { device in
            let refusal = refused[device.path].map { ", not openable: \($0)" } ?? ""
            return "\(device.name) (\(device.labelOrReason)\(refusal))"
        }
        throw .chipNotFound(labels: labels, present: present)
    }

    deinit { close() }

    /// Every `gpiochip*` entry under `directory`, in name order, with its label, or why it did not open.
    public static func chips(in directory: String = "/dev") -> [(name: String, path: String, label: String)] {
        GPIOChipDevice.all(in: directory).map { ($0.name, $0.path, $0.labelOrReason) }
    }

    public var lineCount: Int { chip.map { Int(cgpiod_chip_num_lines($0)) } ?? 0 }

    /// A line past the chip's end is named as such: the kernel's EINVAL would not say why.
    private func requireLine(_ offset: UInt32, _ consumer: String, _ chip: OpaquePointer) throws(PanelError) {
        let lines = Int(cgpiod_chip_num_lines(chip))
        if Int(offset) >= lines { throw .lineNotOnChip(offset: offset, role: consumer, label: label, lines: lines) }
    }

    public func requestInput(offset: UInt32, bias: LineBias, edge: EdgeDetection, consumer: String) throws(PanelError)
        -> any GPIOInput
    {
        guard let chip else { throw .lineUnavailable(offset: offset, role: consumer, Errno(rawValue: EBADF)) }
        try requireLine(offset, consumer, chip)
        let cBias: cgpiod_bias =
            switch bias {
            case .asIs: CGPIOD_BIAS_AS_IS
            case .disabled: CGPIOD_BIAS_DISABLED
            case .pullUp: CGPIOD_BIAS_PULL_UP
            case .pullDown: CGPIOD_BIAS_PULL_DOWN
            }
        let cEdge: cgpiod_edge =
            switch edge {
            case .none: CGPIOD_EDGE_NONE
            case .rising: CGPIOD_EDGE_RISING
            case .falling: CGPIOD_EDGE_FALLING
            case .both: CGPIOD_EDGE_BOTH
            }
        guard let request = cgpiod_request_input(chip, consumer, offset, cBias, cEdge) else {
            throw .lineUnavailable(offset: offset, role: consumer, .current)
        }
        let fd = edge == .none ? -1 : cgpiod_request_fd(request)
        let line = LibgpiodInput(offset: offset, request: request, descriptor: FileDescriptor(rawValue: fd), chip: self)
        requests[ObjectIdentifier(line)] = request
        return line
    }

    public func requestOutput(offset: UInt32, initiallyHigh: Bool, drive: OutputDrive, consumer: String)
        throws(PanelError) -> any GPIOOutput
    {
        guard let chip else { throw .lineUnavailable(offset: offset, role: consumer, Errno(rawValue: EBADF)) }
        try requireLine(offset, consumer, chip)
        let openDrain: Int32 = drive == .openDrain ? 1 : 0
        guard let request = cgpiod_request_output(chip, consumer, offset, initiallyHigh ? 1 : 0, openDrain) else {
            throw .lineUnavailable(offset: offset, role: consumer, .current)
        }
        let line = LibgpiodOutput(offset: offset, request: request, chip: self)
        requests[ObjectIdentifier(line)] = request
        return line
    }

    /// Releases every line still requested, then the chip.
    public func close() {
        for request in requests.values { cgpiod_request_release(request) }
        requests.removeAll()
        if let chip { cgpiod_chip_close(chip) }
        chip = nil
    }

    fileprivate func release(_ line: AnyObject) {
        if let request = requests.removeValue(forKey: ObjectIdentifier(line)) { cgpiod_request_release(request) }
    }

    fileprivate func isLive(_ line: AnyObject) -> Bool { requests[ObjectIdentifier(line)] != nil }
}

final class LibgpiodInput: GPIOInput {
    let offset: UInt32
    let descriptor: FileDescriptor
    private let request: OpaquePointer
    private let chip: LibgpiodChip

    init(offset: UInt32, request: OpaquePointer, descriptor: FileDescriptor, chip: LibgpiodChip) {
        self.offset = offset
        self.request = request
        self.descriptor = descriptor
        self.chip = chip
    }

    func read() throws(PanelError) -> Bool {
        guard chip.isLive(self) else { throw .lineFailed(offset: offset, Errno(rawValue: EBADF)) }
        let value = cgpiod_request_get_value(request)
        if value < 0 { throw .lineFailed(offset: offset, .current) }
        return value == 1
    }

    func readEvents() throws(PanelError) -> [EdgeEvent] {
        guard chip.isLive(self) else { throw .lineFailed(offset: offset, Errno(rawValue: EBADF)) }
        var events: [EdgeEvent] = []
        var buffer = [cgpiod_edge_event](repeating: cgpiod_edge_event(), count: 16)
        while true {
            let n = cgpiod_request_read_events(request, &buffer, Int32(buffer.count))
            if n < 0 { throw .lineFailed(offset: offset, .current) }
            for e in buffer.prefix(Int(n)) {
                events.append(EdgeEvent(offset: e.offset, rising: e.rising != 0, timestampNs: e.timestamp_ns))
            }
            if n < buffer.count { return events }
        }
    }

    func release() { chip.release(self) }
}

final class LibgpiodOutput: GPIOOutput {
    let offset: UInt32
    private let request: OpaquePointer
    private let chip: LibgpiodChip

    init(offset: UInt32, request: OpaquePointer, chip: LibgpiodChip) {
        self.offset = offset
        self.request = request
        self.chip = chip
    }

    func set(high: Bool) throws(PanelError) {
        guard chip.isLive(self) else { throw .lineFailed(offset: offset, Errno(rawValue: EBADF)) }
        if cgpiod_request_set_value(request, high ? 1 : 0) != 0 { throw .lineFailed(offset: offset, .current) }
    }

    func release() { chip.release(self) }
}
