/// The assigned numbers the box and the virtual strap use (Bluetooth SIG Assigned Numbers §3.4–3.8).
extension BluetoothUUID {
    // Declarations (GATT attribute types).
    public static let primaryService = BluetoothUUID(0x2800)
    public static let secondaryService = BluetoothUUID(0x2801)
    public static let include = BluetoothUUID(0x2802)
    public static let characteristic = BluetoothUUID(0x2803)
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)

    // Services.
    public static let genericAccess = BluetoothUUID(0x1800)
    public static let genericAttribute = BluetoothUUID(0x1801)
    public static let deviceInformation = BluetoothUUID(0x180A)
    public static let heartRate = BluetoothUUID(0x180D)
    public static let battery = BluetoothUUID(0x180F)

    // Characteristics.
    public static let deviceName = BluetoothUUID(0x2A00)
    public static let appearance = BluetoothUUID(0x2A01)
    public static let peripheralPreferredConnectionParameters = BluetoothUUID(0x2A04)
    public static let serviceChanged = BluetoothUUID(0x2A05)
    public static let batteryLevel = BluetoothUUID(0x2A19)
    public static let systemID = BluetoothUUID(0x2A23)
    public static let modelNumberString = BluetoothUUID(0x2A24)
    public static let serialNumberString = BluetoothUUID(0x2A25)
    public static let firmwareRevisionString = BluetoothUUID(0x2A26)
    public static let hardwareRevisionString = BluetoothUUID(0x2A27)
    public static let softwareRevisionString = BluetoothUUID(0x2A28)
    public static let manufacturerNameString = BluetoothUUID(0x2A29)
    public static let heartRateMeasurement = BluetoothUUID(0x2A37)
    public static let bodySensorLocation = BluetoothUUID(0x2A38)
}
