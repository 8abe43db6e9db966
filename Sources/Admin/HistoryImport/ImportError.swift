/// Why an import file was refused. The message is one sentence naming the first bad line; nothing
/// was written when one of these is thrown.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    /// "FILE line N: what is wrong".
    public static func line(_ file: String, _ number: Int, _ problem: String) -> ImportError {
        ImportError("\(file) line \(number): \(problem)")
    }

    public var description: String { message }
}
