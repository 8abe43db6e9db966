/// One advertising instance for Add Advertising.
public struct AdvertisingInstance: Hashable, Sendable {
    /// 1…254 (0 is reserved).
    public var instance: UInt8
    public var flags: AdvertisingFlags
    /// Seconds per round-robin turn when several instances exist; 0 = default (2 s).
    public var durationSeconds: UInt16
    /// Lifetime in seconds; 0 = until removed.
    public var timeoutSeconds: UInt16
    public var advertisingData: [UInt8]
    public var scanResponse: [UInt8]

    public init(
        instance: UInt8 = 1, flags: AdvertisingFlags, durationSeconds: UInt16 = 0, timeoutSeconds: UInt16 = 0,
        advertisingData: [UInt8], scanResponse: [UInt8] = []
    ) {
        self.instance = instance
        self.flags = flags
        self.durationSeconds = durationSeconds
        self.timeoutSeconds = timeoutSeconds
        self.advertisingData = advertisingData
        self.scanResponse = scanResponse
    }
}
