import RecoveryCore

/// The compact blob format of the session's raw samples in `measurement.rr_raw` and
/// `measurement.hr_readings`:
///
///     byte 0        format version, 0x01
///     then n records of 6 bytes each, in arrival order:
///       bytes 0–1   value, UInt16 little-endian: RR in 1/1024 s as the strap sent it, or BPM
///       bytes 2–5   receivedAtMs, UInt32 little-endian: ms since the session started
///
/// An empty session is the single byte 0x01. About 300 RR intervals make 1.8 kB a morning.
enum SampleEncoding {
    static let version: UInt8 = 1
    static let recordSize = 6

    static func encode(_ samples: [(value: UInt16, atMs: Int64)]) throws(StoreError) -> [UInt8] {
        var bytes: [UInt8] = [version]
        bytes.reserveCapacity(1 + samples.count * recordSize)
        for sample in samples {
            guard let at = UInt32(exactly: sample.atMs) else {
                throw .invalid("a sample's arrival time (\(sample.atMs) ms) is outside 0…\(UInt32.max) ms")
            }
            bytes.append(UInt8(sample.value & 0xff))
            bytes.append(UInt8(sample.value >> 8))
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((at >> UInt32(shift)) & 0xff)) }
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8], column: String) throws(StoreError) -> [(value: UInt16, atMs: Int64)] {
        guard bytes.first == version, (bytes.count - 1) % recordSize == 0 else {
            throw .corrupt("the \(column) samples are damaged (\(bytes.count) bytes, format \(bytes.first ?? 0))")
        }
        var samples: [(value: UInt16, atMs: Int64)] = []
        samples.reserveCapacity((bytes.count - 1) / recordSize)
        var i = 1
        while i < bytes.count {
            let value = UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
            var at: UInt32 = 0
            for k in 0..<4 { at |= UInt32(bytes[i + 2 + k]) << UInt32(8 * k) }
            samples.append((value, Int64(at)))
            i += recordSize
        }
        return samples
    }

    static func encode(rr: [RRInterval]) throws(StoreError) -> [UInt8] {
        try encode(rr.map { ($0.raw, $0.receivedAtMs) })
    }

    static func encode(heartRates: [HeartRateReading]) throws(StoreError) -> [UInt8] {
        try encode(heartRates.map { ($0.bpm, $0.receivedAtMs) })
    }

    static func decodeRR(_ bytes: [UInt8]) throws(StoreError) -> [RRInterval] {
        try decode(bytes, column: "RR").map { RRInterval(raw: $0.value, receivedAtMs: $0.atMs) }
    }

    static func decodeHeartRates(_ bytes: [UInt8]) throws(StoreError) -> [HeartRateReading] {
        try decode(bytes, column: "heart rate").map { HeartRateReading(bpm: $0.value, receivedAtMs: $0.atMs) }
    }
}
