// libFuzzer target: the advertising / EIR data parser (Core 5.3 Vol 3 Part C §11, Supplement Part A).
// Parsed data must re-encode to bytes that parse to the same data, and the matcher must not trap.

func fuzzAdvertising(_ bytes: [UInt8]) {
    do {
        let ad = try AdvertisingData(bytes: bytes)
        let again = try AdvertisingData(bytes: ad.encoded())
        if again != ad { fatalError("advertising round trip changed \(ad) into \(again)") }
        _ = ad.localName
        _ = ad.strapMatch
        _ = ad.serviceUUIDs.map(\.description)
    } catch {
        _ = error.description
    }
}
