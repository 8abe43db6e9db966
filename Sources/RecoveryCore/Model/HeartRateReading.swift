/// One BPM value from a Heart Rate Measurement, and when it arrived (ms since session start).
public struct HeartRateReading: Hashable, Sendable {
    public var bpm: UInt16
    public var receivedAtMs: Int64

    public init(bpm: UInt16, receivedAtMs: Int64) {
        self.bpm = bpm
        self.receivedAtMs = receivedAtMs
    }
}

// A plain value, so the session's heart-rate store can hold it (`RingBuffer` takes `BitwiseCopyable` elements).
extension HeartRateReading: BitwiseCopyable {}
