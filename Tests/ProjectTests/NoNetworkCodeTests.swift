import Foundation
import Testing

/// DESIGN §4 "No network code at all": the box has no TCP/UDP sockets and no HTTP client; access is
/// SSH plus file permissions. This scans every product source file and fails on any network API.
struct NoNetworkCodeTests {
    /// Identifiers that only network code uses. Unix (AF_UNIX) and Bluetooth (AF_BLUETOOTH) sockets
    /// are the box's only sockets.
    static let forbidden: [String] = [
        "AF_INET", "PF_INET", "AF_INET6", "PF_INET6", "AF_PACKET", "IPPROTO_TCP", "IPPROTO_UDP",
        "sockaddr_in", "sockaddr_in6", "getaddrinfo", "gethostbyname", "inet_pton", "inet_addr",
        "URLSession", "URLRequest", "FoundationNetworking", "import Network", "CFNetwork", "libcurl",
        "curl_easy",
    ]

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Lines of `text` that name a forbidden identifier as a whole word.
    static func violations(in text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            for word in forbidden where line.range(of: "\\b\(word)\\b", options: .regularExpression) != nil {
                return "\(word): \(line.trimmingCharacters(in: .whitespaces))"
            }
            return nil
        }
    }

    @Test("the scanner catches each forbidden identifier and ignores Unix and Bluetooth sockets")
    func scannerCatchesNetworkCode() {
        for word in Self.forbidden {
            #expect(!Self.violations(in: "let x = \(word)(1)").isEmpty, "missed \(word)")
        }
        #expect(Self.violations(in: "socket(AF_UNIX, SOCK_SEQPACKET, 0); socket(AF_BLUETOOTH, 5, 0)").isEmpty)
        #expect(Self.violations(in: "let AF_INETX = 1").isEmpty)
    }

    /// The files under `folder` (in the repository) that `include` takes, how many, and the lines `violations`
    /// finds in them, each with its file's path.
    static func scan(
        _ folder: String, include: (URL) -> Bool, violations: (String) -> [String]
    ) throws -> (scanned: Int, found: [String]) {
        let root = repositoryRoot.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var scanned = 0
        var found: [String] = []
        for case let url as URL in files where include(url) {
            scanned += 1
            found += violations(try String(contentsOf: url, encoding: .utf8)).map { "\(url.path): \($0)" }
        }
        return (scanned, found)
    }

    @Test("no product source file contains network code (DESIGN §4)")
    func productHasNoNetworkCode() throws {
        let (scanned, found) = try Self.scan(
            "Sources", include: { ["swift", "c", "h", "modulemap"].contains($0.pathExtension) },
            violations: Self.violations(in:))
        #expect(scanned > 10, "the scan found too few source files; is the path right?")
        #expect(found.isEmpty, "network code in the product:\n\(found.joined(separator: "\n"))")
    }
}
