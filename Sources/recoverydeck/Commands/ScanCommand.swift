import BlueZ
import HeartRateProtocol
import Platform

/// `recoverydeck scan`: the straps in range, from LE discovery through the management interface
/// (DESIGN §5): name, address, address type, signal strength.
struct ScanCommand: Command {
    static let name = "scan"
    static let summary = "List the heart-rate straps in range (name, address, address type, signal)."
    static let discussion = """
        Listens for Bluetooth LE advertising for a few seconds and lists what looks like a strap: a
        name starting "Polar H10", or the Heart Rate service. A strap only advertises while worn
        (moisten the electrodes) and while no phone app holds it. Discovery needs the
        CAP_NET_ADMIN capability (run as root, or give the binary cap_net_admin). Exits 1 when
        nothing is found.
        """
    static let options: [OptionSpec] = [
        .value("seconds", "N", help: "How long to listen (1 to 120). Default: 10."),
        AdapterOption.spec,
        .flag("json", help: "Print a JSON array of {name, address, addressType, rssi}."),
    ]

    let seconds: Int
    let adapter: String?
    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        seconds = try parsed.integer("seconds", in: 1...120) ?? 10
        adapter = try AdapterOption.parse(parsed)
        json = parsed.flag("json")
    }

    func run(_ context: Context) throws {
        let found = try Self.scan(adapter: adapter, seconds: seconds, context: context)
        if json {
            context.out("[" + found.map(Self.json).joined(separator: ",") + "]")
        } else if !found.isEmpty {
            context.out(Self.table(found))
        }
        if found.isEmpty { throw CommandError.failure(BlueZError.noStrapFound(seconds: seconds).description) }
    }

    /// Discovers for `seconds` (sooner on Ctrl-C) and returns the straps, strongest signal first.
    static func scan(
        adapter: String?, seconds: Int, context: Context, stopWhen: (StrapCandidate) -> Bool = { _ in false }
    )
        throws -> [StrapCandidate]
    {
        let (socket, controller) = try AdapterOption.open(adapter)
        let scanner = StrapScanner(controller: controller, socket: socket)
        let signals = try SignalFD(signals: [.interrupt, .terminate])
        defer { signals.close() }
        let endMs = SystemClock.monotonicMs() + Int64(seconds) * 1000
        var events = scanner.start(nowMs: SystemClock.monotonicMs())
        defer { scanner.stop() }
        scanning: while true {
            for event in events {
                switch event {
                case .failed(let error): throw CommandError.failure(error.description)
                case .found(let candidate): if stopWhen(candidate) { break scanning }
                }
            }
            let now = SystemClock.monotonicMs()
            if now >= endMs { break }
            let deadline = min(endMs, scanner.nextDeadlineMs ?? endMs)
            let ready = ReadinessWait.readable([scanner.descriptor, signals.descriptor], timeoutMs: deadline - now)
            if ready.contains(signals.descriptor) { break }
            let after = SystemClock.monotonicMs()
            events = ready.contains(scanner.descriptor) ? scanner.onReadable(nowMs: after) : []
            events += scanner.onDeadline(nowMs: after)
        }
        return scanner.candidates.values.sorted {
            ($0.rssi ?? Int8.min, $0.address.rawValue) > ($1.rssi ?? Int8.min, $1.address.rawValue)
        }
    }

    static func typeName(_ type: BluetoothAddressType) -> String { StrapAddressOption.settingValue(type) }

    static func json(_ c: StrapCandidate) -> String {
        var line = JSONLine()
        line.add("name", c.name)
        line.add("address", c.address.description)
        line.add("addressType", typeName(c.addressType))
        line.add("rssi", c.rssi.map(Int64.init))
        return line.text
    }

    static func table(_ found: [StrapCandidate]) -> String {
        let nameWidth = max(4, found.map { ($0.name ?? "?").count }.max() ?? 0)
        var lines = [Formatting.padded("NAME", nameWidth) + "  ADDRESS            TYPE    RSSI"]
        for c in found {
            lines.append(
                Formatting.padded(c.name ?? "?", nameWidth) + "  " + c.address.description + "  "
                    + Formatting.padded(typeName(c.addressType), 6) + "  "
                    + Formatting.leftPadded(c.rssi.map(String.init) ?? "?", 4))
        }
        return lines.joined(separator: "\n")
    }
}
