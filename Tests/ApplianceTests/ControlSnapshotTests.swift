import ControlProtocol
import JSON
import Testing

/// The session snapshot is encoded and decoded in one place (`ControlSnapshot`): what the daemon writes reads
/// back field for field, through its serialized text, and no other packet reads as a snapshot.
struct ControlSnapshotTests {
    static let measuring = ControlSnapshot(
        sessionMs: 81_250, date: "2026-12-04", clock: "2026-12-04 06:41:07", phase: "captureRMSSD",
        title: "Measuring rMSSD: lie still", remainingMs: 61_000, phaseProgress: 0.25, progress: 0.31, bpm: 58,
        rrOK: true, degraded: false, acceptedBeats: 40, acceptedSeconds: 38.5, fault: nil, faultSentence: nil,
        state: "measuring", lamps: [("red", "off"), ("yellow", "off"), ("green", "off"), ("blue", "solid")],
        display: "blue solid", strap: "connected", speed: 1, waitingForDatabase: 0, waitingReason: nil)

    @Test("a snapshot written and read back through its JSON text is the same snapshot")
    func roundTrip() throws {
        let text = Self.measuring.json.serialized()
        let back = try #require(ControlSnapshot(json: try JSONValue.parse(text)))
        #expect(back == Self.measuring)
        #expect(back.pattern(of: "blue") == "solid" && back.pattern(of: "red") == "off")
    }

    @Test("a say packet, a reply and a snapshot without its lamps are not read as snapshots")
    func otherPackets() throws {
        #expect(ControlSnapshot(json: .object([("event", .string("say")), ("text", .string("Hi."))])) == nil)
        #expect(ControlSnapshot(json: ControlReply.ok([])) == nil)
        #expect(ControlSnapshot(json: .object([("event", .string("snapshot")), ("phase", .string("idle"))])) == nil)
    }
}
