import CSQLite

extension Store {
    /// Sets SQLite's soft heap limit (page cache and statements) for the whole process, sqlite3_soft_heap_limit64(3):
    /// beyond it SQLite recycles pages instead of growing, so a process that runs for years keeps its memory flat.
    public static func limitHeap(toBytes bytes: Int64) {
        _ = sqlite3_soft_heap_limit64(bytes)
    }
}
