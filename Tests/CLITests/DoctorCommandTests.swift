import Foundation
import Testing

/// `recoverydeck doctor` on this machine: one line per check, and the exit status says whether any
/// check failed (0 ready, 1 not). It creates no database.
struct DoctorCommandTests {
    @Test("doctor prints ten check lines; exit 1 exactly when a line is FAIL; no database is created")
    func realRun() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let outcome = try cli.run(["doctor"])
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 10, "\(outcome.stdout)")
        #expect(lines.allSatisfy { $0.hasPrefix("ok  ") || $0.hasPrefix("WARN") || $0.hasPrefix("FAIL") })
        #expect(
            lines.filter { $0.hasPrefix("FAIL") || $0.hasPrefix("WARN") }.allSatisfy {
                $0.contains(" — fix: ") || $0.contains("unknown")
            })
        let failed = lines.contains { $0.hasPrefix("FAIL") }
        #expect(outcome.status == (failed ? 1 : 0))
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
        let json = try cli.run(["doctor", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["checks"] as? [Any])?.count == 10)
        #expect(object?["ready"] as? Bool == !failed)
    }
}
