import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// Reading import files from disk: the only I/O of the import; everything after is pure.
public enum ImportFiles {
    /// Files larger than this are refused: ten years of daily rows (HRV4Training's wide rows, 64 columns:
    /// about 4 MiB) or a week of RR intervals are smaller; a larger file would cost the reader a multiple of
    /// its size in memory on a 1 GB Pi.
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

    /// The regular files of a folder, by name, without hidden ones. The corresponding C function is `readdir`.
    public static func files(inDirectory path: String) throws(ImportError) -> [RRHistory.File] {
        guard let dir = opendir(path) else {
            throw ImportError("cannot open the folder \(path): \(String(cString: strerror(errno))).")
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            var info = stat()
            guard stat(path + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            names.append(name)
        }
        closedir(dir)
        var files: [RRHistory.File] = []
        for name in names.sorted() {
            files.append(RRHistory.File(name: name, text: try text(atPath: path + "/" + name)))
        }
        return files
    }
}
