// The libFuzzer entry point for all decoder targets; RECOVERYDECK_FUZZ_TARGET picks one, so a
// single instrumented build serves every target (Tests/Fuzz/run.sh sets it).
#if canImport(Glibc)
    import Glibc
#endif

private let target: @Sendable ([UInt8]) -> Void = {
    let name = getenv("RECOVERYDECK_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    switch name {
    case "heart-rate": return fuzzHeartRate
    case "att": return fuzzATT
    case "advertising": return fuzzAdvertising
    case "mgmt": return fuzzManagement
    case "hci": return fuzzHCI
    default: fatalError("RECOVERYDECK_FUZZ_TARGET must be heart-rate, att, advertising, mgmt or hci, not '\(name)'")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    target(bytes)
    return 0
}
