import CSQLite
import RecoveryCore

/// The current row of a statement, read by column name through throwing accessors (after GRDB's
/// `init(row:)`): a missing column, a NULL where a value is required, or a value of the wrong kind is a
/// `StoreError.corrupt` naming the table and the column, never a silent "" or 0.
struct Row {
    let statement: Statement
    /// The table the row came from, for the sentence.
    let table: String

    private func index(_ name: String) throws(StoreError) -> Int32 {
        for i in 0..<sqlite3_column_count(statement.handle) {
            if let c = sqlite3_column_name(statement.handle, i), String(cString: c) == name { return i }
        }
        throw .corrupt("the \(table) query has no column \(name)", sql: statement.sql)
    }

    private func failure(_ name: String, _ why: String) -> StoreError {
        .corrupt("a row of \(table) holds \(why) in \(name)")
    }

    private func require<T>(_ value: T?, _ name: String) throws(StoreError) -> T {
        guard let value else { throw failure(name, "NULL") }
        return value
    }

    func optionalInt64(_ name: String) throws(StoreError) -> Int64? {
        let i = try index(name)
        switch sqlite3_column_type(statement.handle, i) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return sqlite3_column_int64(statement.handle, i)
        default: throw failure(name, "a value that is not an integer")
        }
    }

    func int64(_ name: String) throws(StoreError) -> Int64 { try require(try optionalInt64(name), name) }

    func int(_ name: String) throws(StoreError) -> Int { Int(try int64(name)) }

    func optionalDouble(_ name: String) throws(StoreError) -> Double? {
        let i = try index(name)
        switch sqlite3_column_type(statement.handle, i) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER, SQLITE_FLOAT: return sqlite3_column_double(statement.handle, i)
        default: throw failure(name, "a value that is not a number")
        }
    }

    func optionalInt(_ name: String) throws(StoreError) -> Int? { try optionalInt64(name).map { Int($0) } }

    func blob(_ name: String) throws(StoreError) -> [UInt8] {
        let i = try index(name)
        guard sqlite3_column_type(statement.handle, i) == SQLITE_BLOB, let bytes = statement.blob(i) else {
            throw failure(name, "a value that is not a blob")
        }
        return bytes
    }

    func optionalText(_ name: String) throws(StoreError) -> String? {
        let i = try index(name)
        switch sqlite3_column_type(statement.handle, i) {
        case SQLITE_NULL: return nil
        case SQLITE_TEXT: return statement.text(i)
        default: throw failure(name, "a value that is not text")
        }
    }

    func text(_ name: String) throws(StoreError) -> String { try require(try optionalText(name), name) }

    func optionalDate(_ name: String) throws(StoreError) -> LocalDate? {
        guard let text = try optionalText(name) else { return nil }
        guard let date = LocalDate(iso: text) else { throw failure(name, "\"\(text)\", not a date") }
        return date
    }

    func date(_ name: String) throws(StoreError) -> LocalDate { try require(try optionalDate(name), name) }

    /// A stored enumeration value: an unknown one is damage, not a default.
    func value<T: RawRepresentable>(_ name: String, as: T.Type) throws(StoreError) -> T where T.RawValue == String {
        let raw = try text(name)
        guard let value = T(rawValue: raw) else { throw failure(name, "\"\(raw)\", not a known \(T.self)") }
        return value
    }
}

extension Statement {
    /// Runs a query and decodes every row by name; a row that `decode` refuses is left out and its sentence
    /// goes to `skipped` (a damaged row must not take the rest, nor the program, with it).
    func decodedRows<T>(
        _ values: [SQLValue] = [], table: String, skipped: (String) -> Void,
        _ decode: (Row) throws(StoreError) -> T
    ) throws(StoreError) -> [T] {
        try bind(values)
        var result: [T] = []
        let row = Row(statement: self, table: table)
        while try step() {
            do throws(StoreError) { result.append(try decode(row)) } catch {
                // A missing column is a bug in the query, not a damaged row.
                if error.message.contains("query has no column") {
                    sqlite3_reset(handle)
                    throw error
                }
                skipped(error.message)
            }
        }
        sqlite3_reset(handle)
        return result
    }
}
