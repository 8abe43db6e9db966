import ControlProtocol
import Platform
import TestSupport
import Testing

@testable import Appliance

/// The control server keeps its listener and clients in its own readiness set, the one descriptor the
/// daemon's loop watches for it.
@Suite struct ControlServerReadinessTests {
    @Test("a paused listener is out of the set, its peer waits in the backlog, and is accepted once resumed")
    func pausedListenerResumes() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/control.sock"
        let server = try ControlServer(path: path, groupName: "recoverydeck-no-such-group")
        defer { server.close() }
        #expect(server.pauseAccepting(nowRealMs: 10_000))
        #expect(!server.pauseAccepting(nowRealMs: 10_001), "a second pause while paused changes nothing")
        #expect(server.listenerResumeRealMs == 10_000 + ControlServer.acceptPauseMs)
        #expect(!server.readiness.contains(server.listener.descriptor))

        let client = try ControlClient(path: path)
        #expect(try server.readiness.ready().isEmpty, "nobody is woken while the listener is paused")

        try server.resumeAcceptingIfDue(nowRealMs: 10_000 + ControlServer.acceptPauseMs - 1)
        #expect(!server.readiness.contains(server.listener.descriptor), "not before the pause is over")
        try server.resumeAcceptingIfDue(nowRealMs: 10_000 + ControlServer.acceptPauseMs)
        #expect(server.listenerResumeRealMs == nil)
        let ready = try server.readiness.ready()
        #expect(ready.map(\.descriptor) == [server.listener.descriptor])
        let incoming = server.onReadable(server.listener.descriptor)
        guard case .accepted(let accepted)? = incoming.first, incoming.count == 1 else {
            Issue.record("expected one accepted client, got \(incoming)")
            return
        }
        #expect(server.readiness.contains(accepted), "a client is watched as it is accepted")

        // The client's request makes its descriptor ready, and it is read through the set.
        _ = try? client.connection.send(Array(ControlRequest.status.json.serialized().utf8))
        #expect(try server.readiness.ready().map(\.descriptor) == [accepted])
        guard case .request(accepted, .status)? = server.onReadable(accepted).first else {
            Issue.record("the status request was not read")
            return
        }

        // A client that leaves is out of the set before its descriptor is closed.
        client.connection.close()
        #expect(server.onReadable(accepted).contains { if case .closed = $0 { true } else { false } })
        #expect(!server.readiness.contains(accepted))
        #expect(try server.readiness.ready().isEmpty)
    }
}
