import ControlProtocol
import JSON
import Foundation
import Store
import Testing

@testable import Appliance
@testable import Simulation

/// Test-only requests with numbers large enough to overflow the daemon's clock arithmetic are refused with
/// a sentence at the socket, and the daemon keeps answering.
struct ControlRequestLimitTests {
    static func parse(_ text: String) -> Result<SimulationRequest, ControlRefusal> {
        guard let json = try? JSONValue.parse(text) else { return .failure(ControlRefusal(code: .badRequest, message: "")) }
        return SimulationRequest.parse(json)
    }

    @Test("the box's control protocol has no press, advance or stop: they are a simulated box's requests")
    func boxRefusesSimulationRequests() {
        for name in SimulationRequest.names {
            guard case .failure(let refusal) = ControlRequest.parse(Array(#"{"request":"\#(name)"}"#.utf8)) else {
                Issue.record("the box's protocol accepted \(name)")
                continue
            }
            #expect(refusal.code == .unknownRequest)
        }
    }

    @Test("after_ms beyond a day and advance beyond 400 days are refused, the limits themselves accepted")
    func limits() {
        for text in [
            #"{"request":"press","button":"go","after_ms":9223372036854775807}"#,
            #"{"request":"press","presses":[{"button":"1","after_ms":0},{"button":"go","after_ms":86400001}]}"#,
            #"{"request":"advance","seconds":4611686018427387904}"#,
            #"{"request":"advance","seconds":34560001}"#,
        ] {
            guard case .failure(let refusal) = Self.parse(text) else {
                Issue.record("accepted: \(text)")
                continue
            }
            #expect(refusal.code == .badRequest)
            #expect(refusal.message.hasSuffix("."))
        }
        #expect(
            Self.parse(#"{"request":"press","button":"go","after_ms":86400000}"#)
                == .success(.press([Press("go", afterMs: 86_400_000)])))
        #expect(Self.parse(#"{"request":"advance","seconds":34560000}"#) == .success(.advance(seconds: 34_560_000)))
    }

    @Test("the daemon answers after refusing an overflowing press and still takes a normal one")
    func daemonSurvives() throws {
        let box = try DaemonHarness()
        let client = try ControlClient(path: box.configuration.controlSocket)
        try client.connection.send(Array(#"{"request":"press","button":"go","after_ms":9223372036854775807}"#.utf8))
        var reply: JSONValue?
        box.run(limit: 1000) {
            reply = try? client.next(timeoutMs: 0)
            return reply != nil
        }
        #expect(reply?["error"]?.stringValue == "bad_request")
        #expect(try box.request(.status)["ok"]?.boolValue == true)
    }
}
