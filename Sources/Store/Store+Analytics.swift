import RecoveryCore

extension Store {
    /// Appends one analytics event (spec §7.3).
    public func appendEvent(_ event: AnalyticsEvent) throws(StoreError) {
        try followFile()
        try writeEvent(event)
    }

    /// Events in the order they were recorded, optionally of one kind only.
    public func events(kind: AnalyticsKind? = nil) throws(StoreError) -> [AnalyticsEvent] {
        let sql =
            "SELECT at, day, kind, value, payload FROM analytics_event"
            + (kind == nil ? "" : " WHERE kind = ?1") + " ORDER BY id"
        return try database.prepare(sql).decodedRows(
            kind.map { [.text($0.rawValue)] } ?? [], table: "analytics_event", skipped: skipRow
        ) { (row) throws(StoreError) -> AnalyticsEvent in
            AnalyticsEvent(
                at: try row.int64("at"), day: try row.optionalDate("day"), kind: AnalyticsKind(rawValue: try row.text("kind")),
                value: try row.optionalInt64("value"), payload: try row.optionalText("payload"))
        }
    }

    func writeEvent(_ e: AnalyticsEvent) throws(StoreError) {
        try database.run(
            "INSERT INTO analytics_event (at, day, kind, value, payload) VALUES (?1, ?2, ?3, ?4, ?5)",
            [.integer(e.at), SQLValue(e.day?.iso), .text(e.kind.rawValue), SQLValue(e.value), SQLValue(e.payload)])
    }
}
