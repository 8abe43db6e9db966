/// A Device Found report: one advertisement or scan response seen during discovery.
public struct DeviceFound: Hashable, Sendable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    /// dBm; nil when the kernel reports 127, "not available".
    public var rssi: Int8?
    public var flags: DeviceFoundFlags
    /// The raw advertising (EIR) octets; read them with `advertisingData()`.
    public var eir: [UInt8]

    public init(
        address: BluetoothAddress, addressType: BluetoothAddressType, rssi: Int8?, flags: DeviceFoundFlags,
        eir: [UInt8]
    ) {
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.flags = flags
        self.eir = eir
    }

    /// The advertising data; a malformed block is this report's own problem (the address and
    /// RSSI are still good), so it is read on demand.
    public func advertisingData() throws(AdvertisingDataError) -> AdvertisingData {
        try AdvertisingData(bytes: eir)
    }
}
