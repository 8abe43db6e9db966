// libFuzzer target: the Heart Rate Measurement decoder (HRS 1.0 §3.1).
// Any input must decode or be rejected with a typed error; a decoded value must survive an
// encode/decode round trip unchanged. Anything else traps, which libFuzzer reports.

func fuzzHeartRate(_ bytes: [UInt8]) {
    do {
        let m = try HeartRateMeasurement(bytes: bytes)
        let again = try HeartRateMeasurement(bytes: m.encoded())
        if again != m { fatalError("round trip changed \(m) into \(again)") }
        if m.rrIntervalsMs.count != m.rrIntervals.count { fatalError("RR conversion lost values") }
    } catch {
        _ = error.description
    }
}
