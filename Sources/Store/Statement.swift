import CSQLite

/// One prepared statement. It owns its `sqlite3_stmt` and finalizes it in `deinit` (after GRDB's
/// `Statement`), and keeps its connection alive while it exists.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private let database: Database

    init(database: Database, sql: String) throws(StoreError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw database.error(code: code, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to the parameters `?1…?n`, after clearing earlier bindings.
    func bind(_ values: [SQLValue]) throws(StoreError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard Int(sqlite3_bind_parameter_count(handle)) == values.count else {
            throw StoreError(
                resultCode: SQLITE_RANGE,
                message: "statement takes \(sqlite3_bind_parameter_count(handle)) values, given \(values.count)",
                sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
            case .real(let v): code = sqlite3_bind_double(handle, index, v)
            case .text(let v): code = sqlite3_bind_text(handle, index, v, -1, csqlite_transient())
            case .blob(let v):
                code = v.withUnsafeBytes { bytes in
                    // A zero-length blob must still be a blob, not NULL: pass a valid pointer.
                    sqlite3_bind_blob64(
                        handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count),
                        csqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
        }
    }

    /// Advances one row: true when a row is available, false when the statement is done.
    func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows.
    func execute(_ values: [SQLValue] = []) throws(StoreError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Runs a query and maps every row.
    func rows<T>(_ values: [SQLValue] = [], _ map: (Statement) throws(StoreError) -> T) throws(StoreError) -> [T] {
        try bind(values)
        var result: [T] = []
        while try step() { result.append(try map(self)) }
        sqlite3_reset(handle)
        return result
    }

    // MARK: Columns of the current row (0-based).

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64? { isNull(column) ? nil : sqlite3_column_int64(handle, column) }

    func int(_ column: Int32) -> Int? { int64(column).map { Int($0) } }

    func double(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(handle, column) }

    func text(_ column: Int32) -> String? {
        guard !isNull(column), let bytes = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: bytes)
    }

    func blob(_ column: Int32) -> [UInt8]? {
        if isNull(column) { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let base = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }
}
