import Platform
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileDescriptor.open and writeAtomically: typed options, close-on-exec always, old or whole new content")
struct FileWritingTests {
    /// The file's bytes as text, nil when it cannot be read.
    static func text(_ path: String) -> String? {
        (try? FileDescriptor.readContents(atPath: path, limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) }
    }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    @Test("Every descriptor open gives is close-on-exec; create, exclusive and noFollow do what their C flags do")
    func openOptions() throws {
        let dir = TemporaryDirectory()
        let file = dir.path + "/new"
        let fd = try FileDescriptor.open(
            file, .writeOnly, options: [.create, .exclusive], permissions: .ownerReadWrite)
        #expect(fcntl(fd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        fd.close()
        #expect(Self.mode(file) == 0o600)
        #expect(throws: Errno.fileExists) {
            try FileDescriptor.open(file, .writeOnly, options: [.create, .exclusive], permissions: .ownerReadWrite)
        }
        #expect(symlink(file, dir.path + "/link") == 0)
        #expect(throws: Errno(rawValue: ELOOP)) {
            try FileDescriptor.open(dir.path + "/link", .readOnly, options: .noFollow)
        }
        #expect(throws: Errno(rawValue: ENOTDIR)) { try FileDescriptor.open(file, .readOnly, options: .directory) }
        let folder = try FileDescriptor.open(dir.path, .readOnly, options: .directory)
        defer { folder.close() }
        let relative = try folder.open(relative: "new", .readOnly)
        #expect(fcntl(relative.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        relative.close()
        #expect(FilePermissions(rawValue: 0o2770).description == "2770")
        #expect(FilePermissions.ownerReadWrite.description == "0600")
    }

    @Test("A write replaces the content whole, with exactly the permissions asked, whatever the umask took")
    func replacesWhole() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/export.json"
        dir.write("export.json", "old")
        // The umask is process-wide, so it is left as the test runner has it (usually 022, which takes group
        // write away at creation): the mode must be exact either way.
        try FileDescriptor.writeAtomically(
            Array("new and longer".utf8), to: path, temporary: path + ".tmp",
            permissions: [.ownerReadWrite, .groupReadWrite])
        #expect(Self.text(path) == "new and longer")
        #expect(Self.mode(path) == 0o660)
        #expect(Self.mode(path + ".tmp") == nil, "the temporary is left")
    }

    @Test("A rename that fails leaves the old content and no temporary, and says which step failed on which file")
    func failedRenameLeavesOld() throws {
        let dir = TemporaryDirectory()
        // A non-empty folder at the path: rename(2) cannot replace it (EISDIR), whoever runs the test, root too.
        let path = dir.path + "/target"
        dir.write("target/kept", "old")
        let temporary = dir.path + "/.target.tmp"
        do {
            try FileDescriptor.writeAtomically(
                Array("new".utf8), to: path, temporary: temporary, permissions: .ownerReadWrite)
            Issue.record("the rename over a folder succeeded")
        } catch {
            #expect(error.step == .rename && error.errno == Errno(rawValue: EISDIR))
            #expect(error.description == "cannot rename \(temporary): Is a directory.")
        }
        #expect(Self.text(path + "/kept") == "old")
        #expect(Self.mode(temporary) == nil, "the temporary is left")
    }

    @Test(
        "Without overwritingTemporary a file at the temporary's name fails the write and is not touched; with it, a crash's leftover is reused"
    )
    func temporaryInTheWay() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/file"
        let temporary = dir.path + "/file.partial"
        dir.write("file", "old")
        dir.write("file.partial", "someone else's")
        #expect(throws: FileWriteError(step: .create, path: temporary, errno: .fileExists)) {
            try FileDescriptor.writeAtomically(
                Array("new".utf8), to: path, temporary: temporary, permissions: .ownerReadWrite)
        }
        #expect(Self.text(path) == "old")
        #expect(Self.text(temporary) == "someone else's")
        try FileDescriptor.writeAtomically(
            Array("new".utf8), to: path, temporary: temporary, permissions: .ownerReadWrite, overwritingTemporary: true)
        #expect(Self.text(path) == "new")
        #expect(Self.mode(temporary) == nil)
    }

    @Test("A link at the temporary's name is never followed, in either mode: its target keeps its content")
    func linkAsTemporary() throws {
        let dir = TemporaryDirectory()
        dir.write("victim", "precious")
        let temporary = dir.path + "/out.tmp"
        #expect(symlink(dir.path + "/victim", temporary) == 0)
        for overwriting in [false, true] {
            #expect(throws: FileWriteError.self) {
                try FileDescriptor.writeAtomically(
                    Array("x".utf8), to: dir.path + "/out", temporary: temporary, permissions: .ownerReadWrite,
                    overwritingTemporary: overwriting)
            }
        }
        #expect(Self.text(dir.path + "/victim") == "precious")
        #expect(Self.mode(dir.path + "/out") == nil)
    }

    @Test("The folder of a path: the text before the last slash, the root for a file in it, . for a bare name")
    func folderOfAPath() {
        #expect(PathName.directory(of: "/var/lib/recoverydeck/recoverydeck.db") == "/var/lib/recoverydeck")
        #expect(PathName.directory(of: "/x.db") == "/")
        #expect(PathName.directory(of: "x.db") == ".")
        #expect(PathName.directory(of: "data/x.db") == "data")
    }

    @Test("The directory flush names the folder it could not open")
    func directoryFlush() throws {
        let dir = TemporaryDirectory()
        try FileDescriptor.synchronizeDirectory(atPath: dir.path)
        try FileDescriptor.synchronizeDirectory(ofFile: dir.path + "/not-there-yet")
        let missing = dir.path + "/no-such-folder"
        #expect(throws: FileWriteError(step: .openDirectory, path: missing, errno: .noEntry)) {
            try FileDescriptor.synchronizeDirectory(ofFile: missing + "/file")
        }
        #expect(
            FileWriteError(step: .openDirectory, path: missing, errno: .noEntry).description
                == "cannot open \(missing): No such file or directory.")
    }
}
