// libFuzzer target: the advertising / EIR data parser (Core 5.3 Vol 3 Part C §11, Supplement Part A).
// Parsed data must re-encode to bytes that parse to the same data, and the matcher must not trap.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdvertising(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
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
    return 0
}
