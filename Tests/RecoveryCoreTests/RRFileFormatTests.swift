import Testing

@testable import RecoveryCore

/// The RR files other tools write (`RRFileFormat`), each as that tool lays it out, and the refusals.
@Suite struct RRFileFormatTests {
    func read(_ text: String) -> RRFileFormat? { try? RRFileFormat.read(text) }

    func problem(_ text: String) -> String? {
        do {
            _ = try RRFileFormat.read(text)
            return nil
        } catch { return error.sentence(file: "f.txt") }
    }

    @Test("Elite HRV: one value a line, in ms")
    func eliteHRV() {
        let f = read("812\n845\n830\n")
        #expect(f?.intervalsMs == [812, 845, 830])
        #expect(f?.layout == .oneValueALine && f?.unit == .milliseconds && f?.note == nil)
    }

    @Test("Kubios text export: # header lines, then one value a line in seconds (recognised and said)")
    func kubios() {
        let text = "# Kubios HRV RR export\n# Sample: rest\n#\n0.812\n0.845\n0.830\n"
        let f = read(text)
        #expect(f?.intervalsMs == [812, 845, 830])
        #expect(f?.unit == .seconds && f?.unitGuessed == true)
        #expect(f?.note == "read as seconds (every value is below 3) and converted to ms.")
    }

    @Test("Welltory: whitespace-separated values on one or more lines")
    func welltory() {
        #expect(read("812 845 830\n")?.intervalsMs == [812, 845, 830])
        let f = read("812  845\t830\n790 801\n")
        #expect(f?.intervalsMs == [812, 845, 830, 790, 801])
        #expect(f?.layout == .valuesSeparatedByWhitespace)
    }

    @Test("Polar Sensor Logger: `Phone timestamp;RR-interval [ms]`, semicolons")
    func polarSensorLogger() {
        let text = "Phone timestamp;RR-interval [ms]\n2026-03-01T06:40:01.123;812\n2026-03-01T06:40:01.935;845\n"
        let f = read(text)
        #expect(f?.intervalsMs == [812, 845])
        #expect(f?.layout == .column && f?.columnName == "RR-interval [ms]" && f?.unitGuessed == false)
    }

    @Test("a CSV with an rr column, with CRLF line ends and a byte order mark; a header may state seconds")
    func csvWithBOMAndCRLF() {
        #expect(read("\u{FEFF}time,rr\r\n1,812\r\n2,845\r\n")?.intervalsMs == [812, 845])
        let seconds = read("time,RR (s)\n1,0.812\n2,0.845\n")
        #expect(seconds?.intervalsMs == [812, 845] && seconds?.unit == .seconds)
        #expect(seconds?.note == "read as seconds (the header says seconds) and converted to ms.")
        // A header that says ms is believed even for small values, which then fail as impossible RR elsewhere.
        #expect(read("rr_ms\n2\n2.5\n")?.unit == .milliseconds)
    }

    @Test("garbage names its first bad line; an empty file, a missing column and impossible values are refused")
    func refusals() {
        #expect(problem("812\n845\nabc\n830\n") == "f.txt line 3: 'abc' is not an RR interval in milliseconds.")
        #expect(problem("812\n845 84x5\n") == "f.txt line 2: '84x5' is not an RR interval in milliseconds.")
        #expect(problem("# only comments\n\n") == "f.txt holds no RR intervals.")
        #expect(
            problem("time,hr\n1,60\n")
                == "f.txt line 1: expected RR in ms or a header with an rr column, not 'time,hr'.")
        #expect(problem("time;rr\n1;812\n2\n") == "f.txt line 3 has no rr value.")
        #expect(problem("812\n0\n") == "f.txt line 2: '0' is not an RR interval in milliseconds.")
        #expect(
            problem("812\n64000\n")
                == "f.txt line 2: RR interval 64000.0 ms is impossible (a strap reports under 64 s).")
    }

    @Test("a constant series (every interval identical) is refused with a sentence: it is not a morning")
    func constantSeries() {
        let lines = String(repeating: "1000\n", count: 1000)
        #expect(
            problem(lines)
                == "f.txt has every interval equal (1000 × 1000.0 ms): a constant series is a test pattern, not a "
                + "heart's rhythm, so it is not a morning.")
        // One beat different is a series (the artifact rules then judge it).
        #expect(read(lines + "1001\n")?.intervalsMs.count == 1001)
    }
}
