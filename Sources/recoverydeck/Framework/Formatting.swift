/// Number and text formatting without Foundation (the CLI links only the standard library and libc).
enum Formatting {
    /// `value` with exactly `digits` decimals, rounded half away from zero: `fixed(5.25, digits: 1)` is "5.3".
    static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(value) }
        let whole = Int64(scaled)
        let sign = value < 0 && whole != 0 ? "-" : ""
        let integerPart = String(whole / Int64(scale))
        guard digits > 0 else { return sign + integerPart }
        var fraction = String(whole % Int64(scale))
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        return sign + integerPart + "." + fraction
    }

    /// `text` padded with spaces on the right to `width` characters.
    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` padded with spaces on the left to `width` characters.
    static func leftPadded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
