/// Path arithmetic on the text alone, as the kernel reads a path: no normalisation, no file system access.
public enum PathName {
    /// The folder a file path is in: "." for a bare name, "/" for a file in the root; "/var/lib/x.db" gives
    /// "/var/lib".
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
