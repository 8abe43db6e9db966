import HeartRateProtocol

/// Commands that change a controller, for the virtual strap and set-up tools (each waits for the
/// kernel's reply; see `request`). They need `CAP_NET_ADMIN`.
extension ManagementSocket {
    public func setPowered(_ on: Bool, controller index: ControllerIndex) throws(BlueZError) {
        _ = try request(.setPowered(on), to: index, timeoutMs: 10_000)
    }

    public func setLowEnergy(_ on: Bool, controller index: ControllerIndex) throws(BlueZError) {
        _ = try request(.setLowEnergy(on), to: index)
    }

    /// Gives an LE-only controller a static random address (it must be powered off); advertising and
    /// connections then use it, as older Polar H10 firmware does (DESIGN §5).
    public func setStaticAddress(_ address: BluetoothAddress, controller index: ControllerIndex) throws(BlueZError) {
        _ = try request(.setStaticAddress(address), to: index)
    }

    /// Connectable, general-discoverable advertising of `data` (the kernel adds the LE flags field).
    /// `scanResponse` goes to scanners that ask (a Polar H10 puts its name there).
    public func addAdvertising(
        instance: UInt8, data: AdvertisingData, scanResponse: AdvertisingData = AdvertisingData(fields: []),
        controller index: ControllerIndex
    ) throws(BlueZError) {
        let advertising = AdvertisingInstance(
            instance: instance, flags: [.connectable, .discoverable], advertisingData: data.encoded(),
            scanResponse: scanResponse.encoded())
        _ = try request(.addAdvertising(advertising), to: index)
    }

    /// Instance 0 removes all.
    public func removeAdvertising(instance: UInt8, controller index: ControllerIndex) throws(BlueZError) {
        _ = try request(.removeAdvertising(instance: instance), to: index)
    }

    /// Ends the link to `address`, waiting until it is down.
    public func disconnect(_ address: BluetoothAddress, type: BluetoothAddressType, controller index: ControllerIndex)
        throws(BlueZError)
    {
        _ = try request(.disconnect(address, type), to: index)
    }
}

extension ManagementSocket {
    /// Loads `entries` and waits for the kernel's answer (for the command line; the daemon's link
    /// sends the command and reads the reply in its loop).
    public func loadConnectionParameters(_ entries: [DeviceConnectionParameters], controller index: ControllerIndex)
        throws(BlueZError)
    {
        _ = try request(.loadConnectionParameters(entries), to: index)
    }
}
