import TestSupport
import Testing

@testable import BlueZ

/// Linux Documentation/ABI/stable/sysfs-class-rfkill: each switch is a folder rfkillN with
/// `type`, `name`, `soft` and `hard` files holding "0" or "1" and a newline.
@Suite struct RfkillTests {
    /// The switches read back from a fake /sys/class/rfkill holding `switches`.
    private func read(_ switches: [(name: String, type: String, soft: String, hard: String)]) -> [RfkillSwitch] {
        let dir = TemporaryDirectory()
        for (index, s) in switches.enumerated() {
            dir.write("rfkill\(index)/name", s.name + "\n")
            dir.write("rfkill\(index)/type", s.type + "\n")
            dir.write("rfkill\(index)/soft", s.soft + "\n")
            dir.write("rfkill\(index)/hard", s.hard + "\n")
        }
        return withExtendedLifetime(dir) { Rfkill.switches(root: dir.path) }
    }

    @Test("sysfs-class-rfkill: every switch is read with its type, name, soft and hard block")
    func readsEverySwitchWithItsBlocks() {
        let switches = read([
            ("phy0", "wlan", "0", "0"), ("hci0", "bluetooth", "1", "0"), ("hci1", "bluetooth", "0", "1"),
        ])
        #expect(
            switches == [
                RfkillSwitch(index: 0, name: "phy0", type: "wlan", softBlocked: false, hardBlocked: false),
                RfkillSwitch(index: 1, name: "hci0", type: "bluetooth", softBlocked: true, hardBlocked: false),
                RfkillSwitch(index: 2, name: "hci1", type: "bluetooth", softBlocked: false, hardBlocked: true),
            ])
    }

    @Test("sysfs-class-rfkill soft: a soft block says run rfkill unblock bluetooth")
    func softBlockOfTheAdapterSaysRunRfkillUnblock() {
        let switches = read([("hci0", "bluetooth", "1", "0")])
        let block = Rfkill.block(of: "hci0", in: switches)
        #expect(block == .rfkillBlocked(name: "hci0", hard: false))
        #expect(block?.description.contains("rfkill unblock bluetooth") == true)
    }

    @Test("sysfs-class-rfkill hard: a hard block is reported first, only the switch lifts it")
    func hardBlockWinsOverSoftBecauseOnlyTheSwitchCanLiftIt() {
        let switches = read([("hci0", "bluetooth", "1", "1")])
        #expect(Rfkill.block(of: "hci0", in: switches) == .rfkillBlocked(name: "hci0", hard: true))
        #expect(Rfkill.block(of: "hci0", in: switches)?.description.contains("hardware switch") == true)
    }

    @Test("sysfs-class-rfkill: another adapter's or another radio's block does not count")
    func anotherAdaptersOrAnotherRadiosBlockDoesNotCount() {
        let switches = read([("hci1", "bluetooth", "1", "0"), ("phy0", "wlan", "1", "1")])
        #expect(Rfkill.block(of: "hci0", in: switches) == nil)
    }

    @Test("sysfs-class-rfkill: a Bluetooth switch of no particular adapter blocks them all")
    func aBluetoothSwitchOfNoParticularAdapterBlocksThemAll() {
        let switches = read([("tpacpi_bluetooth_sw", "bluetooth", "1", "0")])
        #expect(Rfkill.block(of: "hci0", in: switches) == .rfkillBlocked(name: "hci0", hard: false))
    }

    @Test("sysfs-class-rfkill: a missing or unreadable folder means no switches, never a failure")
    func missingOrUnreadableSysfsMeansNoSwitches() {
        #expect(Rfkill.switches(root: "/nonexistent/rfkill").isEmpty)
        let dir = TemporaryDirectory()
        dir.write("rfkill0/type", "bluetooth\n")  // soft and hard missing: a half-written entry
        withExtendedLifetime(dir) { #expect(Rfkill.switches(root: dir.path).isEmpty) }
    }
}
