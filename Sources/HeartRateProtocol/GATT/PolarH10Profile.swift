/// A real Polar H10's attribute table, handle for handle: services, characteristics and
/// descriptors in the order and at the handles a strap lists them (gatttool `primary` and
/// `char-desc` on an H10 with firmware 3.x, as published in phdiethelm/h10_ecg; the same layout
/// in nRF Connect and bleak dumps). Properties of the undocumented Polar characteristics are
/// what their roles need (the dumps list types only); values outside Heart Rate, Battery and
/// Device Information are placeholders of the right size.
///
///     0x0001–0x0009 GAP 1800: 2A00, 2A01, 2A04, 2AA6
///     0x000A–0x000D GATT 1801: 2A05 (indicate)
///     0x000E–0x0013 Heart Rate 180D: 2A37 notify (value 0x0010, CCCD 0x0011), 2A38
///     0x0014–0x002B User Data 181C: 2A99, 2A9A, 2A9F (indicate), 2A8A, 2A90 (extended
///                   properties), 2A80, 2A8C, 2A98, 2A8E, 2AA2
///     0x002C–0x003A Device Information 180A: 2A29, 2A24, 2A25, 2A27, 2A26, 2A28, 2A23
///     0x003B–0x003E Battery 180F: 2A19 (read, notify)
///     0x003F–0x0044 6217FF4B-…: 6217FF4C, 6217FF4D (notify)
///     0x0045–0x004B PMD FB005C80-…: control point FB005C81 (read, write, indicate), data FB005C82 (notify)
///     0x004C–0xFFFF PFTP FEEE: FB005C51, FB005C52 (notify), FB005C53
public enum PolarH10Profile {
    /// The Rx MTU a real H10 answers an MTU exchange with (gatttool `mtu 256` → 232).
    public static let serverRxMTU: UInt16 = 232
    public static let userData = BluetoothUUID(0x181C)
    public static let pftp = BluetoothUUID(0xFEEE)
    public static let undocumentedService = BluetoothUUID(value: 0x6217FF4B_FB31_1140_AD5A_A45545D7ECF3)
    public static let pmdService = BluetoothUUID(value: 0xFB005C80_02E7_F387_1CAD_8ACD2D8DF0C8)
    public static let pmdControlPoint = BluetoothUUID(value: 0xFB005C81_02E7_F387_1CAD_8ACD2D8DF0C8)
    public static let pmdData = BluetoothUUID(value: 0xFB005C82_02E7_F387_1CAD_8ACD2D8DF0C8)

    /// Polar Electro Oy's company identifier (Bluetooth SIG Assigned Numbers, Company Identifiers).
    public static let polarCompanyID: UInt16 = 0x006B

    /// A real H10's advertisement: incomplete 16-bit service list 180D and FEEE, TX power and
    /// Polar's manufacturer data (the kernel adds the flags, 0x06); its name is only in the scan
    /// response. The manufacturer data's bytes and the TX power are placeholders of the right size.
    public static let advertisement = AdvertisingData(fields: [
        .serviceUUIDs16([0x180D, 0xFEEE], complete: false), .txPowerLevel(0),
        .manufacturerData(companyID: polarCompanyID, data: [0x3F, 0x00, 0x00, 0x00]),
    ])

    /// The scan response: the complete local name, "Polar H10 " and the device ID.
    public static func scanResponse(name: String) -> AdvertisingData {
        AdvertisingData(fields: [.localName(name, complete: true)])
    }

    /// The values a real H10 reports in Device Information (firmware 5.0.0 units): the serial
    /// number is the device ID printed on the case.
    public static func identity(id: String) -> StrapIdentity {
        var identity = StrapIdentity.polarH10(id: id)
        identity.hardwareRevision = "00760690.03"
        identity.firmwareRevision = "5.0.0"
        identity.softwareRevision = "3.1.1"
        return identity
    }
}

