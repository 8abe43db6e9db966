import Foundation
import Testing

/// Every duration the panel's sentences name comes from the number the box runs by (`SessionTimings`, the
/// light patterns, `Indication.channelShowMs`), so a box with other timings never says the standard ones. This
/// scans the sources of those sentences (the session, its catalogue, the quality verdict and the daemon's
/// snapshot and sentences) for a number written by hand before a unit of time inside a string literal.
struct HandWrittenDurationTests {
    /// The directories and files whose string literals are sentences a person reads or hears.
    static let sentenceSources = [
        "Sources/RecoveryCore/Session", "Sources/RecoveryCore/Metrics/Quality+Verdict.swift",
        "Sources/RecoveryCore/Day", "Sources/Appliance",
    ]

    /// A number, then a unit of time, inside a string literal on one line (interpolations are not literals).
    static func handWritten(in line: Substring) -> String? {
        let code = line.components(separatedBy: "//").first ?? ""
        var inString = false
        var literal = ""
        var previous: Character = " "
        var found: [String] = []
        for c in code {
            if c == "\"" && previous != "\\" {
                if inString { found.append(literal) }
                inString.toggle()
                literal = ""
            } else if inString {
                literal.append(c)
            }
            previous = c
        }
        let pattern = #"(^|[^\w.])\d+(\.\d+)? ?(ms|s|seconds?|minutes?|min|h|hours?)\b"#
        return found.first { $0.range(of: pattern, options: .regularExpression) != nil }
    }

    @Test("the scanner finds a hand-written duration in a literal, and passes an interpolated one or a comment")
    func scannerFindsDurations() {
        #expect(Self.handWritten(in: #"return "GO within 5 s confirms""#) != nil)
        #expect(Self.handWritten(in: #"+ "*fast blink* 125 ms on""#) != nil)
        #expect(Self.handWritten(in: #"x("lie still for 90 seconds")"#) != nil)
        #expect(Self.handWritten(in: #""green for 3 s, do the habit""#) != nil)
        #expect(Self.handWritten(in: #""GO within \(SessionTimings.spoken(t.confirmMs)) confirms""#) == nil)
        #expect(Self.handWritten(in: #"let x = 5 // "5 s" is the spec's"#) == nil)
        #expect(Self.handWritten(in: #""RMSSD 42 ms""#) != nil)
        #expect(Self.handWritten(in: #""the 2 straps""#) == nil)
        #expect(Self.handWritten(in: #""v1.5 sensor""#) == nil)
    }

    @Test("no sentence of the panel, the session, the verdict or the daemon names a duration by hand")
    func noHandWrittenDurations() throws {
        let root = NoNetworkCodeTests.repositoryRoot
        var files: [URL] = []
        for source in Self.sentenceSources {
            let url = root.appendingPathComponent(source)
            if source.hasSuffix(".swift") {
                files.append(url)
                continue
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".swift") }
            files += names.sorted().map { url.appendingPathComponent($0) }
        }
        #expect(files.count > 20, "the sentence sources were found")
        var offences: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.drop { $0 == " " }
                if trimmed.hasPrefix("///") || trimmed.hasPrefix("//") { continue }
                if let literal = Self.handWritten(in: line) {
                    offences.append("\(file.lastPathComponent):\(number + 1): \"\(literal)\"")
                }
            }
        }
        #expect(offences.isEmpty, "\(offences.joined(separator: "\n"))")
    }
}
