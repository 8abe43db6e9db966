/// What a heart-rate strap says about itself: the values behind its GAP, Battery and Device
/// Information characteristics. The defaults describe a Polar H10.
public struct StrapIdentity: Hashable, Sendable {
    public var deviceName: String
    public var manufacturerName = "Polar Electro Oy"
    public var modelNumber = "H10"
    public var serialNumber: String
    public var hardwareRevision = "39044024.10"
    public var firmwareRevision = "3.1.1"
    public var softwareRevision = "H10 3.1.1"
    public var batteryPercent: UInt8 = 100
    /// Body Sensor Location (HRS 1.0 §3.2): 0x01 chest.
    public var bodySensorLocation: UInt8 = 0x01

    public init(deviceName: String, serialNumber: String) {
        self.deviceName = deviceName
        self.serialNumber = serialNumber
    }

    /// "Polar H10 1A2B3C4D" from the eight-hex-digit device id a real H10 prints on its case.
    public static func polarH10(id: String) -> StrapIdentity {
        StrapIdentity(deviceName: "Polar H10 \(id)", serialNumber: id)
    }
}

/// The handles of the characteristics a strap's server updates or a client needs.
public struct HeartRateStrapHandles: Hashable, Sendable {
    public let heartRateMeasurement: CharacteristicHandles
    public let bodySensorLocation: CharacteristicHandles
    public let batteryLevel: CharacteristicHandles
    public let firmwareRevision: CharacteristicHandles
    public let serviceChanged: CharacteristicHandles
}

/// GAP appearance "Heart Rate Sensor: Heart Rate Belt" (Assigned Numbers §2.6.3, 0x0341).
public let heartRateBeltAppearance: UInt16 = 0x0341

extension AttributeDatabase {
    /// The database of a heart-rate strap: GAP (0x1800), GATT (0x1801), Heart Rate (0x180D),
    /// Battery (0x180F) and Device Information (0x180A), in the order a Polar H10 lists them.
    public static func heartRateStrap(_ identity: StrapIdentity) -> (AttributeDatabase, HeartRateStrapHandles) {
        var db = AttributeDatabase()
        var appearance: [UInt8] = []
        appearance.appendLE(heartRateBeltAppearance)
        db.addService(
            .genericAccess,
            characteristics: [
                CharacteristicDefinition(.deviceName, properties: .read, value: Array(identity.deviceName.utf8)),
                CharacteristicDefinition(.appearance, properties: .read, value: appearance),
            ])
        let (gatt, heartRate) = db.addGATTAndHeartRate(identity)
        let battery = db.addService(
            .battery,
            characteristics: [
                CharacteristicDefinition(.batteryLevel, properties: [.read, .notify], value: [identity.batteryPercent])
            ])
        // Every Device Information characteristic is a readable UTF-8 string.
        let deviceInformation: [(BluetoothUUID, String)] = [
            (.manufacturerNameString, identity.manufacturerName), (.modelNumberString, identity.modelNumber),
            (.serialNumberString, identity.serialNumber), (.hardwareRevisionString, identity.hardwareRevision),
            (.firmwareRevisionString, identity.firmwareRevision), (.softwareRevisionString, identity.softwareRevision),
        ]
        let info = db.addService(
            .deviceInformation,
            characteristics: deviceInformation.map {
                CharacteristicDefinition($0.0, properties: .read, value: Array($0.1.utf8))
            })
        let handles = HeartRateStrapHandles(
            heartRateMeasurement: heartRate[0], bodySensorLocation: heartRate[1], batteryLevel: battery[0],
            firmwareRevision: info[4], serviceChanged: gatt[0])
        return (db, handles)
    }
}

extension AttributeDatabase {
    /// The Generic Attribute service (Service Changed, the whole range) and the Heart Rate service
    /// (measurement, notify only; body sensor location) every strap profile has, in that order. Returns
    /// their characteristics' handle groups.
    mutating func addGATTAndHeartRate(_ identity: StrapIdentity)
        -> (gatt: [CharacteristicHandles], heartRate: [CharacteristicHandles])
    {
        let gatt = addService(
            .genericAttribute,
            characteristics: [
                CharacteristicDefinition(.serviceChanged, properties: .indicate, value: [1, 0, 0xFF, 0xFF])
            ])
        let heartRate = addService(
            .heartRate,
            characteristics: [
                CharacteristicDefinition(.heartRateMeasurement, properties: .notify),
                CharacteristicDefinition(.bodySensorLocation, properties: .read, value: [identity.bodySensorLocation]),
            ])
        return (gatt, heartRate)
    }
}

extension GATTServer {
    /// A strap's server and the handles its driver needs.
    public static func heartRateStrap(_ identity: StrapIdentity, serverRxMTU: UInt16 = 247)
        -> (GATTServer, HeartRateStrapHandles)
    {
        let (db, handles) = AttributeDatabase.heartRateStrap(identity)
        return (GATTServer(database: db, serverRxMTU: serverRxMTU), handles)
    }
}

extension GATTServer {
    /// Notifications carrying `measurement`, its RR list split over as many as ATT_MTU requires
    /// (each repeats the heart rate); empty when the client has not enabled notifications.
    public func notifications(for measurement: HeartRateMeasurement, at valueHandle: UInt16) -> [[UInt8]] {
        guard isNotifying(valueHandle) else { return [] }
        let capacity = max(1, measurement.rrCapacity(attMTU: attMTU))
        var parts: [HeartRateMeasurement] = []
        var rest = measurement.rrIntervals[...]
        repeat {
            var part = measurement
            part.rrIntervals = Array(rest.prefix(capacity))
            rest = rest.dropFirst(capacity)
            parts.append(part)
        } while !rest.isEmpty
        return parts.compactMap { notification($0.encoded(), at: valueHandle) }
    }
}
