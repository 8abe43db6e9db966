import Testing

@testable import RecoveryCore

/// Every phase of the session against every event: the transition table (RecoveryDeck spec §6.1, §6.2,
/// §4.2; DESIGN §1). A row is "in this phase, this event leads to that phase"; `tick` means time passes,
/// the fake strap notifying as it was, until the phase changes.
struct SessionTransitionTableTests {
    typealias Phase = MorningSession.Phase

    enum Stimulus: String, CaseIterable, Sendable {
        case goShort, goLong, star, digit, measure, measureOverwrite, cancel
        case strapConnected, strapDisconnected, strapFailed, heartRateRR, heartRateOnly
        case saved, tick

        var event: MorningSession.Event? {
            switch self {
            case .goShort: .go(.short)
            case .goLong: .go(.long)
            case .star: .key(.star)
            case .digit: .key(.digit(3))
            case .measure: .measure(overwrite: false)
            case .measureOverwrite: .measure(overwrite: true)
            case .cancel: .cancel
            case .strapConnected: .strapConnected(address: nil, batteryPercent: nil)
            case .strapDisconnected: .strapDisconnected
            case .strapFailed: .strapFailed(.strapNotFound)
            case .heartRateRR: .heartRate(bpm: 60, rr: [1024])
            case .heartRateOnly: .heartRate(bpm: 60, rr: [])
            case .saved: .saved(PanelReadout(composite: .green, channels: []))
            case .tick: nil
            }
        }
    }

    /// A harness brought to `phase` the way a person would get there.
    static func prepared(_ phase: Phase) -> SessionHarness {
        let measured = DayContext(
            today: SessionHarness.today, questionnaire: SessionHarness.questionnaire, measured: true)
        var h = SessionHarness()
        switch phase {
        case .idle:
            break
        case .confirmingRemeasure:
            h = SessionHarness(day: measured)
            h.send(.go(.short))
        case .connecting:
            h.send(.go(.short))
        case .connectedLive:
            h.send(.go(.short))
            h.strap.sending = true
            h.strap.startMs = 2000
            h.run(untilMs: 2000)
            h.send(.strapConnected(address: nil, batteryPercent: nil))
        case .settleLying, .captureRMSSD, .captureLyingHR, .promptStand, .captureStanding, .saving:
            h.startMorning()
            h.run(until: phase)
        case .paused:
            h.startMorning()
            h.run(until: .captureLyingHR)
            h.strap.sending = false
            h.send(.strapDisconnected)
        case .offeringResume:
            h.startMorning()
            h.run(until: .captureLyingHR)
            h.send(.strapDisconnected)
            h.strap.lastNotifyMs = nil
            h.run(until: .offeringResume)
        case .offeringRetry:
            h.strap.pattern = [1024, 1024, 2048]
            h.startMorning()
            h.run(until: .offeringRetry)
        case .readout:
            h.startMorning()
            h.run(until: .saving)
            h.send(.saved(PanelReadout(composite: .green, channels: [])))
        case .showingFault:
            h.send(.go(.short))
            h.run(until: .showingFault)
        }
        #expect(h.session.phase == phase, "could not reach \(phase)")
        return h
    }

