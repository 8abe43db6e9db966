import HeartRateProtocol

/// The virtual strap's command line.
struct SimulatorOptions {
    /// One link loss: at `atS` seconds (wall) after notifications first started, for `forS` seconds.
    struct Dropout: Equatable {
        var atS: Double
        var forS: Double
    }

    /// How the strap asks for new connection parameters (DESIGN §5).
    enum ConnectionUpdateProcedure: String, Equatable {
        /// HCI LE Connection Update from the peripheral: the Link Layer's Connection Parameters
        /// Request procedure (Core 5.3 Vol 6 Part B §5.1.7).
        case ll
        /// L2CAP Connection Parameter Update Request on the LE signalling channel, CID 5
        /// (Core 5.3 Vol 3 Part A §4.20).
        case l2cap
    }

    var adapter: String?
    /// A static random address to use instead of the one derived from the seed.
    var staticAddress: BluetoothAddress?
    /// The controller's public address instead of a random static one (newer H10 firmware).
    var publicAddress = false
    /// Seconds after notifications are enabled at which the strap asks for new parameters; nil: never.
    var connectionUpdateAtS: Double?
    var connectionUpdateVia = ConnectionUpdateProcedure.ll
    /// Drop the link at the first characteristic discovery request (a peer gone mid-discovery).
    var dropDuringDiscovery = false
    /// Where in discovery to drop (`--drop-at`); nil with `--drop-during-discovery`: at characteristics.
    var dropAt = DiscoveryDropPoint.characteristics
    /// How the strap drops: mgmt Disconnect, HCI Disconnect on a raw socket, or closing its ATT socket.
    var dropVia = DiscoveryDropMethod.mgmt
    var rrFile: String?
    var seed: UInt64 = 1
    var day = 0
    var standAtS: Double?
    var heartRateOnly = false
    var dropouts: [Dropout] = []
    var artifactRate = 0.0
    var speed = 1.0
    var name: String?
    var battery: UInt8 = 87
    var firmware = "5.0.0"
    var quiet = false

    static let usage = """
        usage: h10sim [--adapter hciN] [--static-address ADDR | --public] [--rr-file PATH | --day N] [--seed S]
                      [--stand-at SECONDS] [--hr-only] [--dropout T:D]... [--artifacts RATE] [--speed F]
                      [--name NAME] [--battery PERCENT] [--firmware TEXT] [--quiet]
                      [--conn-update-at SECONDS] [--conn-update-via ll|l2cap] [--drop-during-discovery]
                      [--drop-at primary|characteristics|cccd] [--drop-via mgmt|hci|close|stall]

        A virtual Polar H10 on a Bluetooth controller of this machine: advertises the Heart Rate and
        Polar (FEEE) services with Polar's manufacturer data, "Polar H10 XXXXXXXX" in the scan
        response, serves a real H10's attribute table over ATT (L2CAP CID 4; MTU answer 232), and
        notifies about once a second the RR intervals that elapsed (flags 0x10, 0–3 RR each).

          --adapter hciN     controller to use (default: the first one); h10sim powers it on with LE
          --static-address ADDR
                             advertise and accept connections from this static random address
                             (two top bits set, e.g. C4:11:22:33:44:55); default: one derived from
                             the seed, as H10 firmware before mid-2024 does; the controller is
                             powered off to set it
          --public           use the controller's public address instead (newer H10 firmware)
          --conn-update-at SECONDS
                             that long after notifications start, ask for interval 312.5–500 ms,
                             latency 0, timeout 6 s, as Polar straps do about 30 s in; refused, ask
                             twice more 10 s apart, then drop the link with reason 0x3B
          --conn-update-via ll|l2cap
                             how to ask: HCI LE Connection Update (ll, default) or an L2CAP
                             Connection Parameter Update Request on CID 5 (l2cap)
          --drop-during-discovery
                             drop the link when the central first asks for characteristics
          --drop-at primary|characteristics|cccd
                             with --drop-during-discovery: drop at the first primary-service request,
                             the first characteristic request (default) or the CCCD write
          --drop-via mgmt|hci|close|stall
                             how: mgmt Disconnect (default), HCI Disconnect 0x13 on a raw HCI socket,
                             closing the strap's ATT socket and leaving the link to the kernel, or
                             stall: keep the link and never answer that request (the central waits
                             mid-discovery)
          --rr-file PATH     replay RR intervals, one per line in ms; h10sim exits 0 once all are sent
          --day N, --seed S  otherwise: day N of the seeded synthetic person (default day 0, seed 1)
          --stand-at SECONDS the synthetic person stands up then (orthostatic rise)
          --hr-only          notify heart rate without RR intervals (an HR-only strap)
          --dropout T:D      T s after notifications start, drop the link and stop advertising for D s
          --artifacts RATE   chance per beat of a missed or spurious beat (0–1; seeded by --seed)
          --speed F          run the heart F times faster: same RR values, notifications sooner
          --name NAME        advertised name (default "Polar H10 " and 8 hex digits from the seed)
          --battery PERCENT  Battery Level to report (default 87)
          --firmware TEXT    Firmware Revision String (default 3.1.1)
          --quiet            log connections and drop-outs only, not every notification

        Events go to standard output, one per line: advertising, connected, subscribed, notify,
        conn-update (requested, accepted, rejected), dropout, disconnected, done.
        """

