import HeartRateProtocol
import Platform
import Testing

@testable import BlueZ

/// RecoveryDeck spec §13 and the working rule "bad input gets one clear sentence": every Bluetooth
/// failure reaches the person as one sentence that names what to do.
@Suite struct BlueZErrorTests {
    static let strap = BluetoothAddress("A0:9E:1A:12:34:56")!

    static let all: [BlueZError] = [
        .bluetoothUnsupported, .noAdapter, .adapterNotFound(name: "hci3", available: ["hci0", "hci1"]),
        .adapterNotFound(name: "hci3", available: []), .rfkillBlocked(name: "hci0", hard: false),
        .rfkillBlocked(name: "hci0", hard: true), .rfkillBlocked(name: "", hard: false),
        .adapterPoweredOff(name: "hci0"), .lowEnergyDisabled(name: "hci0"),
        .missingCapability(command: "discovery"), .strapUnreachable(address: strap, seconds: 10),
        .attChannelBusy(address: strap), .noStrapFound(seconds: 10), .severalStraps(count: 2),
        .managementFailure(command: "Start Discovery", status: .busy),
        .managementTimeout(command: "Read Controller Information"),
        .noHeartRateService(address: strap), .system(call: "connect", errno: Errno(rawValue: 5)),
    ]

    @Test("Spec §13: every Bluetooth error is one sentence that says what to do", arguments: all)
    func eachErrorIsOneSentenceWithAnInstruction(_ error: BlueZError) {
        let text = error.description
        #expect(text.first?.isUppercase == true || text.first?.isNumber == true)
        #expect(text.hasSuffix("."))
        // One sentence: no full stop followed by a new sentence (addresses and commands aside).
        #expect(!text.dropLast().contains(". "))
        #expect(!text.contains("\n"))
    }

    @Test("Spec §13: a management command refused for CAP_NET_ADMIN says run as root or setcap")
    func missingCapabilitySaysRootOrCapNetAdmin() {
        let text = BlueZError.missingCapability(command: "discovery").description
        #expect(text.contains("run as root"))
        #expect(text.contains("cap_net_admin"))
    }

    @Test("DESIGN §5, spec §13: an unreachable strap points at a phone app holding its one connection")
    func unreachableStrapPointsAtAPhoneAppHoldingIt() {
        let text = BlueZError.strapUnreachable(address: Self.strap, seconds: 10).description
        #expect(text.contains("A0:9E:1A:12:34:56"))
        #expect(text.contains("within 10 s"))
        #expect(text.contains("the strap may be connected to a phone app"))
    }

    @Test("Spec §13: ERFKILL on a socket names no adapter, so the sentence speaks of Bluetooth")
    func anRfkillBlockOfNoNamedAdapterSpeaksOfBluetooth() {
        #expect(
            ATTSocket.classify(.rfkilled, call: "connect", peer: Self.strap).description
                == "Bluetooth is blocked by rfkill: run `rfkill unblock bluetooth` and try again.")
    }

    @Test("Spec §13: --adapter naming no controller lists the ones there are")
    func unknownAdapterListsTheOnesThereAre() {
        #expect(
            BlueZError.adapterNotFound(name: "hci3", available: ["hci0", "hci1"]).description.contains("hci0, hci1"))
    }

    @Test("mgmt-api Error Codes: a failed command names its status, unknown ones by number")
    func managementStatusIsNamedNotNumbered() {
        let busy = BlueZError.managementFailure(command: "Start Discovery", status: .busy).description
        #expect(busy.contains("busy with another operation"))
        let unknown = BlueZError.managementFailure(command: "X", status: MgmtStatus(rawValue: 0x99)).description
        #expect(unknown.contains("0x99"))
    }

    @Test("Spec §13: connect() errnos become the busy, unreachable or system sentence")
    func connectErrnosAreClassifiedForThePerson() {
        #expect(ATTSocket.classify(.busy, call: "connect", peer: Self.strap) == .attChannelBusy(address: Self.strap))
        #expect(
            ATTSocket.classify(.timedOut, call: "connect", peer: Self.strap)
                == .strapUnreachable(address: Self.strap, seconds: 0))
        #expect(
            ATTSocket.classify(Errno(rawValue: 5), call: "connect", peer: Self.strap)
                == .system(call: "connect", errno: Errno(rawValue: 5)))
    }
}
