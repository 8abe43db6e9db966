/// Read Controller Information's reply.
public struct ControllerInfo: Hashable, Sendable {
    public var address: BluetoothAddress
    public var bluetoothVersion: UInt8
    public var manufacturer: UInt16
    public var supportedSettings: ControllerSettings
    public var currentSettings: ControllerSettings
    public var classOfDevice: UInt32
    public var name: String
    public var shortName: String

    public init(
        address: BluetoothAddress, bluetoothVersion: UInt8, manufacturer: UInt16, supportedSettings: ControllerSettings,
        currentSettings: ControllerSettings, classOfDevice: UInt32, name: String, shortName: String
    ) {
        self.address = address
        self.bluetoothVersion = bluetoothVersion
        self.manufacturer = manufacturer
        self.supportedSettings = supportedSettings
        self.currentSettings = currentSettings
        self.classOfDevice = classOfDevice
        self.name = name
        self.shortName = shortName
    }
}
