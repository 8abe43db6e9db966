import Platform
import RecoveryCore

/// A 3×4 matrix keypad without diodes: rows are outputs, columns pulled-up inputs (DESIGN §2).
/// Idle, every row is driven low, so any key pulls its column low and the column's edge wakes the loop;
/// nothing is read and no timer runs. Once woken it scans (one row low at a time, reading the columns)
/// every `keypadScanIntervalMs` until every key has been up for the debounce time, then goes idle again.
/// A key counts as down or up once seen so for `debounceMs`. Two keys in different rows and columns are
/// both found; three keys forming a rectangle's corners would also show the fourth (no diodes).
final class Keypad {
    let rows: [any GPIOOutput]
    let columns: [any GPIOInput]
    private let timing: PanelTiming
    private(set) var isScanning = false
    private var nextScanMs: Int64?
    private var pressed: Set<KeypadKey> = []
    private var downSince: [KeypadKey: Int64] = [:]
    private var upSince: [KeypadKey: Int64] = [:]

    init(rows: [any GPIOOutput], columns: [any GPIOInput], timing: PanelTiming) {
        self.rows = rows
        self.columns = columns
        self.timing = timing
    }

    var nextDeadlineMs: Int64? { nextScanMs }

    var descriptors: [FileDescriptor] { columns.map(\.descriptor) }

    /// A column edge: while idle, scan at once; while scanning, the edges are the scan's own and are dropped.
    func onReadable(nowMs: Int64) throws(PanelError) -> [PanelEvent] {
        for column in columns { _ = try column.readEvents() }
        guard !isScanning else { return [] }
        return try scan(nowMs: nowMs)
    }

    func onDeadline(nowMs: Int64) throws(PanelError) -> [PanelEvent] {
        guard let due = nextScanMs, due <= nowMs else { return [] }
        return try scan(nowMs: nowMs)
    }

    /// Which keys are closed now.
    private func keysDown() throws(PanelError) -> Set<KeypadKey> {
        var down: Set<KeypadKey> = []
        for row in rows { try row.set(high: true) }
        for (r, row) in rows.enumerated() {
            try row.set(high: false)
            for (c, column) in columns.enumerated() where try !column.read() {
                down.insert(KeypadKey.layout[r][c])
            }
            try row.set(high: true)
        }
        // Back to the idle drive so a new press pulls its column low.
        for row in rows { try row.set(high: false) }
        return down
    }

    /// True once `key` has read its new way for `debounceMs` from when `since` first saw it so; that time is then
    /// forgotten.
    private static func settled(
        _ key: KeypadKey, since: inout [KeypadKey: Int64], nowMs: Int64, after debounceMs: Int64
    ) -> Bool {
        let start = since[key] ?? nowMs
        since[key] = start
        guard nowMs - start >= debounceMs else { return false }
        since[key] = nil
        return true
    }

    private func scan(nowMs: Int64) throws(PanelError) -> [PanelEvent] {
        let down = try keysDown()
        // The scan toggled the rows, so the columns have edges of its own making.
        for column in columns { _ = try column.readEvents() }
        var events: [PanelEvent] = []
        let debounce = timing.debounceMs
        for key in KeypadKey.allCases {
            if down.contains(key) {
                upSince[key] = nil
                if !pressed.contains(key), Self.settled(key, since: &downSince, nowMs: nowMs, after: debounce) {
                    pressed.insert(key)
                    events.append(.keyPressed(key))
                }
            } else {
                downSince[key] = nil
                if pressed.contains(key), Self.settled(key, since: &upSince, nowMs: nowMs, after: debounce) {
                    pressed.remove(key)
                    events.append(.keyReleased(key))
                }
            }
        }
        let busy = !down.isEmpty || !pressed.isEmpty || !downSince.isEmpty
        isScanning = busy
        nextScanMs = busy ? nowMs + timing.keypadScanIntervalMs : nil
        return events
    }

    /// Drives every row low: the idle state (and the one to start in).
    func idle() throws(PanelError) {
        for row in rows { try row.set(high: false) }
    }
}
