import CSQLite

extension Store {
    /// Where the file stood when this connection last looked: equal stamps mean no other connection committed
    /// in between and the file at the path is the same one.
    public struct ChangeStamp: Hashable, Sendable {
        let reopenings: Int
        let dataVersion: Int64
    }

    /// The stamp now. `PRAGMA data_version` moves when another connection commits to the file, never for this
    /// connection's own writes (sqlite.org/pragma.html#pragma_data_version); a file replaced at the path is
    /// taken first (`followFile`), which moves the stamp too. One read of SQLite's shared memory: cheap enough
    /// for every turn of a loop.
    public func changeStamp() throws(StoreError) -> ChangeStamp {
        try followFile()
        let version = try database.prepare("PRAGMA data_version").rows { $0.int64(0) }.first ?? nil
        return ChangeStamp(reopenings: reopenings, dataVersion: version ?? 0)
    }
}
