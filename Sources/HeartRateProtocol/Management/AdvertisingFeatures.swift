/// Read Advertising Features' reply.
public struct AdvertisingFeatures: Hashable, Sendable {
    public var supportedFlags: AdvertisingFlags
    public var maxAdvertisingDataLength: UInt8
    public var maxScanResponseLength: UInt8
    public var maxInstances: UInt8
    public var instances: [UInt8]

    public init(
        supportedFlags: AdvertisingFlags, maxAdvertisingDataLength: UInt8, maxScanResponseLength: UInt8,
        maxInstances: UInt8, instances: [UInt8]
    ) {
        self.supportedFlags = supportedFlags
        self.maxAdvertisingDataLength = maxAdvertisingDataLength
        self.maxScanResponseLength = maxScanResponseLength
        self.maxInstances = maxInstances
        self.instances = instances
    }
}
