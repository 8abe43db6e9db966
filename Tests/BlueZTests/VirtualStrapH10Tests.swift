import HeartRateProtocol
import Testing

@testable import h10sim

/// The virtual strap behaves as a real Polar H10 (DESIGN §5): its address, its measurement flags and
/// its requests for new connection parameters, refused or accepted.
@Suite struct VirtualStrapH10Tests {
    @Test(
        "Core 5.3 Vol 6 Part B §1.3.2.1: a random static address by default, from the seed; --public for newer firmware"
    )
    func addresses() throws {
        let byDefault = try SimulatorOptions.parse(["--seed", "9"])
        let address = try #require(byDefault.randomStaticAddress)
        #expect(address.isStaticRandomForm)
        let again = try SimulatorOptions.parse(["--seed", "9"])
        #expect(address == again.randomStaticAddress, "the same seed, the same address")
        let seeded = try SimulatorOptions.parse(["--seed", "10"])
        #expect(address != seeded.randomStaticAddress)
        #expect(try SimulatorOptions.parse(["--public"]).randomStaticAddress == nil)
        let given = try SimulatorOptions.parse(["--static-address", "C4:11:22:33:44:55"]).randomStaticAddress
        #expect(given == BluetoothAddress("C4:11:22:33:44:55"))
        #expect(throws: SimulatorError.self) {
            try SimulatorOptions.parse(["--public", "--static-address", "C4:11:22:33:44:55"])
        }
        #expect(throws: SimulatorError.self) { try SimulatorOptions.parse(["--conn-update-via", "hci"]) }
        let update = try SimulatorOptions.parse(["--conn-update-at", "30", "--conn-update-via", "l2cap"])
        #expect(update.connectionUpdateAtS == 30 && update.connectionUpdateVia == .l2cap)
    }

    @Test("Core 5.3 Vol 3 Part F §3.4: the discovery drop happens at the chosen request, by the chosen means")
    func discoveryDrop() throws {
        let byDefault = try SimulatorOptions.parse(["--drop-during-discovery"])
        #expect(byDefault.dropDuringDiscovery && byDefault.dropAt.opcode == 0x08 && byDefault.dropVia == .mgmt)
        let primary = try SimulatorOptions.parse(["--drop-during-discovery", "--drop-at", "primary", "--drop-via", "hci"])
        #expect(primary.dropAt.opcode == 0x10 && primary.dropVia == .hci)
        #expect(try SimulatorOptions.parse(["--drop-at", "cccd"]).dropAt.opcode == 0x12)
        #expect(try SimulatorOptions.parse(["--drop-via", "stall"]).dropVia == .stall)
        #expect(throws: SimulatorError.self) { try SimulatorOptions.parse(["--drop-at", "mtu"]) }
        #expect(throws: SimulatorError.self) { try SimulatorOptions.parse(["--drop-via", "rfkill"]) }
    }

    @Test("HRS 1.0 §3.1.1: flags 0x10 (RR present, no contact bits) and at most 3 RR a notification")
    func measurementFlags() {
        var pacer = NotificationPacer(source: RRFileReplay(intervals: [400, 400, 400, 400, 400, 400]), speed: 1, heartRateOnly: false)
        pacer.start(atMs: 0)
        var all: [UInt16] = []
        while !pacer.isFinished, pacer.nextDueMs != nil {
            guard let m = pacer.advance(subscribed: true, rrCapacity: 3) else { continue }
            #expect(m.encoded()[0] == 0x10)
            #expect(m.rrIntervals.count <= 3)
            all += m.rrIntervals
        }
        #expect(all == [400, 400, 400, 400, 400, 400])
    }

    @Test("DESIGN §5: a refused request is asked twice more, 10 s apart, then the link is dropped")
    func refusedThreeTimesGivesUp() {
        var r = ParameterRequest()
        r.schedule(atMs: 30_000)
        #expect(r.nextDeadlineMs == 30_000)
        #expect(r.deadline(nowMs: 29_999) == nil)
        #expect(r.deadline(nowMs: 30_000) == .request(attempt: 1))
        #expect(r.answered(accepted: false, nowMs: 30_100) == .rejected(attempt: 1))
        #expect(r.nextDeadlineMs == 40_100)
        #expect(r.deadline(nowMs: 40_100) == .request(attempt: 2))
        // No answer within 5 s counts as a refusal.
        #expect(r.deadline(nowMs: 45_100) == .rejected(attempt: 2))
        #expect(r.deadline(nowMs: 55_100) == .request(attempt: 3))
        #expect(r.answered(accepted: false, nowMs: 55_200) == .giveUp)
        #expect(r.nextDeadlineMs == nil)
        #expect(r.answered(accepted: false, nowMs: 56_000) == nil, "nothing is outstanding any more")
    }

    @Test("DESIGN §5: an accepted request ends the asking")
    func accepted() {
        var r = ParameterRequest()
        r.schedule(atMs: 1_000)
        #expect(r.deadline(nowMs: 1_000) == .request(attempt: 1))
        #expect(r.answered(accepted: true, nowMs: 1_050) == .accepted)
        #expect(r.nextDeadlineMs == nil)
        r.schedule(atMs: 5_000)
        #expect(r.nextDeadlineMs == nil, "one round per connection")
    }
}
