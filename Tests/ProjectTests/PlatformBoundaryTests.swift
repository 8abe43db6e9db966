import Foundation
import Testing

/// `Platform` is where the product opens a file and puts an errno into words (swift-system's shape:
/// `FileDescriptor.open` with typed options and `O_CLOEXEC` always, `Errno.message`). This scans every product
/// source file outside it for a raw `open(` / `openat(` call given `O_` flags, for `strerror` and for `opendir`
/// (folders are listed by `DirectoryEntries`), and names each by file and line.
///
/// Allowed: `Sources/Platform` itself and `Sources/CPlatform`, Platform's own C half (its `narrow_mode` opens a
/// file with `O_PATH`, which only C can do without a descriptor that would release SQLite's locks). The other C
/// shims (CGPIOD, CBlueZ, CSQLite) are not: a descriptor they need is opened in Swift and handed to them.
struct PlatformBoundaryTests {
    static let allowed = ["Sources/Platform/", "Sources/CPlatform/"]

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// `text` with `//` and `/* */` comments blanked out, lines kept in place.
    static func withoutComments(_ text: String) -> [Character] {
        var out: [Character] = []
        let chars = Array(text)
        var i = 0
        var inString = false
        while i < chars.count {
            let c = chars[i]
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            if inString {
                if c == "\\", let next {
                    out += [c, next]
                    i += 2
                    continue
                }
                if c == "\"" || c == "\n" { inString = false }
                out.append(c)
            } else if c == "\"" {
                inString = true
                out.append(c)
            } else if c == "/" && next == "/" {
                while i < chars.count && chars[i] != "\n" { i += 1 }
                continue
            } else if c == "/" && next == "*" {
                i += 2
                while i < chars.count && !(chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/") {
                    if chars[i] == "\n" { out.append("\n") }
                    i += 1
                }
                i += 2
                continue
            } else {
                out.append(c)
            }
            i += 1
        }
        return out
    }

    /// "line N: what" for each raw open with `O_` flags and each `strerror` in `text`.
    static func violations(in text: String) -> [String] {
        let code = withoutComments(text)
        var found: [String] = []
        var line = 1
        var i = 0
        func isIdentifier(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        func word(at i: Int, _ w: String) -> Bool {
            let letters = Array(w)
            guard i + letters.count <= code.count, Array(code[i..<(i + letters.count)]) == letters else { return false }
            return i == 0 || !isIdentifier(code[i - 1])
        }
        while i < code.count {
            if code[i] == "\n" { line += 1 }
            if word(at: i, "strerror") {
                let rest = String(code[(i + 8)..<min(code.count, i + 11)])
                if rest.first.map({ !isIdentifier($0) }) ?? true
                    || rest.range(of: #"^_[rl]($|[^A-Za-z0-9_])"#, options: .regularExpression) != nil
                {
                    found.append("line \(line): strerror")
                }
            }
            if word(at: i, "opendir(") || word(at: i, "fdopendir(") {
                found.append("line \(line): opendir (use DirectoryEntries.names)")
            }
            for call in ["openat(", "open("] where word(at: i, call) {
                // The argument list, to the matching parenthesis.
                var depth = 0
                var j = i + call.count - 1
                var arguments = ""
                repeat {
                    if code[j] == "(" { depth += 1 }
                    if code[j] == ")" { depth -= 1 }
                    arguments.append(code[j])
                    j += 1
                } while depth > 0 && j < code.count
                if arguments.range(of: #"\bO_[A-Z]+\b"#, options: .regularExpression) != nil {
                    found.append("line \(line): \(call)…O_… (use FileDescriptor.open)")
                }
                break
            }
            i += 1
        }
        return found
    }

    @Test(
        "the scanner finds raw opens with O_ flags over several lines and strerror, and passes Platform's calls and comments"
    )
    func scannerFindsRawCalls() {
        #expect(Self.violations(in: "let fd = open(path, O_RDONLY)") == ["line 1: open(…O_… (use FileDescriptor.open)"])
        #expect(
            Self.violations(in: "x\nlet fd = Glibc.open(\n    path, O_WRONLY | O_CREAT, 0o600)").first?.hasPrefix(
                "line 2: open(") == true)
        #expect(
            Self.violations(in: "openat(dir, name, flags | O_NOFOLLOW)").first?.hasPrefix("line 1: openat(") == true)
        #expect(Self.violations(in: "String(cString: strerror(errno))") == ["line 1: strerror"])
        #expect(Self.violations(in: "int fd = open(path, O_PATH | O_NOFOLLOW); /* C */").count == 1)
        #expect(Self.violations(in: "try FileDescriptor.open(path, .readOnly, options: [.noFollow])").isEmpty)
        #expect(Self.violations(in: "fopen(path, \"wx\"); closedir(dir); reopen(O_RDONLY)").isEmpty)
        #expect(Self.violations(in: "// open(path, O_RDONLY) and strerror\n/* strerror */ let s = \"// x\"").isEmpty)
        #expect(Self.violations(in: "let mystrerror = 1; x.strerror_text").isEmpty)
        #expect(Self.violations(in: "strerror_r(e, buffer, 64)") == ["line 1: strerror"])
        #expect(Self.violations(in: "guard let dir = opendir(path) else { return [] }") == ["line 1: opendir (use DirectoryEntries.names)"])
    }

    @Test("no product source outside Platform opens a file with raw O_ flags, lists a folder or calls strerror")
    func productGoesThroughPlatform() throws {
        let root = Self.repositoryRoot
        let sources = root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var scanned = 0
        var found: [String] = []
        for case let url as URL in files where ["swift", "c", "h"].contains(url.pathExtension) {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            guard !Self.allowed.contains(where: { relative.hasPrefix($0) }) else { continue }
            scanned += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            found += Self.violations(in: text).map { "\(relative): \($0)" }
        }
        #expect(scanned > 100, "the scan found too few source files; is the path right?")
        #expect(found.isEmpty, "raw file calls outside Platform:\n\(found.joined(separator: "\n"))")
    }
}
