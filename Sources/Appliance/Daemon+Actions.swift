import JSON
import LocalClock
import Panel
import Platform
import RecoveryCore
import Store

/// The interpreter: events from the panel, the strap and the control socket go into the pure
/// `MorningRoutine`; the actions that come out are performed here (the strap, the panel, the store, the
/// watchers), and their answers go back in as events.
extension Daemon {
    func panelInput(_ input: PanelInput, now: Int64) {
        observer?(.input(input))
        if let control, control.watcherCount > 0 {
            let button: String
            switch input {
            case .go(let press): button = press == .long ? "go-long" : "go"
            case .key(let key): button = key.label
            }
            broadcast(.input(sessionMs: clock.monotonicMs(), button: button))
        }
        switch input {
        case .go(let press):
            // A restore is rewriting the database: no morning starts until it is done (a moment).
            if writesArePaused(), !routine.session.isMeasuring {
                // Said, not swallowed: the fault's code and low beep at the bedside, the sentence in `watch`.
                logger.info("GO refused: \(Daemon.pausedRefusal.message)")
                process(.writesPaused, now: now)
                publish(now: clock.monotonicMs())
                return
            }
            // A check-in over SSH may have opened the gate since the day was read (the turn looked already; a
            // press scheduled inside the turn looks again, at the cost of one pragma).
            followStore(now: now)
            if clockRefuses(.go, now: now) { return }
            // After the day's reads: a question GO asks (remeasure, 5 s) counts from here.
            process(.session(.go(press)), now: max(now, clock.monotonicMs()))
        case .key(let key):
            // An experiment started or stopped over SSH may have changed tonight since the day was read.
            if key == MorningRoutine.tonightKey { followStore(now: now) }
            process(.session(.key(key)), now: now)
        }
    }

    /// What a call into the strap returned.
    func strapEvents(_ events: [StrapEvent], now: Int64) {
        for event in events {
            switch event {
            case .connected(let address, let battery):
                logger.info("strap connected")
                logger.debug("strap connected", ["ble.address": address ?? "?"])
                process(.session(.strapConnected(address: address, batteryPercent: battery)), now: now)
            case .disconnected(let reason):
                logger.info("strap disconnected: \(reason)")
                process(.session(.strapDisconnected), now: now)
            case .failed(let fault, let reason):
                logger.warning("strap failed: \(reason)")
                process(.session(.strapFailed(fault)), now: now)
            case .sample(let bpm, let rr):
                process(.session(.heartRate(bpm: bpm, rr: rr)), now: now)
            }
        }
    }

    /// Hands `event` to the routine and performs what comes out, including the follow-up events the
    /// actions produce (a save's answer, a day's facts). Returns the actions of `event` itself.
    @discardableResult
    func process(_ event: MorningRoutine.Event, now: Int64) -> [MorningRoutine.Action] {
        queue.append(event)
        guard !draining else { return [] }
        draining = true
        defer { draining = false }
        var first: [MorningRoutine.Action]?
        while !queue.isEmpty {
            let next = queue.removeFirst()
            // An event after the first answers an action just performed (a save's commit, a day's facts): it
            // happens after that work, so it gets the clock read now. A state it enters that is shown for a
            // time (the readout's 30 s, DESIGN §1 step 5) then counts from when its lamps light, not from the
            // loop's wake before the save: a save's fdatasync is not cut from the readout.
            let at = first == nil ? now : max(now, clock.monotonicMs())
            let actions = routine.handle(next, at: routineNow(at))
            if first == nil { first = actions }
            publication.markChanged()
            for action in actions { perform(action, now: at) }
        }
        return first ?? []
    }

    func routineNow(_ now: Int64) -> MorningRoutine.Now {
        let epoch = clock.epochSeconds()
        let local = LocalTime(epochSeconds: epoch)
        return MorningRoutine.Now(
            monotonicMs: now, epochSeconds: epoch, localDate: local.date, localMinute: local.minuteOfDay)
    }