extension AttributeDatabase {
    /// The attribute table of a real Polar H10 (see `PolarH10Profile`), with `identity`'s values.
    public static func polarH10(_ identity: StrapIdentity) -> (AttributeDatabase, HeartRateStrapHandles) {
        var db = AttributeDatabase()
        func read(_ uuid: UInt16, _ value: [UInt8] = [0]) -> CharacteristicDefinition {
            CharacteristicDefinition(BluetoothUUID(uuid), properties: .read, value: value)
        }
        func text(_ uuid: UInt16, _ value: String) -> CharacteristicDefinition { read(uuid, Array(value.utf8)) }
        func vendor(_ value: UInt128, _ properties: CharacteristicProperties) -> CharacteristicDefinition {
            CharacteristicDefinition(BluetoothUUID(value: value), properties: properties, value: [0])
        }
        var appearance: [UInt8] = []
        appearance.appendLE(heartRateBeltAppearance)
        // 2A04's value is not in the dumps; the parameters the strap later asks for stand in.
        var preferred: [UInt8] = []
        for v: UInt16 in [250, 400, 0, 600] { preferred.appendLE(v) }
        db.addService(
            .genericAccess,
            characteristics: [
                text(0x2A00, identity.deviceName), read(0x2A01, appearance), read(0x2A04, preferred),
                read(0x2AA6, [0]),
            ])
        let (gatt, heartRate) = db.addGATTAndHeartRate(identity)
        let extended = [DescriptorDefinition(BluetoothUUID(0x2900), value: [0, 0])]
        db.addService(
            PolarH10Profile.userData,
            characteristics: [
                CharacteristicDefinition(BluetoothUUID(0x2A99), properties: [.read, .write], value: [0, 0, 0, 0]),
                read(0x2A9A, [0xFF]),
                CharacteristicDefinition(BluetoothUUID(0x2A9F), properties: [.write, .indicate]),
                CharacteristicDefinition(BluetoothUUID(0x2A8A), properties: [.read, .write], descriptors: extended),
                CharacteristicDefinition(BluetoothUUID(0x2A90), properties: [.read, .write], descriptors: extended),
                CharacteristicDefinition(BluetoothUUID(0x2A80), properties: [.read, .write], value: [0]),
                CharacteristicDefinition(BluetoothUUID(0x2A8C), properties: [.read, .write], value: [0]),
                CharacteristicDefinition(BluetoothUUID(0x2A98), properties: [.read, .write], value: [0, 0]),
                CharacteristicDefinition(BluetoothUUID(0x2A8E), properties: [.read, .write], value: [0, 0]),
                CharacteristicDefinition(BluetoothUUID(0x2AA2), properties: [.read, .write], value: Array("en".utf8)),
            ])
        let info = db.addService(
            .deviceInformation,
            characteristics: [
                text(0x2A29, identity.manufacturerName), text(0x2A24, identity.modelNumber),
                text(0x2A25, identity.serialNumber), text(0x2A27, identity.hardwareRevision),
                text(0x2A26, identity.firmwareRevision), text(0x2A28, identity.softwareRevision),
                read(0x2A23, [UInt8](repeating: 0, count: 8)),
            ])
        let battery = db.addService(
            .battery,
            characteristics: [
                CharacteristicDefinition(.batteryLevel, properties: [.read, .notify], value: [identity.batteryPercent])
            ])
        db.addService(
            PolarH10Profile.undocumentedService,
            characteristics: [
                vendor(0x6217FF4C_C8EC_B1FB_1380_3AD986708E2D, [.read, .write]),
                vendor(0x6217FF4D_91BB_91D0_7E2A_7CD3BDA8A1F3, .notify),
            ])
        db.addService(
            PolarH10Profile.pmdService,
            characteristics: [
                vendor(0xFB005C81_02E7_F387_1CAD_8ACD2D8DF0C8, [.read, .write, .indicate]),
                vendor(0xFB005C82_02E7_F387_1CAD_8ACD2D8DF0C8, .notify),
            ])
        db.addService(
            PolarH10Profile.pftp,
            characteristics: [
                vendor(0xFB005C51_02E7_F387_1CAD_8ACD2D8DF0C8, [.writeWithoutResponse, .notify]),
                vendor(0xFB005C52_02E7_F387_1CAD_8ACD2D8DF0C8, .notify),
                vendor(0xFB005C53_02E7_F387_1CAD_8ACD2D8DF0C8, .writeWithoutResponse),
            ], groupEnd: 0xFFFF)
        let handles = HeartRateStrapHandles(
            heartRateMeasurement: heartRate[0], bodySensorLocation: heartRate[1], batteryLevel: battery[0],
            firmwareRevision: info[4], serviceChanged: gatt[0])
        return (db, handles)
    }
}
