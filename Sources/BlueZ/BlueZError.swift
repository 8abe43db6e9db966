import HeartRateProtocol
import Platform

/// What went wrong at the Bluetooth edge, each case told to the person as one sentence that says
/// what to do (RecoveryDeck spec §13 "Error catalog": the person must be able to act on it).
public enum BlueZError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kernel has no Bluetooth sockets at all (`EAFNOSUPPORT`).
    case bluetoothUnsupported
    /// No controller is known to the kernel.
    case noAdapter
    /// `--adapter hciN` names a controller that does not exist.
    case adapterNotFound(name: String, available: [String])
    /// The controller exists but an rfkill switch blocks it (`name` empty when the kernel did not
    /// say which).
    case rfkillBlocked(name: String, hard: Bool)
    /// The controller exists but is powered off.
    case adapterPoweredOff(name: String)
    /// The controller is powered but Low Energy is turned off.
    case lowEnergyDisabled(name: String)
    /// The management interface refused a command for want of `CAP_NET_ADMIN`.
    case missingCapability(command: String)
    /// The strap did not answer a connection attempt in time: out of range, asleep, or held by
    /// another central (the H10 takes one connection by default; DESIGN §5).
    case strapUnreachable(address: BluetoothAddress, seconds: Int)
    /// Another program on this box already holds the strap's ATT channel.
    case attChannelBusy(address: BluetoothAddress)
    /// A scan found no strap.
    case noStrapFound(seconds: Int)
    /// A scan found several straps and none was chosen.
    case severalStraps(count: Int)
    /// The controller answered a management command with a failure status.
    case managementFailure(command: String, status: MgmtStatus)
    /// The controller did not answer a management command.
    case managementTimeout(command: String)
    /// The strap's GATT database lacks the Heart Rate Measurement characteristic.
    case noHeartRateService(address: BluetoothAddress)
    /// Any other failed system call.
    case system(call: String, errno: Errno)

    public var description: String {
        switch self {
        case .bluetoothUnsupported:
            "This kernel offers no Bluetooth sockets: load the driver with `modprobe bluetooth` (and check "
                + "that the board's Bluetooth is enabled in its firmware configuration)."
        case .noAdapter:
            "No Bluetooth adapter found: check that the controller is attached and its driver loaded "
                + "(`btmgmt info` lists the adapters the kernel knows)."
        case .adapterNotFound(let name, let available):
            available.isEmpty
                ? "There is no Bluetooth adapter \(name) and none at all: check the controller and its driver."
                : "There is no Bluetooth adapter \(name): use --adapter with one of "
                    + available.joined(separator: ", ") + "."
        case .rfkillBlocked(let name, let hard):
            // The kernel's ERFKILL on a socket does not say which adapter: then say "Bluetooth".
            {
                let subject = name.isEmpty ? "Bluetooth" : "Bluetooth adapter \(name)"
                return hard
                    ? "\(subject) is switched off by a hardware switch (rfkill hard block): turn the switch on and "
                        + "try again."
                    : "\(subject) is blocked by rfkill: run `rfkill unblock bluetooth` and try again."
            }()
        case .adapterPoweredOff(let name):
            "Bluetooth adapter \(name) is powered off: run `bluetoothctl power on` (or `btmgmt -i \(name) power on`) "
                + "and try again."
        case .lowEnergyDisabled(let name):
            "Bluetooth adapter \(name) has Low Energy turned off: run `btmgmt -i \(name) le on` and try again."
        case .missingCapability(let command):
            "Bluetooth \(command) needs the CAP_NET_ADMIN capability: run as root or give the binary "
                + "cap_net_admin (`sudo setcap cap_net_admin+ep $(command -v recoverydeck)`)."
        case .strapUnreachable(let address, let seconds):
            "The strap \(address) did not answer within \(seconds) s: the strap may be connected to a phone app "
                + "(close Polar Beat, Elite HRV or similar), out of range, or asleep — wear it with moistened "
                + "electrodes to wake it."
        case .attChannelBusy(let address):
            "Another program on this box is already connected to the strap \(address) (a measurement under way, "
                + "or bluetoothd): wait for it to end, or run `bluetoothctl disconnect \(address)`, and try again."
        case .noStrapFound(let seconds):
            "No Polar H10 found in \(seconds) s: wear the strap with moistened electrodes (it sleeps off-body), "
                + "and disconnect it from phone apps, which make it invisible."
        case .severalStraps(let count):
            "\(count) straps are in range: run `recoverydeck pair ADDRESS` with the address of yours."
        case .managementFailure(let command, let status):
            "The Bluetooth adapter refused \(command) (\(status)): check `btmgmt info` and the kernel log "
                + "(`dmesg`)."
        case .managementTimeout(let command):
            "The Bluetooth adapter did not answer \(command): check `dmesg` for controller errors and restart "
                + "Bluetooth (`systemctl restart bluetooth`)."
        case .noHeartRateService(let address):
            "The device \(address) has no Heart Rate service: pair a Polar H10 instead (`recoverydeck scan`)."
        case .system(let call, let errno):
            "Bluetooth \(call) failed (\(errno)): check `dmesg` for Bluetooth errors and try again."
        }
    }
}
