@testable import ControlProtocol
import JSON
import Testing

@testable import Appliance

/// Both ends of the control socket state the protocol's version and refuse the other's when it differs, in one
/// sentence, instead of reading fields that may mean something else.
struct ControlProtocolVersionTests {
    @Test("every request and reply carries the version; a refusal's code reads back as the same enum case")
    func versionEverywhere() throws {
        #expect(ControlRequest.status.json["version"]?.int64Value == ControlRequest.protocolVersion)
        #expect(ControlReply.ok([])["version"]?.int64Value == ControlRequest.protocolVersion)
        for code in RefusalCode.allCases {
            let sent = ControlRefusal(code: code, message: "Why.")
            do throws(ControlFailure) {
                _ = try Acknowledged.decode(sent.json)
                Issue.record("a refusal read as an answer")
            } catch {
                guard case .refused(let back) = error else { throw error }
                #expect(back == sent)
            }
        }
    }

    @Test("the daemon refuses a request of another version with one sentence")
    func daemonRefusesOtherVersion() throws {
        let parsed = ControlRequest.parse(Array(#"{"request":"status","version":2}"#.utf8))
        guard case .failure(let refusal) = parsed else {
            Issue.record("a version 2 request was taken")
            return
        }
        #expect(refusal.code == .versionMismatch)
        #expect(
            refusal.message
                == "This recoverydeckd speaks control protocol 1, the request 2: install the same release of recoverydeck and recoverydeckd.")
        let byHand = try ControlRequest.parse(Array(#"{"request":"status"}"#.utf8)).get()
        #expect(byHand == .status, "a request typed by hand, without a version, is still read")
    }

    @Test("the command line refuses a reply of another version, or of none, with one sentence")
    func clientRefusesOtherVersion() {
        let newer = JSONValue.object([("ok", .bool(true)), ("version", .integer(2))])
        #expect(throws: ControlClient.Unreachable.self) { try ControlClient.checkVersion(of: newer) }
        do throws(ControlClient.Unreachable) {
            try ControlClient.checkVersion(of: .object([("ok", .bool(true))]))
            Issue.record("a reply without a version was read")
        } catch {
            #expect(
                error.description
                    == "recoverydeckd speaks control protocol 0 (it states none), this recoverydeck 1: install the same release of both.")
        }
        #expect(throws: Never.self) { try ControlClient.checkVersion(of: ControlReply.ok([])) }
    }
}
