import CTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program a test starts (the CLI, the daemon, python3 holding a lock), in place of Foundation's `Process`.
///
/// Two differences matter when tests run side by side. The child holds no descriptor but its standard three
/// (`cts_spawn` closes the rest in the child), and every descriptor made here is close-on-exec: a child that
/// another test starts meanwhile can never hold the write end of this one's pipe, so a read here sees its end
/// when this child ends. And the end is learnt from waitpid(2) itself, not from a socket's end of file: `Process`
/// learns it from a socket pair that children started at the same moment can inherit, and then waits for them too.
/// A wait has a limit (`patience`): a child that outlives it is killed and the test is told which command hung.
public final class Child: @unchecked Sendable {
    /// Where the child's standard input comes from.
    public enum Input {
        /// This process's own.
        case inherit
        /// /dev/null: end of file at once.
        case null
        /// A pipe whose write end is `input`.
        case pipe
        /// A descriptor of the test's (a pseudo-terminal, a FIFO); the test keeps and closes it.
        case descriptor(Int32)
    }

    /// Where the child's standard output or error goes.
    public enum Output {
        /// This process's own.
        case inherit
        /// /dev/null.
        case null
        /// A pipe whose read end is `output` (or `errors`).
        case pipe
        /// The file at this path, created or emptied.
        case file(String)
        /// A descriptor of the test's; the test keeps and closes it.
        case descriptor(Int32)
    }

    /// How the child ended.
    public enum Termination: Equatable, CustomStringConvertible {
        case exit(Int32)
        case signal(Int32)

        public var description: String {
            switch self {
            case .exit(let code): "exit \(code)"
            case .signal(let number): "signal \(number)"
            }
        }
    }

    /// The longest any wait lasts by default: far beyond any command's run, even as arm64 under qemu-user on a
    /// loaded machine (seconds), so it only ever ends a hang.
    public static let patience: Double = 300

    public let pid: pid_t
    /// The command line, for messages.
    public let command: String
    /// The write end of the child's standard input when it is `.pipe`.
    public let input: FileHandle?
    /// The read end of the child's standard output when it is `.pipe`.
    public let output: FileHandle?
    /// The read end of the child's standard error when it is `.pipe`.
    public let errors: FileHandle?
    private var ended: Termination?

    /// Starts `path` with `arguments` (not argv[0]), `environment` (nil: this process's), in `directory` (nil:
    /// this process's), in a process group of its own (as `Process` does).
    public init(
        _ path: String, _ arguments: [String] = [], environment: [String: String]? = nil, directory: String? = nil,
        stdin: Input = .inherit, stdout: Output = .inherit, stderr: Output = .inherit
    ) throws {
        command = ([path] + arguments).joined(separator: " ")
        var close: [Int32] = []  // Descriptors of ours that only the child needs, closed once it has started.
        defer { for fd in close { Glibc.close(fd) } }
        func pipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard cts_pipe(&ends) == 0 else { throw ChildError.system("pipe2", errno) }
            return (ends[0], ends[1])
        }
        func open(_ path: String, _ flags: Int32) throws -> Int32 {
            let fd = Glibc.open(path, flags | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw ChildError.system("open \(path)", errno) }
            close.append(fd)
            return fd
        }
        var inputEnd: Int32 = -1
        let childIn: Int32
        switch stdin {
        case .inherit: childIn = -1
        case .null: childIn = try open("/dev/null", O_RDONLY)
        case .descriptor(let fd): childIn = fd
        case .pipe:
            let ends = try pipe()
            close.append(ends.read)
            inputEnd = ends.write
            childIn = ends.read
        }
        func target(_ output: Output, _ kept: inout Int32) throws -> Int32 {
            switch output {
            case .inherit: return -1
            case .null: return try open("/dev/null", O_WRONLY)
            case .file(let path): return try open(path, O_WRONLY | O_CREAT | O_TRUNC)
            case .descriptor(let fd): return fd
            case .pipe:
                let ends = try pipe()
                close.append(ends.write)
                kept = ends.read
                return ends.write
            }
        }
        var outputEnd: Int32 = -1
        var errorEnd: Int32 = -1
        let childOut = try target(stdout, &outputEnd)
        let childErr = try target(stderr, &errorEnd)
        let handle = { (fd: Int32) in fd < 0 ? nil : FileHandle(fileDescriptor: fd, closeOnDealloc: true) }
        input = handle(inputEnd)
        output = handle(outputEnd)
        errors = handle(errorEnd)

        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = cts_spawn(&pid, path, argv, envp, directory, childIn, childOut, childErr, 1)
        guard rc == 0 else { throw ChildError.system("posix_spawn \(path)", rc) }
        self.pid = pid
    }

    /// Whether the child has not ended yet (an ended child is reaped here).
    public var isRunning: Bool {
        if ended != nil { return false }
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        guard rc == pid else { return rc == 0 }
        ended = Self.termination(status)
        return false
    }

    /// Sends `signal` to the child, unless it has ended.
    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits until the child ends and says how. After `patience` seconds the child is killed (SIGKILL) and
    /// `ChildError.hung` is thrown, naming the command. A thread of its own blocks in waitpid(2) and wakes this one
    /// when the child ends: nothing here sleeps or polls.
    @discardableResult
    public func wait(patience: Double = Child.patience) throws -> Termination {
        if let ended { return ended }
        let reaping = Reaping(pid)
        if reaping.done.wait(timeout: .now() + patience) == .timedOut {
            kill(pid, SIGKILL)
            reaping.done.wait()
            ended = Self.termination(reaping.status)
            throw ChildError.hung(command: command, seconds: patience)
        }
        let termination = Self.termination(reaping.status)
        ended = termination
        return termination
    }

    /// The exit code, or the number of the signal that ended it (as `Process.terminationStatus`); waits first.
    public var terminationStatus: Int32 {
        get throws {
            switch try wait() {
            case .exit(let code), .signal(let code): code
            }
        }
    }

    /// Everything the child writes to `output` until it closes it, then its end.
    public func readOutputToEnd() throws -> String {
        String(decoding: output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    /// An unfinished child is killed and reaped, so no test leaves a process behind.
    deinit {
        if ended == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
    }

    static func termination(_ status: Int32) -> Termination {
        status & 0x7f == 0 ? .exit((status >> 8) & 0xff) : .signal(status & 0x7f)
    }
}

/// A thread that blocks in waitpid(2) for one child and signals `done` once it has reaped it.
private final class Reaping: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    /// The wait status; read only after `done`.
    var status: Int32 = 0

    init(_ pid: pid_t) {
        Thread { [self] in
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            done.signal()
        }.start()
    }
}

/// Why a child could not be started or waited for.
public enum ChildError: Error, CustomStringConvertible {
    case system(String, Int32)
    case hung(command: String, seconds: Double)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        case .hung(let command, let seconds): "\(command) did not end within \(Int(seconds)) s and was killed"
        }
    }
}
