import HeartRateProtocol
import Testing

@testable import BlueZ

/// `--adapter hciN`, else the first powered controller with LE on; each refusal says what to do.
@Suite struct ControllerSelectionTests {
    static func controller(_ index: UInt16, powered: Bool, le: Bool = true) -> Controller {
        var current: ControllerSettings = []
        if powered { current.insert(.powered) }
        if le { current.insert(.lowEnergy) }
        let info = ControllerInfo(
            address: BluetoothAddress(rawValue: 0x00AA_0100_0000 + UInt64(index)), bluetoothVersion: 9,
            manufacturer: 1521,
            supportedSettings: [.powered, .lowEnergy, .advertising], currentSettings: current, classOfDevice: 0,
            name: "", shortName: "")
        return Controller(index: index, info: info)
    }

    @Test("recoverydeck --adapter: without it, the first powered controller (LE on first) is used")
    func withoutAdapterTheFirstPoweredControllerIsChosen() throws {
        let all = [
            Self.controller(0, powered: false), Self.controller(1, powered: true), Self.controller(2, powered: true),
        ]
        #expect(try Controller.choose(nil, from: all, rfkill: []).name == "hci1")
    }

    @Test("--adapter hciN picks that controller even when it is not the first")
    func theNamedAdapterIsChosenEvenIfNotFirst() throws {
        let all = [Self.controller(0, powered: true), Self.controller(1, powered: true)]
        #expect(try Controller.choose("hci1", from: all, rfkill: []).name == "hci1")
    }

    @Test("Spec §13: an unknown --adapter is refused with the controllers that exist")
    func anUnknownAdapterListsTheOthers() {
        let all = [Self.controller(0, powered: true), Self.controller(1, powered: true)]
        #expect(throws: BlueZError.adapterNotFound(name: "hci7", available: ["hci0", "hci1"])) {
            try Controller.choose("hci7", from: all, rfkill: [])
        }
    }

    @Test("Spec §13: no controller at all is the missing-adapter sentence")
    func noControllerAtAllIsNoAdapter() {
        #expect(throws: BlueZError.noAdapter) { try Controller.choose(nil, from: [], rfkill: []) }
    }

    @Test("sysfs-class-rfkill: a powered-off adapter under a block is reported as rfkill")
    func aPoweredOffAdapterBlockedByRfkillIsReportedAsRfkill() {
        let rfkill = [RfkillSwitch(index: 0, name: "hci0", type: "bluetooth", softBlocked: true, hardBlocked: false)]
        #expect(throws: BlueZError.rfkillBlocked(name: "hci0", hard: false)) {
            try Controller.choose(nil, from: [Self.controller(0, powered: false)], rfkill: rfkill)
        }
    }

    @Test("mgmt-api Read Controller Information: powered off without a block says power it on")
    func aPoweredOffAdapterWithoutRfkillIsPoweredOff() {
        #expect(throws: BlueZError.adapterPoweredOff(name: "hci0")) {
            try Controller.choose("hci0", from: [Self.controller(0, powered: false)], rfkill: [])
        }
    }

    @Test("mgmt-api Current Settings bit 9: Low Energy switched off is named with the command to fix it")
    func lowEnergySwitchedOffIsNamed() {
        #expect(throws: BlueZError.lowEnergyDisabled(name: "hci0")) {
            try Controller.choose(nil, from: [Self.controller(0, powered: true, le: false)], rfkill: [])
        }
    }

    @Test("Adapter names are hci and an index below MGMT_INDEX_NONE, nothing else")
    func adapterNamesParseOnlyAsHciAndANumber() {
        #expect(Controller.index(named: "hci0") == 0)
        #expect(Controller.index(named: "hci12") == 12)
        #expect(Controller.index(named: "hci") == nil)
        #expect(Controller.index(named: "bt0") == nil)
        #expect(Controller.index(named: "hci-1") == nil)
    }

    /// mgmt-api.txt: Command Complete carries the opcode and status; a failure becomes a sentence.
    @Test("mgmt-api Command Complete/Status: replies match by opcode and index; failures explained")
    func managementRepliesAreMatchedByOpcodeAndIndexAndFailuresExplained() throws {
        let ok = MgmtEventPacket(
            index: 2, event: .commandComplete(.startDiscovery, status: .success, reply: .discovery(.le)))
        #expect(try ManagementSocket.reply(to: .startDiscovery, index: 2, in: ok) == .discovery(.le))
        #expect(try ManagementSocket.reply(to: .startDiscovery, index: 1, in: ok) == nil, "another controller's reply")
        #expect(try ManagementSocket.reply(to: .stopDiscovery, index: 2, in: ok) == nil, "another command's reply")
        let denied = MgmtEventPacket(index: 2, event: .commandStatus(.startDiscovery, status: .permissionDenied))
        #expect(throws: BlueZError.missingCapability(command: MgmtOpcode.startDiscovery.description)) {
            try ManagementSocket.reply(to: .startDiscovery, index: 2, in: denied)
        }
        let off = MgmtEventPacket(index: 0, event: .commandStatus(.startDiscovery, status: .notPowered))
        #expect(throws: BlueZError.adapterPoweredOff(name: "hci0")) {
            try ManagementSocket.reply(to: .startDiscovery, index: 0, in: off)
        }
    }
}
