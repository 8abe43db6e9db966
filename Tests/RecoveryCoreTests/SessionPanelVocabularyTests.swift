import Testing

@testable import RecoveryCore

#if canImport(Glibc)
    import Glibc
#endif

/// The lamp and buzzer vocabulary the panel plays, and the catalogue behind deploy/LIGHTS.md.
struct SessionPanelVocabularyTests {
    @Test("A blink code is N blinks then a pause, repeating: what a person counts (RecoveryDeck spec §13 adapted)")
    func blinkCodeCountsAndRepeats() {
        let code = LightPattern.code(3)
        // Sample every 50 ms over two periods and count rising edges per period.
        let period = Int64(code.periodMs)
        #expect(period == 3 * 600 + 1500)
        var risings = 0
        var previous = false
        for t in stride(from: Int64(0), to: 2 * period, by: 50) {
            let on = code.isOn(atMs: t)
            if on && !previous { risings += 1 }
            previous = on
        }
        #expect(risings == 6)
        #expect(code.isOn(atMs: 0))
        #expect(!code.isOn(atMs: 300))
        #expect(!code.isOn(atMs: 1800 + 100))  // in the pause
        #expect(code.isOn(atMs: period + 10))  // repeats
    }

    @Test("A count plays once and ends in its rest state (DESIGN §1 step 2: blue blinks N times before item N)")
    func countPlaysOnce() {
        let count = LightPattern.count(2)
        #expect(count.isOn(atMs: 0) && !count.isOn(atMs: 350) && count.isOn(atMs: 650))
        #expect(!count.isOn(atMs: 1200) && !count.isOn(atMs: 100_000))
        #expect(count.nextChangeMs(after: 1199) == 1200)
        #expect(count.nextChangeMs(after: 1200) == nil)
        let held = LightPattern.count(1, then: true)
        #expect(held.isOn(atMs: 5000))
    }

    @Test("nextChangeMs walks every edge of a repeating pattern and never stalls")
    func nextChangeWalksEdges() {
        for pattern in [LightPattern.slowBlink, .fastBlink, .doubleBlink, .code(2)] {
            var t: Int64 = 0
            var edges = 0
            var state = pattern.isOn(atMs: 0)
            while t < 10_000 {
                guard let next = pattern.nextChangeMs(after: t) else {
                    Issue.record("\(pattern.name) stalled at \(t)")
                    break
                }
                #expect(next > t)
                // Between t and next the lamp does not change.
                #expect(pattern.isOn(atMs: next - 1) == pattern.isOn(atMs: t))
                t = next
                let now = pattern.isOn(atMs: t)
                if now != state { edges += 1 }
                state = now
            }
            #expect(edges > 4, "\(pattern.name)")
        }
        #expect(LightPattern.solid.nextChangeMs(after: 0) == nil)
        #expect(LightPattern.solid.isOn(atMs: 123_456))
        #expect(!LightPattern.off.isOn(atMs: 0))
    }

    @Test("Every fault has its own red blink code, 1–11 (the clock's is 10, a restore's 11), and the gate's is two (DESIGN §1)")
    func faultCodesAreDistinct() {
        let codes = MorningFault.allCases.map(\.blinkCode)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { (1...11).contains($0) })
        #expect(MorningFault.clockUnsynchronised.blinkCode == 10)
        #expect(MorningFault.restoring.blinkCode == 11)
        #expect(MorningFault.questionnaireMissing.blinkCode == 2)
        #expect(Indication.refused.display.red == .count(2))
    }

    @Test("The RR-unavailable sentence is the spec's, verbatim (RecoveryDeck spec §4.1)")
    func rrSentenceVerbatim() {
        #expect(
            MorningFault.rrUnavailable.sentence
                == "RR intervals not available — ensure H10 is snug, charged, and not connected exclusively elsewhere; prefer H10 in heart rate mode."
        )
    }

    @Test("Every state in the catalogue looks different from every other (a person can tell them apart)")
    func statesAreDistinguishable() {
        let rows = Indication.catalogue.filter { if case .channel = $0 { return false } else { return true } }
        var seen: [PanelDisplay: Indication] = [:]
        for row in rows {
            if let other = seen[row.display] {
                // Shared by design: a missing composite shows nothing (missing stays missing), and DESIGN §1
                // names both the reminder and a building readout "blue blink"; the reminder ends when the
                // morning is saved, before any readout, so the two never meet.
                let allowed: Set<Set<String>> = [["idle", "readout missing"], ["reminder", "readout building"]]
                #expect(allowed.contains([row.name, other.name]), "\(row.name) looks like \(other.name)")
            }
            seen[row.display] = row
        }
    }

    @Test("Sounds that mean different things differ in rhythm, except the documented shared ones")
    func soundsDiffer() {
        let patterns = Set(Sound.allCases.map(\.pattern))
        #expect(patterns.count >= 7)
        #expect(Sound.standNow.pattern.periodMs > Sound.wrongKey.pattern.periodMs)
        #expect(Sound.wrongKey.pattern.periodMs > Sound.digitAccepted.pattern.periodMs)
        let rising = Sound.complete.pattern.steps.filter(\.on).map(\.ms)
        #expect(rising.count == 3 && rising == rising.sorted() && Set(rising).count == 3)
    }

    @Test("A readout channel shows blue N blinks first, then its own light for 3 s (DESIGN §1 step 5)")
    func channelShowsNumberThenLight() {
        let display = Indication.channel(3, .red).display
        let count = Int64(LightPattern.countDurationMs(3))
        #expect(display.blue == .count(3))
        #expect(!display.red.isOn(atMs: count - 1))
        #expect(display.red.isOn(atMs: count))
        #expect(display.red.isOn(atMs: count + 2999))
        #expect(!display.red.isOn(atMs: count + 3000))
        #expect(display.green == .off && display.yellow == .off)
        // Building: blue counts, then slow-blinks; missing: only the count.
        let building = Indication.channel(2, .building).display
        #expect(building.blue.isOn(atMs: 0) && building.blue.isOn(atMs: 1200 + 10))
        #expect(Indication.channel(4, .missing).display == PanelDisplay(blue: .count(4)))
    }

    @Test("deploy/LIGHTS.md is exactly the generated light table (regenerate: recoverydeckd --print-light-table)")
    func lightsFileMatchesCatalogue() throws {
        let path = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let file = "/" + path + "/deploy/LIGHTS.md"
        let text = try #require(Self.read(file), "missing \(file)")
        #expect(text == LightTable.markdown())
    }

    static func read(_ path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
