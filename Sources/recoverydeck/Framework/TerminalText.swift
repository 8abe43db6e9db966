/// Text from the database, the control socket, the radio or a file made safe for a terminal: a control
/// character (Unicode general category Cc: C0 other than newline and tab, DEL, C1) or a bidirectional
/// formatting character is written as `\uXXXX`, so a name or a note can neither move the cursor, clear the
/// screen, set the clipboard (OSC 52) nor reorder what follows it (the "Trojan Source" bidi controls,
/// CVE-2021-42574). Inside a JSON string `\uXXXX` is the same character, so JSON stays exact.
enum TerminalText {
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isUnsafe(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        // Arabic letter mark, LRM/RLM, the embeddings and overrides, the isolates (Unicode UAX #9).
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
