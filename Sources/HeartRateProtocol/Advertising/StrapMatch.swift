/// Why an advertiser is taken for a heart-rate strap (RecoveryDeck design §5: the name prefix
/// `Polar H10` or the Heart Rate service UUID 0x180D).
public enum StrapMatch: Hashable, Sendable {
    /// The local name starts with "Polar H10".
    case polarH10Name
    /// The Heart Rate service is listed, whatever the name.
    case heartRateService

    public static let namePrefix = "Polar H10"
}

extension AdvertisingData {
    /// The strap match, preferring the name (it identifies an H10 rather than any HR sensor).
    public var strapMatch: StrapMatch? {
        if let name = localName, name.hasPrefix(StrapMatch.namePrefix) { return .polarH10Name }
        if serviceUUIDs.contains(.heartRate) { return .heartRateService }
        return nil
    }

    /// What the virtual strap advertises: general discoverable LE-only flags, the Heart Rate and
    /// Battery services, and the complete name ("Polar H10 1A2B3C4D" fits the 31-octet budget).
    public static func strap(name: String, includeFlags: Bool = true) -> AdvertisingData {
        var fields: [AdvertisingField] = []
        if includeFlags { fields.append(.flags(0x06)) }
        fields.append(.serviceUUIDs16([0x180D, 0x180F], complete: false))
        fields.append(.localName(name))
        return AdvertisingData(fields: fields)
    }
}
