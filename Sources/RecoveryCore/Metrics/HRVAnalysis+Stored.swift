extension HRVAnalysis {
    /// The rMSSD window of a stored morning, recomputed from its raw RR and phase marks (RecoveryDeck spec §5.1;
    /// DESIGN §4: the raw RR is kept so a morning can be re-analysed). The notifications are replayed as the
    /// session received them (RR with the same `receivedAtMs` came in one notification), from the last settle's
    /// start, through a window whose settle lasts as the stored one did; the replay ends where the stored capture
    /// ended. A morning recorded with these rules gives back what the session computed. `heartRates`: the
    /// morning's readings, one a notification; the RR of a notification whose rate is zero (no skin contact) are
    /// rejected as the session rejected them.
    public static func reanalyze(
        rawRR: some Collection<RRInterval>, marks: PhaseMarks, rule: ArtifactRule = .default,
        heartRates: [HeartRateReading] = []
    ) -> HRVWindowResult {
        let withoutContact = Set(heartRates.lazy.filter { $0.bpm == 0 }.map(\.receivedAtMs))
        var configuration = RMSSDWindow.Configuration.morning
        configuration.artifactRule = rule
        configuration.settleMs = max(0, marks.captureStartMs - marks.settleStartMs)
        var window = RMSSDWindow(startMs: marks.settleStartMs, configuration: configuration)
        var index = rawRR.startIndex
        while index != rawRR.endIndex {
            let at = rawRR[index].receivedAtMs
            var end = index
            var sum = 0.0
            while end != rawRR.endIndex && rawRR[end].receivedAtMs == at {
                sum += rawRR[end].milliseconds
                end = rawRR.index(after: end)
            }
            defer { index = end }
            guard at >= marks.settleStartMs else { continue }
            guard at <= marks.captureEndMs else { break }
            window.beginNotification(rrSumMs: sum, at: at)
            let contact = !withoutContact.contains(at)
            for interval in rawRR[index..<end] {
                let ms = interval.milliseconds
                let progress = contact ? window.append(ms, at: at) : window.appendWithoutContact(ms, at: at)
                if case .complete(let result) = progress { return result }
            }
        }
        return window.finish(at: marks.captureEndMs)
    }
}
