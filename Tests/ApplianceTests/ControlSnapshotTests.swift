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
        let back = try ControlSnapshot(json: try JSONValue.parse(text))
        #expect(back == Self.measuring)
        #expect(back.pattern(of: "blue") == "solid" && back.pattern(of: "red") == "off")
    }

    @Test("a say packet, a reply and a snapshot without its lamps are not read as snapshots, each with one sentence")
    func otherPackets() throws {
        #expect(throws: ControlMalformed(what: "session snapshot", key: "event")) {
            try ControlSnapshot(json: .object([("event", .string("say")), ("text", .string("Hi."))]))
        }
        #expect(throws: ControlMalformed(what: "session snapshot", key: "event")) {
            try ControlSnapshot(json: ControlReply.ok([]))
        }
        #expect(throws: ControlMalformed(what: "session snapshot", key: "lamps")) {
            try ControlSnapshot(json: .object([("event", .string("snapshot")), ("phase", .string("idle"))]))
        }
    }

    @Test("each field a snapshot names is required: left out, or of another type, the snapshot is refused by name")
    func everyFieldRequired() throws {
        guard case .object(let members) = Self.measuring.json else { throw ControlMalformed(what: "test", key: nil) }
        for (index, (key, _)) in members.enumerated() where key != "event" {
            var without = members
            without.remove(at: index)
            #expect(throws: ControlMalformed(what: "session snapshot", key: key)) {
                try ControlSnapshot(json: .object(without))
            }
            var mistyped = members
            mistyped[index].1 = .array([])
            #expect(throws: ControlMalformed(what: "session snapshot", key: key)) {
                try ControlSnapshot(json: .object(mistyped))
            }
        }
    }
}
