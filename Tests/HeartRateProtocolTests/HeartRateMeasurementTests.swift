import Testing

@testable import HeartRateProtocol

/// Vectors are hand-assembled from the field layout of Bluetooth Heart Rate Service 1.0 §3.1
/// (flags, value, energy expended, RR list; all little-endian).
@Suite("Heart Rate Measurement (HRS 1.0 §3.1)")
struct HeartRateMeasurementTests {
    @Test("HRS 1.0 §3.1.1.1: 8-bit heart rate with an RR list gives bpm and RR in 1/1024 s")
    func eightBitWithRR() throws {
        // flags 0x10 (RR present), 60 bpm, RR 0x0400 = 1024/1024 s, RR 0x03CD = 973
        let m = try HeartRateMeasurement(bytes: hex("10 3C 00 04 CD 03"))
        #expect(m.beatsPerMinute == 60)
        #expect(m.rrIntervals == [1024, 973])
        #expect(m.sensorContact == .notSupported)
        #expect(m.energyExpendedKJ == nil)
        // RecoveryDeck spec §4: rr_ms = rr_raw × 1000 / 1024; 973 → 950.1953125 ms exactly.
        #expect(m.rrIntervalsMs == [1000, 950.1953125])
    }

    @Test("HRS 1.0 §3.1.1.1: bit 0 selects a 16-bit little-endian heart rate")
    func sixteenBit() throws {
        let m = try HeartRateMeasurement(bytes: hex("01 2C 01"))
        #expect(m.beatsPerMinute == 300)
        #expect(m.usesSixteenBitValue)
        #expect(!m.hasRRIntervals)
    }

    @Test("HRS 1.0 §3.1.1.2: contact bits 1–2 read as not supported / not detected / detected")
    func contactBits() throws {
        #expect(try HeartRateMeasurement(bytes: hex("00 48")).sensorContact == .notSupported)
        #expect(try HeartRateMeasurement(bytes: hex("02 48")).sensorContact == .notSupported)
        #expect(try HeartRateMeasurement(bytes: hex("04 48")).sensorContact == .notDetected)
        #expect(try HeartRateMeasurement(bytes: hex("06 48")).sensorContact == .detected)
    }

    @Test("HRS 1.0 §3.1.1.3: energy expended (bit 3) is skipped before the RR list")
    func energySkipped() throws {
        let m = try HeartRateMeasurement(bytes: hex("18 50 10 27 00 03"))
        #expect(m.beatsPerMinute == 80)
        #expect(m.energyExpendedKJ == 10_000)
        #expect(m.rrIntervals == [768])
    }

    @Test("HRS 1.0 §3.1: reserved flag bits 5–7 are ignored by the receiver")
    func reservedBitsIgnored() throws {
        let m = try HeartRateMeasurement(bytes: hex("F0 3C 00 04"))
        #expect(m.beatsPerMinute == 60)
        #expect(m.rrIntervals == [1024])
    }

    @Test("HRS 1.0 §3.1: truncated or inconsistent values are rejected with their reason")
    func rejections() {
        #expect(throws: HeartRateMeasurementError.empty) { try HeartRateMeasurement(bytes: []) }
        #expect(throws: HeartRateMeasurementError.missingHeartRate(flags: 0x10, length: 1)) {
            try HeartRateMeasurement(bytes: [0x10])
        }
        #expect(throws: HeartRateMeasurementError.missingHeartRate(flags: 0x01, length: 2)) {
            try HeartRateMeasurement(bytes: [0x01, 0x3C])
        }
        #expect(throws: HeartRateMeasurementError.truncatedEnergyExpended(length: 3)) {
            try HeartRateMeasurement(bytes: [0x08, 0x3C, 0x10])
        }
        #expect(throws: HeartRateMeasurementError.oddRRByteCount(3)) {
            try HeartRateMeasurement(bytes: hex("10 3C 00 04 CD"))
        }
        #expect(throws: HeartRateMeasurementError.trailingBytes(1)) { try HeartRateMeasurement(bytes: hex("00 3C 00")) }
    }

    @Test("HRS 1.0 §3.1: RR flag with no intervals keeps the heart rate, with no RR")
    func rrFlagWithoutValues() throws {
        let m = try HeartRateMeasurement(bytes: hex("10 3C"))
        #expect(m.beatsPerMinute == 60)
        #expect(m.rrIntervals.isEmpty)
    }

    @Test("HRS 1.0 §3.1: encoding then decoding returns the same measurement")
    func roundTrip() throws {
        let samples = [
            HeartRateMeasurement(beatsPerMinute: 58, sensorContact: .detected, rrIntervals: [1060, 1048, 1101]),
            HeartRateMeasurement(beatsPerMinute: 300),
            HeartRateMeasurement(
                beatsPerMinute: 70, sensorContact: .notDetected, energyExpendedKJ: 5, rrIntervals: [900]),
            HeartRateMeasurement(beatsPerMinute: 12, usesSixteenBitValue: true),
        ]
        for m in samples {
            #expect(try HeartRateMeasurement(bytes: m.encoded()) == m)
        }
        #expect(samples[0].encoded() == hex("16 3A 24 04 18 04 4D 04"))
    }

    @Test("HRS 1.0 §3.1: every prefix of a measurement is rejected or read consistently")
    func bytewise() {
        let whole = hex("1F 3A 00 10 27 24 04 18 04 4D 04")
        expectPrefixesConsistent(whole, decode: HeartRateMeasurement.init(bytes:), encode: { $0.encoded() })
        #expect(throws: HeartRateMeasurementError.self) { try HeartRateMeasurement(bytes: Array(whole.prefix(4))) }
    }

    @Test("ATT_MTU 23 carries 9 RR with an 8-bit heart rate (Vol 3 Part F §3.4.7.1: value ≤ MTU − 3)")
    func rrCapacity() {
        let m = HeartRateMeasurement(beatsPerMinute: 60)
        #expect(m.rrCapacity(attMTU: 23) == 9)
        let full = HeartRateMeasurement(beatsPerMinute: 60, rrIntervals: Array(repeating: 1000, count: 9))
        #expect(full.encoded().count == 20)
    }
}
