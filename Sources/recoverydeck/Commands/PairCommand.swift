import BlueZ
import HeartRateProtocol
import Store

/// `recoverydeck pair`: remembers one strap, so that mornings connect to it directly, without
/// scanning (DESIGN §5).
struct PairCommand: Command {
    static let name = "pair"
    static let summary = "Remember the strap to measure with; mornings then connect to it directly."
    static let synopsis: String? = "[ADDRESS] [--address-type public|random] [--seconds N] [--adapter hciN]"
    static let discussion = """
        With an address, remembers that strap. Without one, scans (wear the strap, close phone apps
        that hold it) and remembers the only strap found; when several are in range, lists them and
        asks on a terminal, or exits 1 so you can give the address. Pairing again replaces the
        strap. No Bluetooth bonding is involved: the Heart Rate service needs none.
        """
    static let options: [OptionSpec] = [
        StrapAddressOption.typeSpec,
        .value("seconds", "N", help: "How long to scan when no address is given (1 to 120). Default: 10."),
        AdapterOption.spec,
    ]
    static let arguments = [
        ArgumentSpec("ADDRESS", help: "The strap's address, as `recoverydeck scan` shows it.", optional: true)
    ]

    let address: BluetoothAddress?
    let addressType: BluetoothAddressType?
    let seconds: Int
    let adapter: String?

    init(_ parsed: ParsedArguments) throws(CommandError) {
        address = try parsed.positional(0).map { (text) throws(CommandError) in
            try StrapAddressOption.address(text, what: "ADDRESS")
        }
        addressType = try StrapAddressOption.type(parsed)
        seconds = try parsed.integer("seconds", in: 1...120) ?? 10
        adapter = try AdapterOption.parse(parsed)
    }

    func validate() throws(CommandError) {
        if address == nil && addressType != nil {
            throw .usage("--address-type goes with an ADDRESS; a scan learns the type by itself.")
        }
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let chosen: (address: BluetoothAddress, type: BluetoothAddressType, name: String?)
        if let address {
            chosen = (address, addressType ?? address.guessedType, nil)
        } else {
            context.say("Scanning for \(seconds) s; wear the strap with moistened electrodes…")
            let found = try ScanCommand.scan(adapter: adapter, seconds: seconds, context: context)
            let straps =
                found.filter { $0.match == .polarH10Name }.isEmpty ? found : found.filter { $0.match == .polarH10Name }
            guard !straps.isEmpty else {
                throw CommandError.failure(BlueZError.noStrapFound(seconds: seconds).description)
            }
            var pick = straps[0]
            if straps.count > 1 {
                context.out(ScanCommand.table(straps))
                guard context.inputIsTerminal else {
                    throw CommandError.failure(BlueZError.severalStraps(count: straps.count).description)
                }
                pick = try Self.ask(context, among: straps)
            }
            chosen = (pick.address, pick.addressType, pick.name)
        }
        try store.updateSettings([.strapAddress, .strapAddressType]) {
            $0.strapAddress = chosen.address.description
            $0.strapAddressType = chosen.type.word
        }
        let label = chosen.name.map { "\($0) (\(chosen.address))" } ?? chosen.address.description
        context.out("Paired with \(label), \(chosen.type.word) address.")
        Self.loadConnectionParameters(adapter: adapter, strap: chosen.address, type: chosen.type, context: context)
    }

    /// Loads the strap's connection parameters now, so a link opened before the daemon's next one
    /// (bluetoothd's, say) already accepts the strap's request. Best effort: the daemon loads them
    /// again before every connection, and the kernel forgets them at a reboot.
    static func loadConnectionParameters(
        adapter: String?, strap: BluetoothAddress, type: BluetoothAddressType, context: Context
    ) {
        guard let parameters = context.strapParameters, let (socket, controller) = try? AdapterOption.open(adapter)
        else { return }
        let entry = DeviceConnectionParameters(address: strap, addressType: type, parameters: parameters)
        if (try? socket.loadConnectionParameters([entry], controller: controller.index)) != nil {
            context.say("Connection parameters for the strap loaded on \(controller.name) (\(parameters)).")
        }
    }

    private static func ask(_ context: Context, among straps: [StrapCandidate]) throws -> StrapCandidate {
        for (i, strap) in straps.enumerated() { context.say("\(i + 1)) \(strap.name ?? "?") \(strap.address)") }
        guard let answer = context.ask("Which strap (1–\(straps.count))? "), let n = Int(answer),
            (1...straps.count).contains(n)
        else { throw CommandError.failure("No strap chosen; nothing was changed.") }
        return straps[n - 1]
    }
}
