import Panel
import Platform
import RecoveryCore
import Simulation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Pin map and the libgpiod backend's errors (DESIGN §2: chip found by label, never by number)")
struct PanelErrorTests {
    @Test("The default pin map is DESIGN §2's")
    func defaults() {
        let pins = PinMap.standard
        #expect(pins.goButton == 17 && pins.keypadRows == [5, 6, 13, 19] && pins.keypadColumns == [12, 16, 20])
        #expect([pins.red, pins.yellow, pins.green, pins.blue, pins.buzzer] == [22, 23, 24, 25, 18])
        #expect(pins.chipLabels == ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"])
    }

    /// raspberrypi/linux arch/arm64/boot/dts/broadcom/bcm2712-rpi-5-b.dts (commit 09186d79), `&rp1_gpio`
    /// gpio-line-names, lines 0–33 of the 54 (the rest are the camera, USB and fan lines).
    static let raspberryPi5LineNames = [
        "ID_SDA", "ID_SCL", "GPIO2", "GPIO3", "GPIO4", "GPIO5", "GPIO6", "GPIO7", "GPIO8", "GPIO9", "GPIO10",
        "GPIO11", "GPIO12", "GPIO13", "GPIO14", "GPIO15", "GPIO16", "GPIO17", "GPIO18", "GPIO19", "GPIO20", "GPIO21",
        "GPIO22", "GPIO23", "GPIO24", "GPIO25", "GPIO26", "GPIO27", "PCIE_RP1_WAKE", "FAN_TACH", "HOST_SDA",
        "HOST_SCL", "ETH_RST_N", "-",
    ]

    @Test("On the Pi 5's pinctrl-rp1 every default pin is the line the device tree names after its header GPIO")
    func raspberryPi5Offsets() throws {
        #expect(PinMap.raspberryPiHeaderChips.map(\.label) == PinMap.standard.chipLabels)
        #expect(PinMap.raspberryPiHeaderChips.first { $0.label == "pinctrl-rp1" }?.lines == 54)
        #expect(PinMap.raspberryPiHeaderChips.first { $0.label == "pinctrl-bcm2711" }?.lines == 58)
        for (part, gpio) in PinMap.standard.assignments {
            let offset = try #require(PinMap.headerOffset(ofGPIO: gpio, onChip: "pinctrl-rp1"), "\(part)")
            #expect(Self.raspberryPi5LineNames[Int(offset)] == "GPIO\(gpio)", "\(part)")
        }
        // Header GPIO0–27 are lines 0–27; line 28 onwards is RP1's own.
        for gpio in UInt32(2)...27 {
            #expect(Self.raspberryPi5LineNames[Int(PinMap.headerOffset(ofGPIO: gpio, onChip: "pinctrl-rp1")!)] == "GPIO\(gpio)")
        }
        #expect(PinMap.headerOffset(ofGPIO: 28, onChip: "pinctrl-rp1") == nil)
        #expect(PinMap.headerOffset(ofGPIO: 17, onChip: "gpio-sim") == nil)
    }

