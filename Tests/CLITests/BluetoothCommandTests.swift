import Foundation
import Testing

/// `recoverydeck pair`, `scan` and `strap` as a person runs them on a machine without Bluetooth: what
/// needs no radio (remembering a strap by address, refusing bad input) works and is checked here; the
/// radio side runs against the real kernel in Tests/vm (Tests/stages/40-bluetooth-vm.sh).
struct BluetoothCommandTests {
    @Test("DESIGN §5: pair ADDRESS remembers the strap and its address type; pairing again replaces it")
    func pairRemembersTheStrapAndItsAddressType() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        func paired() throws -> (String?, String?) {
            let settings = try cli.run(["settings", "--json"])
            #expect(settings.status == 0, "stderr: \(settings.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(settings.stdout.utf8)) as? [String: Any]
            return (object?["strap_address"] as? String, object?["strap_address_type"] as? String)
        }
        // Core 5.3 Vol 6 Part B §1.3.2.1: two top bits set is the static random form (older H10 firmware).
        let random = try cli.run(["pair", "C4:11:22:33:44:55"])
        #expect(random.status == 0 && random.stdout == "Paired with C4:11:22:33:44:55, random address.\n")
        #expect(try paired() == ("C4:11:22:33:44:55", "random"))
        let publicOne = try cli.run(["pair", "a0:9e:1a:12:34:56"])
        #expect(publicOne.stdout == "Paired with A0:9E:1A:12:34:56, public address.\n")
        #expect(try paired() == ("A0:9E:1A:12:34:56", "public"))
        let told = try cli.run(["pair", "A0:9E:1A:12:34:56", "--address-type", "random"])
        #expect(told.status == 0)
        #expect(try paired() == ("A0:9E:1A:12:34:56", "random"), "the type given wins over the guess")
    }

    @Test("DESIGN §5: strap with nothing paired and no --address says to pair first")
    func strapWithoutAPairedStrapSaysPairFirst() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let outcome = try cli.run(["strap", "--seconds", "1"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(
            outcome.stderr == "recoverydeck strap: No strap is paired: run `recoverydeck pair` (or give --address).\n")
    }

    static let badInput: [([String], String)] = [
        (["scan", "--adapter", "wlan0"], "--adapter takes a controller name such as hci0, not 'wlan0'."),
        (["scan", "--adapter", "hci"], "--adapter takes a controller name such as hci0, not 'hci'."),
        (["scan", "--seconds", "0"], "--seconds must be a whole number from 1 to 120, not '0'."),
        (["scan", "--seconds", "121"], "--seconds must be a whole number from 1 to 120, not '121'."),
        (["pair", "nonsense"], "ADDRESS 'nonsense' is not a Bluetooth address such as A0:9E:1A:12:34:56."),
        (["pair", "--address-type", "random"], "--address-type goes with an ADDRESS; a scan learns the type"),
        (["pair", "A0:9E:1A:12:34:56", "--address-type", "static"], "--address-type must be one of public, random"),
        (["pair", "A0:9E:1A:12:34:56", "C4:11:22:33:44:55"], "unexpected argument 'C4:11:22:33:44:55'."),
        (["strap", "--address", "11:22"], "--address '11:22' is not a Bluetooth address such as A0:9E:1A:12:34:56."),
        (["strap", "--seconds", "3601"], "--seconds must be a whole number from 1 to 3600, not '3601'."),
        (["strap", "--adapter", "bt0"], "--adapter takes a controller name such as hci0, not 'bt0'."),
    ]

    @Test(
        "Bad input to scan, pair or strap: one sentence and a hint, exit 64, and no database is created",
        arguments: badInput)
    func badInputIsRefusedWithOneSentence(_ arguments: [String], _ says: String) throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let outcome = try cli.run(arguments)
        #expect(outcome.status == 64, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 2, "one sentence and a usage hint: \(outcome.stderr)")
        #expect(lines.first?.hasPrefix("recoverydeck \(arguments[0]): ") == true)
        #expect(lines.first?.contains(says) == true, "stderr: \(outcome.stderr)")
        #expect(lines.last == "Try 'recoverydeck \(arguments[0]) --help'.")
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath), "bad input created the database")
    }
}