    // The table. Absent stimuli leave the phase as it was.
    static let table: [Phase: [Stimulus: Phase]] = [
        .idle: [.goShort: .connecting, .goLong: .connecting, .measure: .connecting, .measureOverwrite: .connecting],
        .confirmingRemeasure: [
            .goShort: .connecting, .goLong: .connecting, .star: .idle, .measureOverwrite: .connecting, .cancel: .idle,
            .tick: .idle,
        ],
        .connecting: [
            .star: .idle, .cancel: .idle, .strapConnected: .connectedLive, .strapFailed: .showingFault,
            .heartRateRR: .settleLying, .heartRateOnly: .connectedLive, .tick: .showingFault,
        ],
        .connectedLive: [
            .star: .idle, .cancel: .idle, .strapDisconnected: .connecting, .strapFailed: .showingFault,
            .heartRateRR: .settleLying, .tick: .settleLying,
        ],
        .settleLying: [
            .star: .idle, .cancel: .idle, .strapDisconnected: .paused, .strapFailed: .showingFault,
            .tick: .captureRMSSD,
        ],
        .captureRMSSD: [
            .star: .idle, .cancel: .idle, .strapDisconnected: .paused, .strapFailed: .showingFault,
            .tick: .captureLyingHR,
        ],
        .captureLyingHR: [
            .star: .idle, .cancel: .idle, .strapDisconnected: .paused, .strapFailed: .showingFault,
            .tick: .promptStand,
        ],
        .promptStand: [
            .star: .idle, .cancel: .idle, .strapDisconnected: .paused, .strapFailed: .showingFault,
            .tick: .captureStanding,
        ],
        .captureStanding: [
            .star: .idle, .cancel: .idle, .strapDisconnected: .paused, .strapFailed: .showingFault, .tick: .saving,
        ],
        .paused: [
            .star: .idle, .cancel: .idle, .strapFailed: .showingFault, .heartRateRR: .offeringResume,
            .heartRateOnly: .offeringResume, .tick: .showingFault,
        ],
        .offeringResume: [
            .goShort: .settleLying, .goLong: .settleLying, .star: .idle, .cancel: .idle, .strapDisconnected: .paused,
            .strapFailed: .showingFault, .tick: .settleLying,
        ],
        .offeringRetry: [
            .goShort: .connectedLive, .goLong: .connectedLive, .star: .idle, .cancel: .idle, .tick: .idle,
        ],
        .saving: [.saved: .readout],
        .readout: [.measure: .idle, .measureOverwrite: .connecting, .cancel: .idle, .tick: .idle],
        .showingFault: [
            .goShort: .connecting, .goLong: .connecting, .star: .idle, .digit: .idle, .measure: .connecting,
            .measureOverwrite: .connecting, .cancel: .idle, .tick: .idle,
        ],
    ]

    struct Row: Sendable, CustomTestStringConvertible {
        var phase: Phase
        var stimulus: Stimulus
        var expected: Phase
        var testDescription: String { "\(phase.rawValue) + \(stimulus.rawValue) → \(expected.rawValue)" }
    }

    static var rows: [Row] {
        Phase.allCases.flatMap { phase in
            Stimulus.allCases.compactMap { stimulus in
                // Idle and saving have no deadline: time alone changes nothing there.
                if stimulus == .tick && (phase == .idle || phase == .saving) { return nil }
                return Row(phase: phase, stimulus: stimulus, expected: table[phase]?[stimulus] ?? phase)
            }
        }
    }

    @Test("Every phase × every event leads where the transition table says (spec §6.1, §6.2, §4.2)", arguments: rows)
    func transition(row: Row) {
        var h = Self.prepared(row.phase)
        let savesBefore = h.saves.count
        if let event = row.stimulus.event {
            h.send(event)
        } else {
            let start = row.phase
            var guardCount = 0
            while h.session.phase == start && guardCount < 10_000 {
                guard
                    let next = [h.session.nextDeadlineMs, h.strap.nextNotificationMs(after: h.nowMs)].compactMap({ $0 })
                        .min()
                else { break }
                h.run(untilMs: max(next, h.nowMs))
                guardCount += 1
            }
        }
        #expect(h.session.phase == row.expected)
        // Only the end of standing (or a confirmed skip) saves; no other transition writes anything.
        let saved = h.saves.count - savesBefore
        #expect(saved == (row.expected == .saving && row.phase != .saving ? 1 : 0))
        // Leaving a measuring phase for idle or a fault always releases the strap.
        if h.session.phase == .idle || h.session.phase == .showingFault,
            row.phase != .idle && row.phase != .readout && row.phase != .showingFault
                && row.phase != .confirmingRemeasure
                && row.phase != .saving
        {
            #expect(h.strap.linkRequested == false)
        }
    }

    @Test("The table covers every phase (a new phase must be given its row)")
    func tableCoversEveryPhase() {
        #expect(Set(Self.table.keys) == Set(Phase.allCases))
    }
}
