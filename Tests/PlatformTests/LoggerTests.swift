import Platform
import Synchronization
import Testing

private final class Lines: Sendable {
    let storage = Mutex<[String]>([])
    var all: [String] { storage.withLock { $0 } }
    var sink: LogSink { LogSink { line in self.storage.withLock { $0.append(line) } } }
}

@Suite("Logger: journald priority prefixes and dotted metadata (sd-daemon(3); STYLE swift-log)")
struct LoggerTests {
    @Test("Each level writes its syslog priority prefix <3>..<7>")
    func priorityPrefixes() {
        let lines = Lines()
        let log = Logger(minimumLevel: .debug, sink: lines.sink)
        log.error("e")
        log.warning("w")
        log.notice("n")
        log.info("i")
        log.debug("d")
        #expect(lines.all == ["<3>e", "<4>w", "<5>n", "<6>i", "<7>d"])
    }

    @Test("Lines below the minimum level are dropped")
    func minimumLevel() {
        let lines = Lines()
        let log = Logger(minimumLevel: .notice, sink: lines.sink)
        log.info("chatty")
        log.debug("chattier")
        log.warning("kept")
        #expect(lines.all == ["<4>kept"])
    }

    @Test("Metadata from `with` comes first in order, then per-line fields; values with spaces are quoted")
    func metadata() {
        let lines = Lines()
        let log = Logger(sink: lines.sink).with("ble.address", "A0:9E:1A:12:34:56").with("session.phase", "settle")
        log.info("strap connected", ["strap.battery": "87", "note": "snug fit"])
        #expect(
            lines.all == [
                "<6>strap connected ble.address=A0:9E:1A:12:34:56 session.phase=settle strap.battery=87 note=\"snug fit\""
            ])
    }

    @Test("A newline in a message cannot split the journal entry; a repeated key replaces the earlier value")
    func newlinesAndReplacement() {
        let lines = Lines()
        let log = Logger(sink: lines.sink).with("k", "1").with("k", "2")
        log.error("two\nlines", ["q": "say \"hi\""])
        #expect(lines.all == ["<3>two\\nlines k=2 q=\"say \\\"hi\\\"\""])
    }
}
