import Foundation
import Testing

/// Every "spec §N", "DESIGN §N" and "review notes §N" a comment or test cites is a section of a document in
/// docs/ (spec.md, design.md, review-notes.md), so a newcomer can open what the code points to.
struct CitationTests {
    /// One citation: where it is and what it names.
    struct Citation: Equatable {
        var line: Int
        var document: String
        var section: String
    }

    /// The citations in `text`: "spec §5.1", "DESIGN §4", "review notes §6", and the further sections of a
    /// list ("spec §4.1, §4.2 and §5.1"). A trailing full stop is not part of the number.
    static func citations(in text: String) -> [Citation] {
        let form = try! NSRegularExpression(
            pattern:
                #"\b(spec|DESIGN|design|review notes) §([0-9]+(?:\.[0-9]+)*)((?:(?:,| and|/) ?§[0-9]+(?:\.[0-9]+)*)*)"#)
        let further = try! NSRegularExpression(pattern: #"§([0-9]+(?:\.[0-9]+)*)"#)
        var found: [Citation] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            let range = NSRange(line.startIndex..., in: line)
            for match in form.matches(in: line, range: range) {
                let word = String(line[Range(match.range(at: 1), in: line)!])
                let document =
                    switch word {
                    case "spec": "docs/spec.md"
                    case "review notes": "docs/review-notes.md"
                    default: "docs/design.md"
                    }
                var sections = [String(line[Range(match.range(at: 2), in: line)!])]
                if let rest = Range(match.range(at: 3), in: line) {
                    let tail = String(line[rest])
                    for m in further.matches(in: tail, range: NSRange(tail.startIndex..., in: tail)) {
                        sections.append(String(tail[Range(m.range(at: 1), in: tail)!]))
                    }
                }
                found += sections.map { Citation(line: index + 1, document: document, section: $0) }
            }
        }
        return found
    }

    /// The section numbers a document's headings carry ("## §5.1 rMSSD" → "5.1").
    static func sections(ofDocument text: String) -> Set<String> {
        let heading = try! NSRegularExpression(pattern: #"^#{1,4} §([0-9]+(?:\.[0-9]+)*)(?: |$)"#)
        var numbers: Set<String> = []
        for line in text.split(separator: "\n") {
            let line = String(line)
            if let m = heading.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) {
                numbers.insert(String(line[Range(m.range(at: 1), in: line)!]))
            }
        }
        return numbers
    }

    /// One line per citation of `text` (named `file`) whose section `documents` lacks: "file:line: …".
    static func unresolved(in text: String, file: String, documents: [String: Set<String>]) -> [String] {
        citations(in: text).compactMap { c in
            documents[c.document, default: []].contains(c.section)
                ? nil : "\(file):\(c.line): cites §\(c.section), which \(c.document) does not have"
        }
    }

    static var repositoryRoot: URL { NoNetworkCodeTests.repositoryRoot }

    static func loadDocuments() throws -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for name in ["docs/spec.md", "docs/design.md", "docs/review-notes.md"] {
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent(name), encoding: .utf8)
            result[name] = sections(ofDocument: text)
        }
        return result
    }

    @Test("the checker finds each citation form and names file, line and section of one that does not resolve")
    func checkerOnLiterals() throws {
        let documents = try Self.loadDocuments()
        let good =
            "// spec §5.1 and DESIGN §4 \"Clock\"\n/// (spec §4.1, §4.2 and §7.3; review notes §6 Block C), design §5."
        #expect(
            Self.citations(in: good).map { "\($0.line) \($0.document) \($0.section)" } == [
                "1 docs/spec.md 5.1", "1 docs/design.md 4", "2 docs/spec.md 4.1", "2 docs/spec.md 4.2",
                "2 docs/spec.md 7.3", "2 docs/review-notes.md 6", "2 docs/design.md 5",
            ])
        #expect(Self.unresolved(in: good, file: "good.swift", documents: documents) == [])
        // Built by concatenation so this file's own text cites nothing missing.
        let bad = "let x = 1\n// RecoveryDeck spec " + "§99.9, " + "§5.1; DESIGN " + "§42."
        #expect(
            Self.unresolved(in: bad, file: "Sources/Bad.swift", documents: documents) == [
                "Sources/Bad.swift:2: cites §99.9, which docs/spec.md does not have",
                "Sources/Bad.swift:2: cites §42, which docs/design.md does not have",
            ])
    }

    @Test("every spec, DESIGN and review-notes citation in Sources and Tests is a section in docs/")
    func everyCitationResolves() throws {
        let documents = try Self.loadDocuments()
        var problems: [String] = []
        var count = 0
        for folder in ["Sources", "Tests"] {
            let base = Self.repositoryRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])
            else { continue }
            for case let url as URL in walker {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                    let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8)
                else { continue }
                let relative = folder + url.path.dropFirst(base.path.count)
                count += Self.citations(in: text).count
                problems += Self.unresolved(in: text, file: relative, documents: documents)
            }
        }
        #expect(count > 300, "only \(count) citations found: the scanner is not reading the tree")
        for problem in problems { Issue.record(Comment(rawValue: problem)) }
    }
}
