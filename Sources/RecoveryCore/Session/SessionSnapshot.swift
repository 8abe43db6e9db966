/// What `recoverydeck watch` and the demo show of a running session (spec §9.2: large phase title,
/// countdown / progress, live BPM, "RR OK"): a value computed from the session at one instant.
public struct SessionSnapshot: Hashable, Sendable {
    public var phase: MorningSession.Phase
    public var title: String
    /// Time left in the phase, when it has a fixed length (ms of session time).
    public var remainingMs: Int64?
    /// How far the phase is, 0–1, when that means something.
    public var phaseProgress: Double?
    /// How far the whole protocol is, 0–1, against its nominal 168 s (15 + 60 + 30 + 3 + 60).
    public var overallProgress: Double?
    public var bpm: Int?
    /// The last notification carried RR (spec §4.2 "RR OK").
    public var rrOK: Bool
    public var degraded: Bool
    public var acceptedBeats: Int?
    public var acceptedSeconds: Double?
    public var fault: MorningFault?
    /// RR and BPM readings this morning refused because its stores were full (`MorningSession.refusedSamples`).
    public var refusedSamples: Int
    public var indication: Indication

    /// Nominal length of each measured phase, for the overall progress bar.
    static func nominalMs(_ timings: SessionTimings) -> [(MorningSession.Phase, Int64)] {
        [
            (.settleLying, timings.settleMs), (.captureRMSSD, timings.nominalCaptureMs), (.captureLyingHR, timings.lyingMs),
            (.promptStand, timings.standCueMs), (.captureStanding, timings.standingMs),
        ]
    }
}

extension MorningSession {
    /// The session as `watch` shows it at `nowMs`.
    public func snapshot(atMs nowMs: Int64) -> SessionSnapshot {
        let elapsed = nowMs - phaseStartMs
        var remaining: Int64?
        var progress: Double?
        var accepted: Int?
        var acceptedSeconds: Double?
        func timed(_ length: Int64) {
            remaining = max(0, length - elapsed)
            progress = length > 0 ? min(1, max(0, Double(elapsed) / Double(length))) : nil
        }
        switch phase {
        case .settleLying: timed(timings.settleMs)
        case .captureRMSSD:
            if degraded {
                timed(timings.degradedCaptureMs)
            } else if let window {
                accepted = window.accumulator.count
                acceptedSeconds = window.accumulator.sumMs / 1000
                // Done when both floors are met (spec §5.1): the further of the two is the progress.
                let byBeats = Double(window.accumulator.count) / Double(window.configuration.minimumAccepted)
                let bySum = window.accumulator.sumMs / window.configuration.minimumAcceptedSumMs
                progress = min(1, min(byBeats, bySum))
                remaining = max(0, window.deadlineMs - nowMs)
            }
        case .captureLyingHR: timed(timings.lyingMs)
        case .promptStand: timed(timings.standCueMs)
        case .captureStanding: timed(timings.standingMs)
        case .confirmingRemeasure, .paused, .offeringResume, .offeringRetry, .readout, .showingFault, .connecting,
            .connectedLive:
            if let deadline = phaseDeadlineMs { remaining = max(0, deadline - nowMs) }
        case .idle, .saving: break
        }
        let nominal = SessionSnapshot.nominalMs(timings)
        let total = nominal.reduce(0) { $0 + $1.1 }
        var overall: Double?
        if let index = nominal.firstIndex(where: { $0.0 == phase }) {
            let done = nominal[..<index].reduce(0) { $0 + $1.1 }
            overall = (Double(done) + (progress ?? 0) * Double(nominal[index].1)) / Double(total)
        } else if phase == .saving || phase == .readout {
            overall = 1
        } else if phase == .connecting || phase == .connectedLive {
            overall = 0
        }
        return SessionSnapshot(
            phase: phase, title: title, remainingMs: remaining, phaseProgress: progress, overallProgress: overall,
            bpm: isMeasuring ? lastBPM.map(Int.init) : nil, rrOK: isMeasuring && lastHadRR, degraded: degraded,
            acceptedBeats: accepted, acceptedSeconds: acceptedSeconds,
            fault: shownFault,
            refusedSamples: refusedSamples.rr + refusedSamples.heartRates, indication: indication
        )
    }

    /// The fault the phase is about: the one shown, or the one a retry is offered for.
    var shownFault: MorningFault? {
        switch state {
        case .showingFault(let fault, _), .offeringRetry(let fault, _): fault
        default: nil
        }
    }

    /// The large phase title (spec §9.2).
    public var title: String {
        switch phase {
        case .idle: "Idle"
        case .confirmingRemeasure: "Today is measured: GO again within \(SessionTimings.spoken(timings.confirmMs)) to replace it"
        case .connecting: "Connecting to the strap"
        case .connectedLive: "Strap connected: waiting for RR"
        case .settleLying: degraded ? "Lie still (heart rate only)" : "Lie still: settling"
        case .captureRMSSD: degraded ? "Measuring heart rate (RR not available)" : "Measuring rMSSD: lie still"
        case .captureLyingHR: "Lying heart rate: stay still"
        case .promptStand: "Stand up at the long tone: 3, 2, 1"
        case .captureStanding: "Standing: stand still"
        case .paused: "Strap lost: paused, reconnecting"
        case .offeringResume: "Strap back: GO resumes, hold GO restarts"
        case .offeringRetry: "Quality failed: GO retries"
        case .saving: "Saving"
        case .readout: "Readout"
        case .showingFault: "Stopped"
        }
    }
}
