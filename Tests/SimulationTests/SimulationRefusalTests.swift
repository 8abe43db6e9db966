import ControlProtocol
import JSON
import Simulation
import Testing

/// The simulated box's own refusals travel in the protocol's refusal form with codes the box's vocabulary lacks.
struct SimulationRefusalTests {
    @Test("each simulation refusal reads back from its reply, and no code of it is one of the box's RefusalCodes")
    func roundTripOutsideTheBoxVocabulary() {
        for code in SimulationRefusal.Code.allCases {
            let refusal = SimulationRefusal(code: code, message: "Why.")
            #expect(SimulationRefusal(reply: refusal.json) == refusal)
            #expect(refusal.json["ok"]?.boolValue == false && refusal.json["error"]?.stringValue == code.rawValue)
            #expect(RefusalCode(rawValue: code.rawValue) == nil, "\(code.rawValue) is in the box's vocabulary")
            #expect(SimulationRefusal.sentence(in: refusal.json) == "Why.")
        }
    }

    @Test("a refusal of the protocol's own is no simulation refusal, yet its sentence is read; an accepted reply has none")
    func protocolRefusalsAndAcceptedReplies() {
        let busy = ControlRefusal(code: .busy, message: "The clock cannot jump during a session.").json
        #expect(SimulationRefusal(reply: busy) == nil)
        #expect(SimulationRefusal.sentence(in: busy) == "The clock cannot jump during a session.")
        #expect(SimulationRefusal.sentence(in: ControlReply.ok([])) == nil)
        #expect(SimulationRefusal(reply: ControlReply.ok([])) == nil)
    }
}
