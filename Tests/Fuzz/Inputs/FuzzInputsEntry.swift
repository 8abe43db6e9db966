// The libFuzzer entry point for the input-file targets (restore document, CSV history, RR file, spool file, the
// settings rows), built from
// RecoveryCore's sources with the Store's export and spool readers and the Admin history readers (Tests/Fuzz/run.sh).
// RECOVERYDECK_FUZZ_TARGET picks one.
#if canImport(Glibc)
    import Glibc
#endif

private let target: @Sendable ([UInt8]) -> Void = {
    let name = getenv("RECOVERYDECK_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    switch name {
    case "restore": return fuzzRestore
    case "csv": return fuzzCSV
    case "rr": return fuzzRR
    case "spool": return fuzzSpool
    case "settings": return fuzzSettings
    default: fatalError("RECOVERYDECK_FUZZ_TARGET must be restore, csv, rr, spool or settings, not '\(name)'")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    target(bytes)
    return 0
}

/// The first byte picks a chunk size from 1 to 64, so chunk boundaries fall everywhere; the rest is the input.
func chunked(_ bytes: [UInt8]) -> (chunkSize: Int, input: [UInt8]) {
    guard let first = bytes.first else { return (1, []) }
    return (Int(first % 64) + 1, Array(bytes.dropFirst()))
}
