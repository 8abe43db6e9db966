import HeartRateProtocol

/// Commands that change a controller, for the virtual strap and set-up tools (each waits for the
/// kernel's reply; see `request`). They need `CAP_NET_ADMIN`.
extension ManagementSocket {
    /// Set Powered (mgmt-api.txt): 1 on, 0 off.
    public func setPowered(_ on: Bool, controller index: UInt16) throws(BlueZError) {
        _ = try request(ManagementOpcode.setPowered, index: index, [on ? 1 : 0], timeoutMs: 10_000)
    }

    /// Set Low Energy (mgmt-api.txt).
    public func setLowEnergy(_ on: Bool, controller index: UInt16) throws(BlueZError) {
        _ = try request(ManagementOpcode.setLowEnergy, index: index, [on ? 1 : 0])
    }

    /// Add Advertising (mgmt-api.txt): instance 1..n, connectable, the kernel adding the LE flags
    /// field (general discoverable, no BR/EDR), `data` after it (at most 28 octets then).
    public func addAdvertising(instance: UInt8, data: AdvertisingData, controller index: UInt16) throws(BlueZError) {
        let bytes = data.encoded()
        // Flags: bit 0 switch into connectable mode, bit 1 advertise as discoverable.
        var parameters: [UInt8] = [instance]
        parameters.appendLE(UInt32(0x0000_0003))
        parameters.appendLE(UInt16(0))  // duration: the controller's default
        parameters.appendLE(UInt16(0))  // timeout: none
        parameters.append(UInt8(bytes.count))
        parameters.append(0)  // no scan response data
        parameters += bytes
        _ = try request(ManagementOpcode.addAdvertising, index: index, parameters)
    }

    /// Remove Advertising (mgmt-api.txt); instance 0 removes all.
    public func removeAdvertising(instance: UInt8, controller index: UInt16) throws(BlueZError) {
        _ = try request(ManagementOpcode.removeAdvertising, index: index, [instance])
    }

    /// Disconnect (mgmt-api.txt): ends the link to `address`, waiting until it is down.
    public func disconnect(_ address: BluetoothAddress, type: BluetoothAddressType, controller index: UInt16)
        throws(BlueZError)
    {
        _ = try request(ManagementOpcode.disconnect, index: index, address.littleEndianBytes + [type.rawValue])
    }
}
