/// Trimming without Foundation, which the cores and the command line do not link.
extension StringProtocol {
    /// The text without leading and trailing characters from `set` (compared as whole characters, so "\r\n"
    /// is one).
    public func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
