/// One Heart Rate Measurement characteristic value (Bluetooth Heart Rate Service 1.0 §3.1).
///
/// Layout: flags (1 octet), heart rate (1 or 2 octets), energy expended (2 octets, if flagged),
/// RR intervals (2 octets each, if flagged, in units of 1/1024 s).
public struct HeartRateMeasurement: Hashable, Sendable {
    /// Sensor Contact Status, flags bits 1–2 (HRS 1.0 §3.1.1.2). Optional on H10 firmware.
    public enum SensorContact: Hashable, Sendable {
        case notSupported
        case notDetected
        case detected
    }

    public var beatsPerMinute: UInt16
    public var sensorContact: SensorContact
    /// Cumulative energy in kilojoules (bit 3). The box ignores it but keeps the value so that
    /// decoding and encoding are exact inverses.
    public var energyExpendedKJ: UInt16?
    /// RR intervals in 1/1024 s, oldest first (bit 4).
    public var rrIntervals: [UInt16]
    /// Whether the value travels as UInt16 (bit 0). Forced on when `beatsPerMinute` > 255.
    public var usesSixteenBitValue: Bool

    public init(
        beatsPerMinute: UInt16, sensorContact: SensorContact = .notSupported, energyExpendedKJ: UInt16? = nil,
        rrIntervals: [UInt16] = [], usesSixteenBitValue: Bool = false
    ) {
        self.beatsPerMinute = beatsPerMinute
        self.sensorContact = sensorContact
        self.energyExpendedKJ = energyExpendedKJ
        self.rrIntervals = rrIntervals
        self.usesSixteenBitValue = usesSixteenBitValue || beatsPerMinute > 0xFF
    }

    /// The RR intervals in milliseconds: `rr_ms = rr_raw × 1000 / 1024` (RecoveryDeck spec §4).
    public var rrIntervalsMs: [Double] { rrIntervals.map { Double($0) * 1000 / 1024 } }

    /// Whether the strap sent RR at all (the RR-interval flag). An HR-only strap never does.
    public var hasRRIntervals: Bool { !rrIntervals.isEmpty }
}

/// Why a Heart Rate Measurement value was rejected. The caller counts these; nothing traps.
public enum HeartRateMeasurementError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A zero-length value: not even the flags octet.
    case empty
    /// The flags promise an 8- or 16-bit heart rate the value does not hold.
    case missingHeartRate(flags: UInt8, length: Int)
    /// Bit 3 is set but the two energy octets are not all there.
    case truncatedEnergyExpended(length: Int)
    /// The RR list is not a whole number of 16-bit values.
    case oddRRByteCount(Int)
    /// Octets follow the last field the flags announce.
    case trailingBytes(Int)

    public var description: String {
        switch self {
        case .empty: "heart rate measurement is empty"
        case .missingHeartRate(let flags, let length):
            "heart rate measurement of \(length) bytes lacks its \(flags & 1 == 1 ? 16 : 8)-bit heart rate"
        case .truncatedEnergyExpended(let length):
            "heart rate measurement of \(length) bytes announces energy expended but is too short for it"
        case .oddRRByteCount(let count): "heart rate measurement RR list has \(count) bytes, not a multiple of 2"
        case .trailingBytes(let count): "heart rate measurement has \(count) unexpected trailing bytes"
        }
    }
}

extension HeartRateMeasurement {
    private enum Flag {
        static let sixteenBit: UInt8 = 0x01
        static let contactDetected: UInt8 = 0x02
        static let contactSupported: UInt8 = 0x04
        static let energyExpended: UInt8 = 0x08
        static let rrIntervals: UInt8 = 0x10
    }

    /// Decodes a notification's value. Reserved flag bits 5–7 are ignored, as HRS 1.0 §3.1.1 asks
    /// of receivers. A set RR flag with no intervals is accepted as "no beat in this second":
    /// it contradicts nothing the box uses, and dropping it would lose the heart rate.
    public init(bytes: [UInt8]) throws(HeartRateMeasurementError) {
        var reader = ByteReader(bytes)
        guard let flags = reader.u8() else { throw .empty }
        let sixteen = flags & Flag.sixteenBit != 0
        let bpm: UInt16
        if sixteen {
            guard let v = reader.u16() else { throw .missingHeartRate(flags: flags, length: bytes.count) }
            bpm = v
        } else {
            guard let v = reader.u8() else { throw .missingHeartRate(flags: flags, length: bytes.count) }
            bpm = UInt16(v)
        }
        let contact: SensorContact =
            switch (flags & Flag.contactSupported != 0, flags & Flag.contactDetected != 0) {
            case (false, _): .notSupported
            case (true, false): .notDetected
            case (true, true): .detected
            }
        var energy: UInt16?
        if flags & Flag.energyExpended != 0 {
            guard let v = reader.u16() else { throw .truncatedEnergyExpended(length: bytes.count) }
            energy = v
        }
        var rr: [UInt16] = []
        if flags & Flag.rrIntervals != 0 {
            guard reader.remaining % 2 == 0 else { throw .oddRRByteCount(reader.remaining) }
            rr.reserveCapacity(reader.remaining / 2)
            while let v = reader.u16() { rr.append(v) }
        } else if !reader.isAtEnd {
            throw .trailingBytes(reader.remaining)
        }
        self.init(
            beatsPerMinute: bpm, sensorContact: contact, energyExpendedKJ: energy, rrIntervals: rr,
            usesSixteenBitValue: sixteen)
    }

    /// The characteristic value, ready for a Handle Value Notification.
    public func encoded() -> [UInt8] {
        var flags: UInt8 = 0
        if usesSixteenBitValue || beatsPerMinute > 0xFF { flags |= Flag.sixteenBit }
        switch sensorContact {
        case .notSupported: break
        case .notDetected: flags |= Flag.contactSupported
        case .detected: flags |= Flag.contactSupported | Flag.contactDetected
        }
        if energyExpendedKJ != nil { flags |= Flag.energyExpended }
        if !rrIntervals.isEmpty { flags |= Flag.rrIntervals }
        var out: [UInt8] = [flags]
        out.reserveCapacity(5 + 2 * rrIntervals.count)
        if flags & Flag.sixteenBit != 0 { out.appendLE(beatsPerMinute) } else { out.append(UInt8(beatsPerMinute)) }
        if let energy = energyExpendedKJ { out.appendLE(energy) }
        for rr in rrIntervals { out.appendLE(rr) }
        return out
    }

    /// How many RR intervals fit one notification at this ATT_MTU (value ≤ ATT_MTU − 3, Vol 3
    /// Part F §3.4.7.1), given this measurement's other fields.
    public func rrCapacity(attMTU: Int) -> Int {
        let fixed = 1 + (usesSixteenBitValue || beatsPerMinute > 0xFF ? 2 : 1) + (energyExpendedKJ == nil ? 0 : 2)
        return max(0, (attMTU - 3 - fixed) / 2)
    }
}
