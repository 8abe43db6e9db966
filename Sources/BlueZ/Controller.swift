import HeartRateProtocol

/// A Bluetooth controller as the management interface describes it (mgmt-api.txt "Read Controller
/// Information Command").
public struct Controller: Hashable, Sendable {
    public var index: UInt16
    public var address: BluetoothAddress
    public var supportedSettings: UInt32
    public var currentSettings: UInt32
    public var localName: String

    /// Settings bits (mgmt-api.txt "Current_Settings").
    static let poweredBit: UInt32 = 1 << 0
    static let lowEnergyBit: UInt32 = 1 << 9

    public init(index: UInt16, address: BluetoothAddress, supportedSettings: UInt32, currentSettings: UInt32, localName: String) {
        self.index = index
        self.address = address
        self.supportedSettings = supportedSettings
        self.currentSettings = currentSettings
        self.localName = localName
    }

    /// "hci0", as `--adapter` and every Linux tool name it.
    public var name: String { "hci\(index)" }
    public var isPowered: Bool { currentSettings & Self.poweredBit != 0 }
    public var supportsLowEnergy: Bool { supportedSettings & Self.lowEnergyBit != 0 }
    public var lowEnergyEnabled: Bool { currentSettings & Self.lowEnergyBit != 0 }

    /// Parses a Read Controller Information reply: address (6), version (1), manufacturer (2),
    /// supported settings (4), current settings (4), class of device (3), name (249), short name (11).
    init?(index: UInt16, reply: [UInt8]) {
        guard reply.count >= 20, let address = BluetoothAddress(littleEndian: Array(reply[0..<6])) else { return nil }
        self.index = index
        self.address = address
        supportedSettings = reply.u32(at: 9)
        currentSettings = reply.u32(at: 13)
        let name = reply.count > 20 ? reply[20...].prefix(249).prefix { $0 != 0 } : []
        localName = String(decoding: name, as: UTF8.self)
    }

    /// Parses an adapter name given on the command line: "hci0" → 0.
    public static func index(named name: String) -> UInt16? {
        guard name.hasPrefix("hci"), let n = UInt16(name.dropFirst(3)), n < 0xFFFF else { return nil }
        return n
    }
}

extension Controller {
    /// Every controller the kernel has configured, by index.
    public static func all(_ socket: ManagementSocket) throws(BlueZError) -> [Controller] {
        let list = try socket.request(ManagementOpcode.readControllerIndexList, index: ManagementPacket.noIndex)
        guard list.count >= 2 else { return [] }
        let count = Int(list.u16(at: 0))
        guard list.count >= 2 + 2 * count else { return [] }
        var controllers: [Controller] = []
        for i in 0..<count {
            let index = list.u16(at: 2 + 2 * i)
            let reply = try socket.request(ManagementOpcode.readControllerInformation, index: index)
            if let controller = Controller(index: index, reply: reply) { controllers.append(controller) }
        }
        return controllers.sorted { $0.index < $1.index }
    }

    /// The controller to use: the one named (`--adapter hciN`), else the first powered one with Low
    /// Energy on. Refuses, with what to do, a controller that is missing, blocked by rfkill, powered
    /// off or without LE.
    public static func select(
        _ name: String?, socket: ManagementSocket, rfkillRoot: String = Rfkill.defaultRoot
    ) throws(BlueZError) -> Controller {
        try choose(name, from: try all(socket), rfkill: Rfkill.switches(root: rfkillRoot))
    }

    /// The choice itself, separate from the I/O so it can be tested.
    static func choose(_ name: String?, from controllers: [Controller], rfkill: [RfkillSwitch]) throws(BlueZError)
        -> Controller
    {
        let chosen: Controller
        if let name {
            guard let found = controllers.first(where: { $0.name == name }) else {
                throw .adapterNotFound(name: name, available: controllers.map(\.name))
            }
            chosen = found
        } else {
            guard let first = controllers.first else { throw .noAdapter }
            chosen = controllers.first { $0.isPowered && $0.lowEnergyEnabled } ?? controllers.first { $0.isPowered } ?? first
        }
        if !chosen.isPowered {
            throw Rfkill.block(of: chosen.name, in: rfkill) ?? .adapterPoweredOff(name: chosen.name)
        }
        if !chosen.lowEnergyEnabled { throw .lowEnergyDisabled(name: chosen.name) }
        return chosen
    }
}