    static func parse(_ arguments: [String]) throws(SimulatorError) -> SimulatorOptions {
        var options = SimulatorOptions()
        var rest = arguments[...]
        func value(_ flag: String) throws(SimulatorError) -> String {
            guard let v = rest.popFirst() else { throw .usage("\(flag) needs a value; see h10sim --help.") }
            return v
        }
        func number(_ flag: String, _ text: String, in range: ClosedRange<Double>) throws(SimulatorError) -> Double {
            guard let v = Double(text), range.contains(v) else {
                throw .usage("\(flag) takes a number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\".")
            }
            return v
        }
        while let word = rest.popFirst() {
            switch word {
            case "--adapter":
                let name = try value(word)
                guard name.hasPrefix("hci"), Int(name.dropFirst(3)) != nil else {
                    throw .usage("--adapter takes a controller name such as hci0, not \"\(name)\".")
                }
                options.adapter = name
            case "--static-address":
                let text = try value(word)
                guard let address = BluetoothAddress(text), address.isStaticRandomForm else {
                    throw .usage(
                        "--static-address takes a static random address (first byte C0–FF), not \"\(text)\".")
                }
                options.staticAddress = address
            case "--public": options.publicAddress = true
            case "--conn-update-at": options.connectionUpdateAtS = try number(word, try value(word), in: 0...86_400)
            case "--conn-update-via":
                let text = try value(word)
                guard let via = ConnectionUpdateProcedure(rawValue: text) else {
                    throw .usage("--conn-update-via takes ll or l2cap, not \"\(text)\".")
                }
                options.connectionUpdateVia = via
            case "--drop-during-discovery": options.dropDuringDiscovery = true
            case "--drop-at":
                let text = try value(word)
                guard let at = DiscoveryDropPoint(rawValue: text) else {
                    throw .usage("--drop-at takes primary, characteristics or cccd, not \"\(text)\".")
                }
                options.dropAt = at
            case "--drop-via":
                let text = try value(word)
                guard let via = DiscoveryDropMethod(rawValue: text) else {
                    throw .usage("--drop-via takes mgmt, hci, close or stall, not \"\(text)\".")
                }
                options.dropVia = via
            case "--rr-file": options.rrFile = try value(word)
            case "--seed":
                let text = try value(word)
                guard let seed = UInt64(text) else { throw .usage("--seed takes a whole number, not \"\(text)\".") }
                options.seed = seed
            case "--day": options.day = Int(try number(word, try value(word), in: 0...100_000))
            case "--stand-at": options.standAtS = try number(word, try value(word), in: 0...86_400)
            case "--hr-only": options.heartRateOnly = true
            case "--dropout":
                let text = try value(word)
                let parts = text.split(separator: ":")
                guard parts.count == 2, let at = Double(parts[0]), let length = Double(parts[1]), at >= 0, length > 0
                else { throw .usage("--dropout takes T:D in seconds (for example 20:8), not \"\(text)\".") }
                options.dropouts.append(Dropout(atS: at, forS: length))
            case "--artifacts": options.artifactRate = try number(word, try value(word), in: 0...1)
            case "--speed": options.speed = try number(word, try value(word), in: 0.1...100)
            case "--name":
                let name = try value(word)
                guard !name.isEmpty, name.utf8.count <= 20 else {
                    throw .usage("--name takes 1–20 bytes so that it fits the advertising data.")
                }
                options.name = name
            case "--battery": options.battery = UInt8(try number(word, try value(word), in: 0...100))
            case "--firmware": options.firmware = try value(word)
            case "--quiet": options.quiet = true
            case "-h", "--help": throw .usage(usage)
            default: throw .usage("h10sim: unknown argument \"\(word)\"; see h10sim --help.")
            }
        }
        options.dropouts.sort { $0.atS < $1.atS }
        if options.publicAddress && options.staticAddress != nil {
            throw .usage("--public and --static-address are two different addresses; give one.")
        }
        return options
    }

    /// "Polar H10 " and the device ID, as a real strap's name carries it.
    var advertisedName: String { name ?? "Polar H10 " + deviceID }

    /// The address centrals see: nil for the controller's public one, else a static random one (the
    /// given one, or the seed's: two top bits set, the rest from the seed, never all ones; Core 5.3
    /// Vol 6 Part B §1.3.2.1).
    var randomStaticAddress: BluetoothAddress? {
        if publicAddress { return nil }
        if let staticAddress { return staticAddress }
        var x = seed &* 0xD6E8_FEB8_6659_FD93
        x ^= x >> 32
        var random = x & 0x3FFF_FFFF_FFFF
        if random == 0x3FFF_FFFF_FFFF || random == 0 { random ^= 1 }
        return BluetoothAddress(rawValue: 0xC000_0000_0000 | random)
    }

    /// Eight hex digits derived from the seed (a real H10 prints its ID on the case).
    var deviceID: String {
        var x = seed &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 29
        let hex = String(UInt32(truncatingIfNeeded: x), radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

/// The request at which a strap told to drop mid-discovery goes away.
enum DiscoveryDropPoint: String, Sendable {
    case primary, characteristics, cccd

    /// The ATT opcode of that request (Bluetooth Core 5.3 Vol 3 Part F §3.4): Read By Group Type,
    /// Read By Type, Write Request.
    var opcode: UInt8 {
        switch self {
        case .primary: 0x10
        case .characteristics: 0x08
        case .cccd: 0x12
        }
    }
}

enum DiscoveryDropMethod: String, Sendable {
    /// `stall` keeps the link and leaves that one request unanswered: the central is held mid-discovery.
    case mgmt, hci, close, stall
}
