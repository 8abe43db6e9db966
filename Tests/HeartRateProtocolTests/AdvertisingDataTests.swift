import Testing

@testable import HeartRateProtocol

@Suite("Advertising data (Core 5.3 Vol 3 Part C §11, Supplement Part A)")
struct AdvertisingDataTests {
    /// Assembled per Supplement Part A: flags 0x06, incomplete 16-bit UUID list {0x180D},
    /// complete name "Polar H10 1A2B3C4D", TX power −4 dBm, manufacturer 0x006B (Polar) data 01 02.
    static let strapAdvert = hex(
        """
        02 01 06 03 02 0D 18 13 09 50 6F 6C 61 72 20 48 31 30 20 31 41 32 42 33 43 34 44
        02 0A FC 05 FF 6B 00 01 02
        """)

    @Test("Supplement Part A §1.1–1.5: flags, UUIDs, name, TX power and maker data are read")
    func fields() throws {
        let ad = try AdvertisingData(bytes: Self.strapAdvert)
        #expect(ad.flags == 0x06)
        #expect(ad.serviceUUIDs == [.heartRate])
        #expect(ad.localName == "Polar H10 1A2B3C4D")
        #expect(ad.txPowerLevel == -4)
        #expect(ad.manufacturerData.count == 1)
        #expect(ad.manufacturerData.first?.companyID == 0x006B)
        #expect(ad.manufacturerData.first?.data == [1, 2])
        #expect(ad.strapMatch == .polarH10Name)
    }

    @Test("Supplement Part A §1.1: 128-bit and 32-bit UUID lists, the 128-bit form of 0x180D matches")
    func longUUIDs() throws {
        // 0000180D-0000-1000-8000-00805F9B34FB little-endian, then a 32-bit list {0x0000180F}.
        let bytes = hex("11 07 FB 34 9B 5F 80 00 00 80 00 10 00 00 0D 18 00 00 05 05 0F 18 00 00")
        let ad = try AdvertisingData(bytes: bytes)
        #expect(ad.serviceUUIDs == [.heartRate, .battery])
        #expect(ad.strapMatch == .heartRateService)
        #expect(BluetoothUUID.heartRate.description == "0x180D")
        #expect(BluetoothUUID(littleEndian: Array(bytes[2..<18]))?.uuid16 == 0x180D)
    }

    @Test("RecoveryDeck design §5: a strap is matched by the Polar H10 name prefix or 0x180D, nothing else")
    func matcher() throws {
        #expect(AdvertisingData(fields: [.localName("Polar H10 ABCD", complete: false)]).strapMatch == .polarH10Name)
        #expect(AdvertisingData(fields: [.serviceUUIDs16([0x180D], complete: true)]).strapMatch == .heartRateService)
        #expect(AdvertisingData(fields: [.localName("Polar OH1 1234", complete: true)]).strapMatch == nil)
        #expect(AdvertisingData(fields: [.serviceUUIDs16([0x180F, 0x180A], complete: true)]).strapMatch == nil)
        #expect(AdvertisingData(fields: []).strapMatch == nil)
        // The name arrives in a scan response: merged with the advert it still matches by name.
        let advert = AdvertisingData(fields: [.flags(0x06)])
        let response = AdvertisingData(fields: [.localName("Polar H10 77", complete: true)])
        #expect(advert.merged(with: response).strapMatch == .polarH10Name)
    }

    @Test("Core 5.3 Vol 3 Part C §11: a zero length octet ends the data, padding is ignored")
    func padding() throws {
        let ad = try AdvertisingData(bytes: hex("02 01 06 00 00 00 FF FF"))
        #expect(ad.fields == [.flags(6)])
    }

    @Test("Core 5.3 Vol 3 Part C §11: a structure running past the end or an impossible field is rejected")
    func rejections() {
        #expect(throws: AdvertisingDataError.truncated(offset: 3, declared: 5, available: 2)) {
            try AdvertisingData(bytes: hex("02 01 06 05 09 41"))
        }
        #expect(throws: AdvertisingDataError.badFieldLength(offset: 0, type: 0x03, length: 3)) {
            try AdvertisingData(bytes: hex("04 03 0D 18 0F"))
        }
        #expect(throws: AdvertisingDataError.badFieldLength(offset: 0, type: 0x0A, length: 2)) {
            try AdvertisingData(bytes: hex("03 0A FC 00"))
        }
        #expect(throws: AdvertisingDataError.badFieldLength(offset: 0, type: 0xFF, length: 1)) {
            try AdvertisingData(bytes: hex("02 FF 6B"))
        }
    }

    @Test("Core 5.3 Vol 3 Part C §11: every prefix of an advert is rejected or read consistently")
    func bytewise() {
        expectPrefixesConsistent(Self.strapAdvert, decode: AdvertisingData.init(bytes:), encode: { $0.encoded() })
    }

    @Test("The virtual strap's advert fits 31 octets and is matched by name and by service")
    func strapAdvertRoundTrip() throws {
        let ad = AdvertisingData.strap(name: "Polar H10 1A2B3C4D")
        let bytes = ad.encoded()
        #expect(bytes.count <= 31)
        let back = try AdvertisingData(bytes: bytes)
        #expect(back == ad)
        #expect(back.strapMatch == .polarH10Name)
        #expect(back.serviceUUIDs.contains(.heartRate))
    }
}
