/// A piece of the person's input quoted back in a message: at most 80 characters, control characters
/// (terminal escapes among them) shown as `\u{1b}` so one line stays one line and a crafted file cannot
/// drive the terminal, and an ellipsis when it was cut. Every message that echoes input uses it.
public func echoed(_ text: some StringProtocol) -> String {
    var out = "'"
    var count = 0
    for scalar in text.unicodeScalars {
        if count == echoLimit {
            out += "…"
            break
        }
        if scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value) {
            out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            out.unicodeScalars.append(scalar)
        }
        count += 1
    }
    return out + "'"
}

/// The most characters of input a message quotes back.
public let echoLimit = 80
