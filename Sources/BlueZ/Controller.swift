import HeartRateProtocol

/// A Bluetooth controller as the management interface describes it (mgmt-api.txt "Read Controller
/// Information Command").
public struct Controller: Hashable, Sendable {
    public var index: ControllerIndex
    public var info: ControllerInfo

    public init(index: ControllerIndex, info: ControllerInfo) {
        self.index = index
        self.info = info
    }

    /// "hci0", as `--adapter` and every Linux tool name it.
    public var name: String { "hci\(index)" }
    public var address: BluetoothAddress { info.address }
    public var isPowered: Bool { info.currentSettings.contains(.powered) }
    public var supportsLowEnergy: Bool { info.supportedSettings.contains(.lowEnergy) }
    public var lowEnergyEnabled: Bool { info.currentSettings.contains(.lowEnergy) }

    /// Parses an adapter name given on the command line: "hci0" → 0.
    public static func index(named name: String) -> ControllerIndex? {
        guard name.hasPrefix("hci"), let n = UInt16(name.dropFirst(3)), n < ControllerIndex.none else { return nil }
        return n
    }
}

extension Controller {
    /// Every controller the kernel has configured, by index.
    public static func all(_ socket: ManagementSocket) throws(BlueZError) -> [Controller] {
        guard case .controllerIndexList(let indexes) = try socket.request(.readControllerIndexList, to: .none) else {
            return []
        }
        var controllers: [Controller] = []
        for index in indexes {
            if case .controllerInfo(let info) = try socket.request(.readControllerInfo, to: index) {
                controllers.append(Controller(index: index, info: info))
            }
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

    /// The controller called `name` ("hci1") or having that address, else the sentence listing the
    /// ones there are.
    public static func named(_ name: String, in controllers: [Controller]) throws(BlueZError) -> Controller {
        let address = BluetoothAddress(name)
        guard let found = controllers.first(where: { $0.name == name || (address != nil && $0.address == address) })
        else {
            throw .adapterNotFound(name: name, available: controllers.map(\.name))
        }
        return found
    }

    /// The choice itself, separate from the I/O so it can be tested.
    static func choose(_ name: String?, from controllers: [Controller], rfkill: [RfkillSwitch]) throws(BlueZError)
        -> Controller
    {
        let chosen: Controller
        if let name {
            chosen = try named(name, in: controllers)
        } else {
            guard let first = controllers.first else { throw .noAdapter }
            chosen =
                controllers.first { $0.isPowered && $0.lowEnergyEnabled } ?? controllers.first { $0.isPowered } ?? first
        }
        if !chosen.isPowered {
            throw Rfkill.block(of: chosen.name, in: rfkill) ?? .adapterPoweredOff(name: chosen.name)
        }
        if !chosen.lowEnergyEnabled { throw .lowEnergyDisabled(name: chosen.name) }
        return chosen
    }
}
