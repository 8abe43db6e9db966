import Platform
import RecoveryCore

#if canImport(Glibc)
    import Glibc
#endif

/// Reading import files from disk: the only I/O of the import; everything after is pure.
public enum ImportFiles {
    /// CSV files larger than this are refused: ten years of daily rows (HRV4Training's wide rows, 64 columns:
    /// about 4 MiB) are smaller; a larger file would cost the reader a multiple of its size in memory on a 1 GB
    /// Pi. RR files are read as they stream (`rrFile`), bounded by `RRFileReader`'s limits instead.
    public static let maximumBytes = 8 << 20

    /// The whole file as UTF-8 text.
    public static func text(atPath path: String) throws(ImportError) -> String {
        let bytes: [UInt8]
        do { bytes = try FileDescriptor.readContents(atPath: path, limit: maximumBytes) } catch {
            throw ImportError(error.description)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ImportError("\(path) is not UTF-8 text.")
        }
        return text
    }

    /// An RR file read as it streams in (`RRFileReader`): memory follows the intervals it holds, not its length.
    /// `name` goes into the sentences.
    public static func rrFile(_ fd: FileDescriptor, name: String) throws(ImportError) -> RRFileFormat {
        var reader = RRFileReader()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        do {
            while true {
                let result = chunk.withUnsafeMutableBytes { b in Result { () throws(Errno) -> Int in try fd.read(into: b) } }
                let n: Int
                do throws(Errno) { n = try result.get() } catch {
                    throw ImportError(FileReadError(path: name, reason: .system(error)).description)
                }
                if n == 0 { return try reader.finish() }
                try reader.take(chunk[0..<n])
            }
        } catch let problem as RRFileFormat.Problem {
            throw ImportError(problem.sentence(file: name))
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError("cannot read \(name).")
        }
    }

    /// An RR file at `path`, opened and closed here (`rrFile(_:name:)`).
    public static func rrFile(atPath path: String, name: String) throws(ImportError) -> RRFileFormat {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .readOnly) } catch {
            throw ImportError(FileReadError(path: path, reason: .system(error)).description)
        }
        defer { fd.close() }
        return try rrFile(fd, name: name)
    }

    /// The regular files of a folder, by name, without hidden ones. The corresponding C function is `readdir`.
    public static func files(inDirectory path: String) throws(ImportError) -> [RRHistory.File] {
        let all: [String]
        do throws(Errno) { all = try DirectoryEntries.names(in: path) } catch {
            throw ImportError("cannot open the folder \(path): \(error.message).")
        }
        let names = all.filter { name in
            var info = stat()
            return !name.hasPrefix(".") && stat(path + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
        var files: [RRHistory.File] = []
        for name in names.sorted() {
            let full = path + "/" + name
            files.append(RRHistory.File(name: name, format: Result { () throws(ImportError) in try rrFile(atPath: full, name: full) }))
        }
        return files
    }
}
