import BlueZ
import Platform

/// Why the virtual strap cannot run, as one sentence.
enum SimulatorError: Error, CustomStringConvertible {
    case usage(String)
    case badRRFile(line: Int, text: String)
    case emptyRRFile
    case unreadableFile(FileReadError)
    case bluetooth(BlueZError)

    var description: String {
        switch self {
        case .usage(let text): text
        case .badRRFile(let line, let text):
            "Line \(line) of the RR file (\"\(text)\") is not an RR interval in milliseconds (1–63999)."
        case .emptyRRFile: "The RR file holds no RR intervals (one value in milliseconds per line)."
        case .unreadableFile(let error): error.description
        case .bluetooth(let error): error.description
        }
    }
}
