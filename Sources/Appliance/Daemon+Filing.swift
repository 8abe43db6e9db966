import Insights
import Platform
import RecoveryCore
import Store

/// The daemon's side of filing (`Filing` keeps the records and their retries): the routine's saves are handed
/// to it, its retries run from the loop, and the readout after a saved morning is worked out by the core from
/// the history it hands over.
extension Daemon {
    /// Files a finished morning; returns the readout to show either way.
    func fileMorning(_ morning: MorningMeasurement) -> PanelReadout {
        filing.file(.morning(morning), recordedAt: clock.epochSeconds(), nowRealMs: clock.realMs())
        publication.markChanged()
        return readout(forMorningOn: morning.date)
    }

    /// Files a keypad questionnaire.
    func fileQuestionnaire(_ questionnaire: Questionnaire) {
        filing.file(
            .questionnaire(questionnaire), recordedAt: clock.epochSeconds(), nowRealMs: clock.realMs())
        publication.markChanged()
    }

    /// Runs a retry that fell due (real time).
    func retryWaitingIfDue() {
        guard let round = filing.retry(nowRealMs: clock.realMs()) else { return }
        publication.markChanged()
        // The day's facts may have changed now that the database has them.
        if round.isClear { refreshDay(now: clock.monotonicMs()) }
    }

    /// The readout for the morning of `date`, from the stored days with what waits on top, in the edges the
    /// person chose (`recoverydeck settings --band-edges`; the spec's when unreadable).
    func readout(forMorningOn date: LocalDate) -> PanelReadout {
        let edges = (try? store.lightEdges()) ?? .spec
        let history = filing.history(forMorningOn: date)
        var readout = PanelReadout(morningOn: date, history: history, edges: edges)
        // The readout's 61 days hold the detector's 60-day normal for a run that begins today; a longer run reads
        // the part of its normal they hold (docs/not-like-you.md).
        readout.notLikeYou = NotLikeYou.run(days: history, through: date).last?.morning.status == .flagged
        return readout
    }
}