    func perform(_ action: MorningRoutine.Action, now: Int64) {
        switch action {
        case .connectStrap:
            strapEvents(strap.connect(to: strapAddress(), nowMs: now), now: now)
        case .disconnectStrap:
            strapEvents(strap.disconnect(), now: now)
        case .sound(let sound):
            panel.play(sound, nowMs: now)
            if sound == .standNow { strap.personStands(atMs: now) }
            observer?(.sound(sound))
            broadcast(.sound(sessionMs: clock.monotonicMs(), name: sound.pattern.name))
        case .saveMorning(let morning, _):
            // Spool first, then the database (Filing): a refusal never loses the morning.
            let readout = fileMorning(morning)
            observer?(.saved(morning, readout))
            broadcast(.saved(sessionMs: clock.monotonicMs(), date: morning.date.iso, rawRR: Int64(morning.rawRR.count)))
            queue.append(.session(.saved(readout)))
        case .saveQuestionnaire(let questionnaire):
            // Inside the routine's drain, so `.clockRefused` is queued behind this action.
            if clockRefuses(.file(questionnaire.date), now: now) { return }
            fileQuestionnaire(questionnaire)
            queue.append(.questionnaireSaved(questionnaire))
        case .record(let record):
            let event = AnalyticsEvent(
                at: clock.epochSeconds(), day: routine.day.today, kind: AnalyticsKind(rawValue: record.name),
                value: record.value.map { Int64($0.rounded()) }, payload: record.detail)
            do { try store.appendEvent(event) } catch { logger.warning("analytics event not written: \(error)") }
        case .rememberReminder(let date):
            do { try store.updateSettings([.reminderShownOn]) { $0.reminderShownOn = date } } catch {
                logger.warning("the reminder's day was not kept: \(error)")
            }
            logger.info("morning reminder shown", ["day": date.iso])
        case .loadDay(let date):
            do { queue.append(.session(.day(filing.day(try Daemon.dayContext(store, date))))) } catch {
                logger.warning("cannot read \(date.iso) from the database: \(error)")
            }
            if let changed = changedSettings() { queue.append(changed) }
        case .say(let sentence):
            // The panel's sentences carry today's verdict and values: never in the journal at the default
            // level, which `delete` cannot reach (the unit caps the journal at info).
            logger.debug(sentence)
            observer?(.said(sentence))
            broadcast(.say(sessionMs: clock.monotonicMs(), text: sentence))
        case .declined(let decline):
            logger.info("request declined: \(decline.sentence)")
        }
    }

    /// The strap to connect to: the configured address or, failing that, the one `recoverydeck pair` stored,
    /// read at each connect (a new pairing needs no restart). Only a Bluetooth strap has one.
    func strapAddress() -> StrapAddress {
        guard configuration.strap == .bluetooth else { return StrapAddress(address: nil) }
        var stored: Settings?
        do { stored = try store.settings() } catch {
            logger.warning("cannot read the paired strap from the database: \(error)")
        }
        guard let address = configuration.strapAddress ?? stored?.strapAddress else {
            return StrapAddress(address: nil)
        }
        return StrapAddress(address: address, type: configuration.strapAddressType ?? stored?.strapAddressType)
    }

    /// Reads the day and the settings again when another process committed to the database since the last look,
    /// or the local day moved on: a check-in, a delete or `settings` over SSH is seen at the loop's next wake
    /// with no nudge, and a wake with nothing changed reads nothing (`PRAGMA data_version`, `Store.changeStamp`).
    func followStore(now: Int64) {
        let stamp: Store.ChangeStamp
        do { stamp = try store.changeStamp() } catch {
            let sentence = "cannot look for changes to the database: \(error)"
            if sentence != storeStampProblem { logger.warning(sentence) }
            storeStampProblem = sentence
            return
        }
        storeStampProblem = nil
        guard stamp != storeStamp || clock.localTime().date != routine.day.today else { return }
        storeStamp = stamp
        // A delete removes the spooled records of the days it deletes: they must not be filed again.
        filing.reload()
        refreshDay(now: now)
    }

    /// Reloads today's facts and the settings from the store (a check-in, a delete or `settings` over SSH
    /// changes them).
    func refreshDay(now: Int64) {
        dayReads += 1
        if let changed = changedSettings() { process(changed, now: now) }
        let today = clock.localTime().date
        let context: DayContext
        do { context = filing.day(try Daemon.dayContext(store, today)) } catch {
            logger.warning("cannot read \(today.iso) from the database: \(error)")
            return
        }
        guard context != routine.day else { return }
        process(.session(.day(context)), now: now)
    }

    /// The day's facts from the store, and tonight's arm: tonight is the night before tomorrow's morning, in
    /// the experiment running today (if any). What waits for the database goes on top (`Filing.day`).
    static func dayContext(_ store: Store, _ date: LocalDate) throws(StoreError) -> DayContext {
        let running = try store.experiment(runningOn: date)
        return DayContext(
            today: date, questionnaire: try store.questionnaire(on: date),
            measured: try store.measurement(on: date) != nil,
            tonight: running?.arm(forMorning: date.adding(days: 1)).flatMap(TonightArm.init(rawValue:)))
    }
}
