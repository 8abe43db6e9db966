import BlueZ
import ControlProtocol
import HeartRateProtocol
import JSON
import Simulation
import Testing

/// Each request's answer and each `watch` packet is encoded and decoded in one place: what the daemon writes
/// reads back the same through its text, and a reply out of shape is one sentence naming the field, never a
/// default.
struct ControlAnswerTests {
    /// Writes `answer` as the daemon does, reads it as the command line does.
    static func roundTrip<A: ControlAnswer>(_ answer: A) throws -> A {
        try A.decode(try JSONValue.parse(answer.json.serialized()))
    }

    @Test("every answer reads back the same through its JSON text")
    func answersRoundTrip() throws {
        let measure = MeasureStarted(phase: "connecting", date: "2026-12-04")
        #expect(try Self.roundTrip(measure) == measure)
        for cancelled in [true, false] {
            let outcome = CancelOutcome(phase: "idle", was: cancelled ? "captureRMSSD" : "readout", cancelled: cancelled)
            #expect(try Self.roundTrip(outcome) == outcome)
        }
        let status = SessionStatus(snapshot: ControlSnapshotTests.measuring)
        #expect(try Self.roundTrip(status) == status)
        #expect(try Self.roundTrip(DayAnswer(date: "2026-12-05")) == DayAnswer(date: "2026-12-05"))
        #expect(try Self.roundTrip(Acknowledged()) == Acknowledged())
        #expect(try Self.roundTrip(PressesScheduled(sessionMs: 81_250)) == PressesScheduled(sessionMs: 81_250))
        let strap = StrapCandidate(
            address: BluetoothAddress("A0:9E:1A:12:34:56")!, addressType: .lePublic, name: "Polar H10 12345678",
            rssi: -61, match: .polarH10Name, lastSeenMs: 0)
        let unnamed = StrapCandidate(
            address: BluetoothAddress("C4:11:22:33:44:55")!, addressType: .leRandom, name: nil, rssi: nil,
            match: .heartRateService, lastSeenMs: 0)
        let found = try Self.roundTrip(ScanFound(straps: [strap, unnamed]))
        // The time a strap was last seen is the reader's: everything else comes back as sent.
        let read = found.straps.map { strap -> StrapCandidate in
            var sent = strap
            sent.lastSeenMs = 0
            return sent
        }
        #expect(read == [strap, unnamed])
    }

    @Test("every watch event reads back the same through its JSON text")
    func eventsRoundTrip() throws {
        let events: [ControlEvent] = [
            .snapshot(ControlSnapshotTests.measuring), .say(sessionMs: 5, text: "Fill in today's questionnaire first."),
            .sound(sessionMs: 6, name: "standCue"), .input(sessionMs: 7, button: "go-long"),
            .saved(sessionMs: 8, date: "2026-12-04", rawRR: 412),
        ]
        for event in events {
            let back = try ControlEvent(json: try JSONValue.parse(event.json.serialized()))
            #expect(back == event)
            #expect(back.sessionMs == event.sessionMs)
        }
    }

    @Test("a reply out of shape is one sentence naming what is missing; a refusal is the daemon's sentence")
    func malformed() throws {
        let cases: [(JSONValue, String)] = [
            (ControlReply.ok([("phase", .string("connecting"))]), "date"),
            (ControlReply.ok([("phase", .string("connecting")), ("date", .integer(3))]), "date"),
            (.object([("version", .integer(ControlRequest.protocolVersion))]), "ok"),
        ]
        for (reply, key) in cases {
            do throws(ControlFailure) {
                _ = try MeasureStarted.decode(reply)
                Issue.record("\(reply.serialized()) was read")
            } catch {
                #expect(
                    error.description
                        == "recoverydeckd's reply to measure has no readable \"\(key)\": install the same release of recoverydeck and recoverydeckd.")
            }
        }
        // A refusal with a code this release does not know is out of shape, not taken for another code.
        let unknown = JSONValue.object([
            ("ok", .bool(false)), ("error", .string("new_code")), ("message", .string("Why.")),
        ])
        #expect(throws: ControlFailure.self) { try MeasureStarted.decode(unknown) }
        do throws(ControlFailure) { _ = try MeasureStarted.decode(unknown) } catch {
            guard case .malformed(let m) = error else { throw error }
            #expect(m.key == "error")
        }
        // A strap whose address is no address, and a stream packet of no known event.
        let badStrap = ControlReply.ok([("straps", .array([.object([("address", .string("nowhere"))])]))])
        do throws(ControlFailure) { _ = try ScanFound.decode(badStrap) } catch {
            #expect(error.description.hasPrefix("recoverydeckd's strap in the reply to scan has no readable \"address\""))
        }
        #expect(throws: ControlMalformed(what: "watch packet", key: "event")) {
            try ControlEvent(json: .object([("event", .string("\u{1b}[2J")), ("session_ms", .integer(1))]))
        }
        #expect(throws: ControlMalformed(what: "watch packet", key: "text")) {
            try ControlEvent(json: .object([("event", .string("say")), ("session_ms", .integer(1))]))
        }
    }
}
