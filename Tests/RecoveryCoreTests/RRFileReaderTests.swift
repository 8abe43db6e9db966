import Testing

@testable import RecoveryCore

/// The RR file read as it streams: the same reading whatever the chunk size (a CRLF or the byte order mark
/// split between chunks), and bounded lines and counts refused with a sentence.
struct RRFileReaderTests {
    static func read(_ bytes: [UInt8], chunkSize: Int) throws(RRFileFormat.Problem) -> RRFileFormat {
        var reader = RRFileReader()
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            try reader.take(bytes[start..<end])
            start = end
        }
        return try reader.finish()
    }

    @Test("a CSV with a byte order mark and CRLF, and a Kubios file in seconds, read alike in every chunk size")
    func chunkSizes() throws {
        let csv = "\u{FEFF}time,RR (ms)\r\n1,1000\r\n2,1010\r\n\r\n3,990\r\n"
        let kubios = "# Kubios\n0.998\n1.002 \n\n1.010"
        for size in 1...12 {
            let a = try Self.read(Array(csv.utf8), chunkSize: size)
            #expect(a.intervalsMs == [1000, 1010, 990] && a.layout == .column, "chunk size \(size)")
            let b = try Self.read(Array(kubios.utf8), chunkSize: size)
            #expect(b.unit == .seconds && b.intervalsMs.count == 3, "chunk size \(size)")
            #expect(abs(b.intervalsMs[0] - 998) < 1e-9, "chunk size \(size)")
        }
    }

    @Test("a line longer than 1 MiB is refused with its number, before the rest is read")
    func longLine() {
        let bytes = Array("1000\n".utf8) + [UInt8](repeating: 0x38, count: RRFileReader.maximumLineBytes + 1)
        #expect {
            _ = try Self.read(bytes, chunkSize: 65_536)
        } throws: { error in
            (error as? RRFileFormat.Problem)?.sentence(file: "f.txt") == "f.txt line 2 is longer than 1024 KiB; an RR file's lines are short."
        }
    }

    @Test("more than 500,000 intervals are refused with a sentence naming the line")
    func tooMany() {
        var text = ""
        text.reserveCapacity(2_600_000)
        for i in 0...RRFileReader.maximumIntervals { text += i % 2 == 0 ? "1000\n" : "990\n" }
        #expect {
            _ = try Self.read(Array(text.utf8), chunkSize: 65_536)
        } throws: { error in
            (error as? RRFileFormat.Problem)?.sentence(file: "f.txt")
                == "f.txt line 500001 has interval number 500001; an RR file may hold 500000 (about five days and nights), so split it."
        }
    }

    @Test("a line that is not UTF-8, and a header echoed back cut to 80 characters with its escape shown")
    func badBytesEchoed() {
        #expect {
            _ = try Self.read([0x31, 0x30, 0x0A, 0xFF, 0x0A], chunkSize: 2)
        } throws: { error in
            (error as? RRFileFormat.Problem)?.sentence(file: "f.txt") == "f.txt line 2 is not UTF-8 text."
        }
        let header = "\u{1b}[31m" + String(repeating: "a,", count: 100)
        do {
            _ = try Self.read(Array(header.utf8), chunkSize: 7)
            Issue.record("a header without an rr column was read")
        } catch {
            let sentence = error.sentence(file: "f.txt")
            #expect(sentence.contains("'\\u{1b}[31m") && sentence.contains("…'") && !sentence.contains("\u{1b}"), "\(sentence)")
        }
    }
}