    @Test("A pin past GPIO27 on a Raspberry Pi chip is refused by name (the Pi 5's line 32 resets Ethernet)")
    func offHeaderPin() {
        var pins = PinMap.standard
        pins.buzzer = 32
        #expect(throws: PanelError.invalidPinMap("GPIO32 (the buzzer) is not on the 40-pin header, which has GPIO0–27")) {
            try pins.validate()
        }
        pins.chipLabels = ["my-expander"]
        #expect(throws: Never.self) { try pins.validate() }
    }

    @Test("A chip with fewer lines than the pin map needs is named with its line count, not as EINVAL")
    func lineNotOnChip() {
        #expect(
            PanelError.lineNotOnChip(offset: 24, role: "green", label: "pinctrl-rp1", lines: 24).description
                == "GPIO24 (green) is not on GPIO chip \"pinctrl-rp1\", which has 24 lines (0–23).")
    }

    @Test("A GPIO assigned twice or a keypad with the wrong line count is refused in one sentence")
    func invalidPinMaps() {
        var twice = PinMap.standard
        twice.buzzer = 17
        #expect(throws: PanelError.invalidPinMap("GPIO17 is assigned to both the GO button and the buzzer")) {
            try twice.validate()
        }
        #expect(
            PanelError.invalidPinMap("GPIO17 is assigned to both the GO button and the buzzer").description
                == "The pin map is not usable: GPIO17 is assigned to both the GO button and the buzzer.")
        var rows = PinMap.standard
        rows.keypadRows = [5, 6, 13]
        #expect(throws: PanelError.invalidPinMap("the keypad needs 4 row lines, not 3")) { try rows.validate() }
        #expect(throws: PanelError.invalidPinMap("the keypad needs 4 row lines, not 3")) {
            try Panel(chip: SimulatedChip(), pins: rows)
        }
    }

    @Test("No chip with the label: one sentence naming the label and listing the chips present (none)")
    func chipNotFoundInEmptyDirectory() throws {
        var template = Array("/tmp/recoverydeck-gpio-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { rmdir(dir) }
        #expect(throws: PanelError.chipNotFound(labels: ["pinctrl-rp1"], present: [])) {
            try LibgpiodChip(labels: ["pinctrl-rp1"], directory: dir)
        }
        #expect(
            PanelError.chipNotFound(labels: ["pinctrl-rp1"], present: []).description
                == "No GPIO chip labelled \"pinctrl-rp1\" was found; chips present: none.")
    }

    @Test("A gpiochip entry that is not a GPIO device is listed with why, and the labels tried are all named")
    func chipNotFoundListsWhatIsThere() throws {
        var template = Array("/tmp/recoverydeck-gpio-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let fake = dir + "/gpiochip0"
        Glibc.close(open(fake, O_CREAT | O_WRONLY, 0o600))
        defer {
            unlink(fake)
            rmdir(dir)
        }
        do {
            _ = try LibgpiodChip(labels: LibgpiodChip.raspberryPiLabels, directory: dir)
            Issue.record("a regular file was accepted as a GPIO chip")
        } catch {
            guard case .chipNotFound(let labels, let present) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(labels == LibgpiodChip.raspberryPiLabels)
            #expect(present.count == 1)
            #expect(present.first?.hasPrefix("gpiochip0 (not openable as a GPIO chip: ") == true)
            #expect(
                error.description.hasPrefix(
                    "No GPIO chip labelled \"pinctrl-rp1\", \"pinctrl-bcm2711\" or \"pinctrl-bcm2835\" was found; chips present: gpiochip0 (not openable as a GPIO chip: "
                ))
        }
    }

    @Test("The chip listing: gpiochip* entries only, in number order, each read as a chip or said why not")
    func chipListing() throws {
        var template = Array("/tmp/recoverydeck-gpio-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let files = ["gpiochip10", "gpiochip2", "notachip"]
        for name in files { Glibc.close(open(dir + "/" + name, O_CREAT | O_WRONLY, 0o600)) }
        // A device that is not a GPIO chip, and an entry that cannot be opened at all (root ignores permissions,
        // so a dangling link stands for a chip gone away).
        symlink("/dev/null", dir + "/gpiochip0")
        symlink(dir + "/no-such-device", dir + "/gpiochip3")
        defer {
            for name in files + ["gpiochip0", "gpiochip3"] { unlink(dir + "/" + name) }
            rmdir(dir)
        }
        let devices = GPIOChipDevice.all(in: dir)
        #expect(devices.map(\.name) == ["gpiochip0", "gpiochip2", "gpiochip3", "gpiochip10"])
        #expect(devices.map(\.path) == devices.map { dir + "/" + $0.name })
        let notTTY = Errno(rawValue: ENOTTY)
        #expect(
            devices.map(\.reading) == [.notAChip(notTTY), .notAChip(notTTY), .unopened(.noEntry), .notAChip(notTTY)])
        #expect(devices.allSatisfy { $0.label == nil })
        #expect(devices[2].labelOrReason == "not openable as a GPIO chip: \(Errno.noEntry)")
        #expect(LibgpiodChip.chips(in: dir).map(\.label) == devices.map(\.labelOrReason))
        #expect(GPIOChipDevice.all(in: dir + "/no-such-folder").isEmpty)
    }

    @Test("This machine's /dev is searched for real and the build reports which libgpiod API it uses")
    func realDevDirectory() {
        #expect(LibgpiodChip.libraryDescription.contains("API v"))
        do {
            let chip = try LibgpiodChip(labels: ["recoverydeck-no-such-label"])
            Issue.record("found a chip labelled \(chip.label)")
        } catch {
            let present = LibgpiodChip.chips().map { "\($0.name) (\($0.label))" }
            #expect(error == .chipNotFound(labels: ["recoverydeck-no-such-label"], present: present))
        }
    }

    @Test("A line the chip cannot give (already in use) fails the panel with the line named and releases the rest")
    func lineInUse() throws {
        let chip = SimulatedChip()
        let squatter = try chip.requestOutput(offset: 25, initiallyHigh: false, consumer: "someone-else")
        do {
            _ = try Panel(chip: chip)
            Issue.record("the panel started with GPIO25 in use")
        } catch {
            #expect(
                error.description == "GPIO25 (blue) could not be requested: \(PanelError.lineFailedDescription(.busy))."
            )
        }
        #expect(chip.requestedInputs.isEmpty)
        #expect(chip.requestedOutputs == [25])
        squatter.release()
    }
}

extension PanelError {
    static func lineFailedDescription(_ errno: Platform.Errno) -> String { "\(errno)" }
}
