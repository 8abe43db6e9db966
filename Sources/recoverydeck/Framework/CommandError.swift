/// How a command ends badly. The message is one sentence; the program prefixes the command's name.
enum CommandError: Error, Equatable {
    /// The words typed were wrong: exit 64 (EX_USAGE), with a hint to `--help`. Nothing was changed.
    case usage(String)
    /// The command could not do its work: exit 1.
    case failure(String)

    var exitCode: Int32 {
        switch self {
        case .usage: ExitCode.usage
        case .failure: ExitCode.failure
        }
    }

    var message: String {
        switch self {
        case .usage(let m), .failure(let m): m
        }
    }
}

/// The program's exit statuses (DESIGN §7).
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    /// BSD sysexits EX_USAGE.
    static let usage: Int32 = 64
}
