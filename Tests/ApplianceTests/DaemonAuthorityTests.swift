import ControlProtocol
import Foundation
import JSON
import Platform
@testable import RecoveryCore
import Testing

@testable import Appliance

/// Who may hold the box's writes, and what one user can do to the control socket: a pause has one holder and
/// a hard end, GO during it is said at the bedside and in `watch`, one user cannot fill the socket, and an
/// oversize request is refused, not cut and answered.
struct DaemonAuthorityTests {
    @Test("a second restore cannot pause, resume or extend the first one's pause")
    func oneHolder() throws {
        let h = try DaemonHarness()
        let restorer = try ControlClient(path: h.configuration.controlSocket)
        let intruder = try ControlClient(path: h.configuration.controlSocket)
        #expect(try h.request(.pauseWrites, client: restorer)["ok"]?.boolValue == true)
        let end = h.daemon.writePause.nextDeadlineRealMs
        #expect(try h.request(.pauseWrites, client: intruder)["error"]?.stringValue == "paused")
        #expect(try h.request(.resumeWrites, client: intruder)["error"]?.stringValue == "not_holder")
        #expect(h.daemon.writePause.isHeld, "another client ended the pause")
        h.passRealTime(ms: 5_000)
        #expect(try h.request(.pauseWrites, client: restorer)["ok"]?.boolValue == true)
        #expect(h.daemon.writePause.nextDeadlineRealMs == end, "asking again moved the hard end")
        #expect(try h.request(.resumeWrites, client: restorer)["ok"]?.boolValue == true)
        #expect(!h.daemon.writePause.isHeld)
    }

    @Test("only root and the daemon's own user may pause the writes; a member may not")
    func authority() {
        #expect(Daemon.mayPauseWrites(peerUID: 0, daemonUID: 998))
        #expect(Daemon.mayPauseWrites(peerUID: 998, daemonUID: 998))
        #expect(!Daemon.mayPauseWrites(peerUID: 1000, daemonUID: 998))
    }

    @Test("GO during a pause: the restore's red code, the low beep and the sentence in watch; no morning starts")
    func goDuringPause() throws {
        let h = try DaemonHarness()
        h.keyQuestionnaire()
        let restorer = try ControlClient(path: h.configuration.controlSocket)
        let watcher = try ControlClient(path: h.configuration.controlSocket)
        _ = try h.request(.watch, client: watcher)
        #expect(try h.request(.pauseWrites, client: restorer)["ok"]?.boolValue == true)
        let soundsBefore = h.sounds.count
        h.press([(0, "go")])
        var said: [String] = []
        h.run(limit: 2000) {
            while let packet = try? watcher.next(timeoutMs: 0) {
                if packet["event"]?.stringValue == "say", let text = packet["text"]?.stringValue { said.append(text) }
            }
            return !said.isEmpty
        }
        #expect(said == ["The database is being restored; start the morning again in a moment."])
        #expect(h.sounds.dropFirst(soundsBefore).contains(.fault))
        // The error light: the restore's own red code, and no morning started.
        #expect(h.phase == .showingFault)
        #expect(h.daemon.routine.session.fault == .restoring)
        #expect(try h.store.events().allSatisfy { $0.kind.rawValue != "restore_refused" && !$0.kind.rawValue.isEmpty })
    }

    @Test("one user's connections stop at the limit with a sentence; the others are still served")
    func perUserLimit() throws {
        let h = try DaemonHarness()
        h.daemon.control?.uncountedUID = nil
        var held: [ControlClient] = []
        for _ in 0..<ControlServer.connectionsPerUser {
            let c = try ControlClient(path: h.configuration.controlSocket)
            #expect(try h.request(.status, client: c)["ok"]?.boolValue == true)
            held.append(c)
        }
        let extra = try ControlClient(path: h.configuration.controlSocket)
        let refused = try h.request(.status, client: extra)
        #expect(refused["error"]?.stringValue == "too_many_connections", "\(refused.serialized())")
        held.removeLast()
        h.run(limit: 200) { (h.daemon.control?.clientCount ?? 0) < ControlServer.connectionsPerUser }
        #expect(try h.request(.status)["ok"]?.boolValue == true, "a closed connection frees a place")
    }

    @Test("a request over 64 KiB is refused with a sentence, not cut to 64 KiB and answered")
    func oversize() throws {
        let h = try DaemonHarness()
        let client = try ControlClient(path: h.configuration.controlSocket)
        // A valid request padded with spaces past the limit: cut at 64 KiB it would still read as `status`.
        let padded = #"{"request":"status"}"# + String(repeating: " ", count: ControlRequest.maximumPacket)
        try client.connection.send(Array(padded.utf8))
        var reply: JSONValue?
        h.run(limit: 1000) {
            reply = try? client.next(timeoutMs: 0)
            return reply != nil
        }
        #expect(reply?["error"]?.stringValue == "too_large", "\(reply?.serialized() ?? "no reply")")
        #expect(reply?["message"]?.stringValue == "The request is longer than 64 KiB, so it was not read.")
    }
}
