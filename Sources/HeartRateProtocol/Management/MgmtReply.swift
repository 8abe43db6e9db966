/// A Command Complete's return parameters, decoded for the commands the box sends. A failed
/// command's parameters, and those of commands not listed, stay `.raw`.
public enum MgmtReply: Hashable, Sendable {
    case none
    case version(version: UInt8, revision: UInt16)
    case controllerIndexList([ControllerIndex])
    case controllerInfo(ControllerInfo)
    /// Set Powered / Discoverable / Connectable / Bondable / Low Energy / Advertising.
    case settings(ControllerSettings)
    case localName(name: String, shortName: String)
    /// Disconnect.
    case address(BluetoothAddress, BluetoothAddressType)
    /// Start / Stop Discovery.
    case discovery(DiscoveryAddressTypes)
    case advertisingFeatures(AdvertisingFeatures)
    /// Add / Remove Advertising.
    case advertisingInstance(UInt8)
    /// Set Appearance and Load Connection Parameters have no return parameters; others are kept as received.
    case raw([UInt8])
}
