import RecoveryCore

/// Where each key sits in the 3×4 matrix (DESIGN §2: rows are outputs, columns inputs).
extension KeypadKey {
    /// Row-major, as the keypad is printed (the same order as `allCases`).
    public static let layout: [[KeypadKey]] = [
        [.digit(1), .digit(2), .digit(3)],
        [.digit(4), .digit(5), .digit(6)],
        [.digit(7), .digit(8), .digit(9)],
        [.star, .digit(0), .hash],
    ]

    /// Row and column (0-based) on the keypad.
    public var position: (row: Int, column: Int) {
        for (r, row) in KeypadKey.layout.enumerated() {
            if let c = row.firstIndex(of: self) { return (r, c) }
        }
        // Only a digit outside 0–9 has no place; it cannot be keyed, and reads as `0`'s contact.
        return (3, 1)
    }
}
