import BlueZ
import HeartRateProtocol
import Platform
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// `--adapter hciN`, shared by the Bluetooth commands, and what they do with it: open the
/// management channel and pick the controller (default: the first powered one).
enum AdapterOption {
    static let spec = OptionSpec.value(
        "adapter", "hciN", help: "The Bluetooth controller to use. Default: the first powered one.")

    static func parse(_ parsed: ParsedArguments) throws(CommandError) -> String? {
        guard let name = parsed.value("adapter") else { return nil }
        guard Controller.index(named: name) != nil else {
            throw .usage("--adapter takes a controller name such as hci0, not \(quoted(name)).")
        }
        return name
    }

    /// The management channel and the chosen controller, or the sentence saying what to do. Opened with
    /// the invoker's own rights: the kernel trusts the channel only for a process holding CAP_NET_ADMIN
    /// when it binds, which root acting as the box's owner does not hold.
    static func open(_ name: String?) throws(CommandError) -> (ManagementSocket, Controller) {
        try ProcessIdentity.asInvoker { () throws(CommandError) -> (ManagementSocket, Controller) in
            do throws(BlueZError) {
                let socket = try ManagementSocket()
                return (socket, try Controller.select(name, socket: socket))
            } catch {
                throw .failure(error.description)
            }
        }
    }
}

/// The address options of `strap` and `pair`.
enum StrapAddressOption {
    static let typeSpec = OptionSpec.value(
        "address-type", "public|random",
        help: "The strap's address type. Default: from pairing, else guessed from the address "
            + "(random static addresses start with C0–FF).")

    static func address(_ text: String, what: String) throws(CommandError) -> BluetoothAddress {
        guard let address = BluetoothAddress(text) else {
            throw .usage("\(what) \(quoted(text)) is not a Bluetooth address such as A0:9E:1A:12:34:56.")
        }
        return address
    }

    static func type(_ parsed: ParsedArguments) throws(CommandError) -> BluetoothAddressType? {
        try parsed.choice("address-type", of: BluetoothAddressType.words).flatMap(BluetoothAddressType.init(word:))
    }

    static func type(settingValue: String?) -> BluetoothAddressType? {
        settingValue.flatMap(BluetoothAddressType.init(word:))
    }
}
