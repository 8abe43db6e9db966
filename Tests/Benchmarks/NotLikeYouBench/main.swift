// Calibrates the "Not like you" detector (Sources/Insights/Readout/NotLikeYou.swift) on seeded synthetic people
// and prints, beside it, RHR-Diff and RHR-CuSum (Mishra et al. 2020, Nat Biomed Eng 4:1208) and NightSignal
// (Alavi et al. 2022, Nat Med 28:175) adapted to one morning a day, run on the same mornings.
// docs/not-like-you.md reads the printed curve.
//
//     Tests/Benchmarks/NotLikeYouBench/run.sh [people] [seed]
//
// A person: 425 days (60 to build the normal, then a year), lying HR and ln rMSSD as correlated AR(1) series with
// the day-to-day variability of real morning readings (ln rMSSD SD 0.08–0.16, lying HR SD 1.5–3.5 bpm), a weekly
// rhythm (weekend mornings lower ln rMSSD, higher HR), training blocks (three build weeks, one easy), missed
// mornings (5–30 % at random, and a holiday gap of 5–14 days for half of them). Half the people carry one
// episode: lying HR +3..+8 bpm and ln rMSSD −0.1..−0.4 at the peak, over 3–10 days, ramping up over its first
// half. Each method is judged on the same mornings: an episode is found when a new alert falls on one of its
// days; a false alert-day is a day in alert state for a person without an episode (days 60–424).
import Foundation
import Insights
import RecoveryCore

struct Person {
    var days: [NotLikeYou.Day]
    /// Day indices of the episode, if any.
    var episode: Range<Int>?
}

let arguments = CommandLine.arguments
let peoplePerArm = arguments.count > 1 ? Int(arguments[1]) ?? 300 : 300
let seed = arguments.count > 2 ? UInt64(arguments[2]) ?? 35 : 35
let totalDays = 425
let buildDays = 60

func makePerson(_ index: Int, withEpisode: Bool) -> Person {
    var r = SeededRandom(seed: seed, stream: withEpisode ? 1 : 2, UInt64(index))
    let lnMean = r.normal(mean: 4.0, sd: 0.3)
    let hrMean = r.normal(mean: 55, sd: 6)
    let lnSD = r.uniform(0.08, 0.16)
    let hrSD = r.uniform(1.5, 3.5)
    let phi = r.uniform(0.2, 0.6)
    let rho = r.uniform(-0.6, -0.2)  // a low-HRV morning tends to be a high-HR one
    let weekly = r.uniform(0, 1)
    let missRate = r.uniform(0.05, 0.30)
    let holiday: Range<Int>? =
        r.chance(0.5)
        ? {
            let start = Int(r.uniform(Double(buildDays), Double(totalDays - 20)))
            return start..<(start + Int(r.uniform(5, 15)))
        }() : nil
    let trainingStart = Int(r.uniform(0, 28))
    let trainingLoad = r.uniform(0, 1)
    var episode: Range<Int>?
    var peakHR = 0.0
    var peakLn = 0.0
    if withEpisode {
        let length = Int(r.uniform(3, 11))
        let start = Int(r.uniform(Double(buildDays + 30), Double(totalDays - length)))
        episode = start..<(start + length)
        peakHR = r.uniform(3, 8)
        peakLn = r.uniform(0.1, 0.4)
    }
    var a = 0.0
    var b = 0.0
    var days: [NotLikeYou.Day] = []
    let innovation = (1 - phi * phi).squareRoot()
    for t in 0..<totalDays {
        let e1 = r.normal()
        let e2 = rho * e1 + (1 - rho * rho).squareRoot() * r.normal()
        a = phi * a + innovation * e1
        b = phi * b + innovation * e2
        var ln = lnMean + lnSD * a
        var hr = hrMean + hrSD * b  // e2 correlates negatively with e1: HR up when ln rMSSD down
        let weekday = t % 7
        if weekday == 5 || weekday == 6 {  // weekend mornings
            ln -= 0.04 * weekly
            hr += 0.8 * weekly
        }
        // Training: four-week cycles, three building (load rising) and one easy.
        let cycleDay = (t + trainingStart) % 28
        let build = cycleDay < 21 ? Double(cycleDay) / 21 : 0
        ln -= 0.06 * trainingLoad * build
        hr += 1.2 * trainingLoad * build
        if let e = episode, e.contains(t) {
            let k = t - e.lowerBound
            let rampDays = max(1, (e.count + 1) / 2)
            let share = min(1, Double(k + 1) / Double(rampDays))
            hr += peakHR * share
            ln -= peakLn * share
        }
        let missed = r.chance(missRate) || (holiday?.contains(t) ?? false)
        days.append(
            missed ? NotLikeYou.Day(lyingHR: nil, rmssd: nil) : NotLikeYou.Day(lyingHR: hr.rounded(), rmssd: exp(ln)))
    }
    return Person(days: days, episode: episode)
}

/// One method's verdict per day: in alert, and whether an alert starts that day.
/// Each day: in alert state, told of a new alert, and an alert raised (new, or the detector's resumed episode).
typealias Verdict = [(alert: Bool, new: Bool, raised: Bool)]

/// RHR-Diff for one morning a day: lying HR's z against the 28 days before (at least 14 mornings), an alert-day
/// when z reaches `z`; a new alert is the first alert-day after a day without one.
func rhrDiff(_ days: [NotLikeYou.Day], z: Double) -> Verdict {
    var out: Verdict = []
    var previous = false
    for t in days.indices {
        let window = days[max(0, t - 28)..<t].compactMap(\.lyingHR)
        var alert = false
        if let v = days[t].lyingHR, window.count >= 14 {
            let m = window.reduce(0, +) / Double(window.count)
            let sd = max(1, (window.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(window.count - 1)).squareRoot())
            alert = (v - m) / sd >= z
        } else if days[t].lyingHR == nil {
            alert = previous  // a missed morning neither starts nor ends an alert
        }
        out.append((alert, alert && !previous, alert && !previous))
        previous = alert
    }
    return out
}

/// NightSignal (Alavi et al. 2022, Nat Med 28:175; the published finite-state machine of
/// StanfordBioinformatics/wearable-infection) given one lying HR a morning in place of a night's resting HR: the
/// person's baseline is the median of every day so far (whole bpm), a day is "above" when its value reaches the
/// median plus `bpm` (3 for the paper's yellow state, 4 for red), and a day is an alert-day when it and the day
/// before are both above. As there, one missed day between two mornings takes their mean; a longer gap breaks
/// the pair.
func nightSignal(_ days: [NotLikeYou.Day], bpm: Double) -> Verdict {
    var values = days.map(\.lyingHR)
    for t in values.indices.dropFirst().dropLast() where values[t] == nil {
        if let a = values[t - 1], let b = values[t + 1], days[t - 1].lyingHR != nil { values[t] = ((a + b) / 2).rounded(.down) }
    }
    var sorted: [Double] = []
    var above: [Bool] = []
    var out: Verdict = []
    var previous = false
    for t in values.indices {
        var isAbove = false
        if let v = values[t] {
            let index = sorted.firstIndex(where: { $0 > v }) ?? sorted.endIndex
            sorted.insert(v, at: index)
            let n = sorted.count
            let median = n % 2 == 1 ? sorted[n / 2] : ((sorted[n / 2 - 1] + sorted[n / 2]) / 2).rounded(.down)
            isAbove = v >= median + bpm
        }
        above.append(isAbove)
        // A filled day is known only once the next morning is in: it is never an alert-day itself, but it pairs
        // with that next morning.
        let alert = days[t].lyingHR != nil && isAbove && t > 0 && above[t - 1]
        out.append((alert, alert && !previous, alert && !previous))
        previous = alert
    }
    return out
}

func detector(_ days: [NotLikeYou.Day], _ p: NotLikeYou.Parameters) -> Verdict {
    NotLikeYou.run(days, parameters: p).map { ($0.status == .flagged, $0.isNewFlag, $0.isRaised) }
}

/// RHR-CuSum: the same CuSum on lying HR alone (the rMSSD taken away).
func rhrCuSum(_ days: [NotLikeYou.Day], _ p: NotLikeYou.Parameters) -> Verdict {
    detector(days.map { NotLikeYou.Day(lyingHR: $0.lyingHR, rmssd: nil) }, p)
}

struct Score {
    var found = 0
    var episodes = 0
    var fireDays: [Int] = []
    var falseAlertDays = 0
    var falseAlerts = 0
    var personYears = 0.0
    /// Episodes told twice: a second new alert within the episode or the week after it.
    var twice = 0

    var line: String {
        let share = Double(found) / Double(max(1, episodes)) * 100
        let sorted = fireDays.sorted()
        let median = sorted.isEmpty ? "-" : String(sorted[sorted.count / 2])
        return String(
            format: "%5.1f %%   %6@   %6.2f   %6.2f   %4d", share, median, Double(falseAlertDays) / personYears,
            Double(falseAlerts) / personYears, twice)
    }
}

func score(_ method: ([NotLikeYou.Day]) -> Verdict, with: [Person], without: [Person]) -> Score {
    var s = Score()
    for p in with {
        guard let e = p.episode else { continue }
        s.episodes += 1
        let v = method(p.days)
        if (e.lowerBound..<min(totalDays, e.upperBound + 7)).filter({ v[$0].new }).count > 1 { s.twice += 1 }
        // Found: an alert raised on one of its days (a resumed one is shown to the person again, just not as new).
        if let fired = e.first(where: { v[$0].raised }) {
            s.found += 1
            s.fireDays.append(fired - e.lowerBound + 1)
        }
    }
    for p in without {
        let v = method(p.days)
        for t in buildDays..<totalDays {
            if v[t].alert { s.falseAlertDays += 1 }
            if v[t].new { s.falseAlerts += 1 }
        }
        s.personYears += Double(totalDays - buildDays) / 365
    }
    return s
}

let with = (0..<peoplePerArm).map { makePerson($0, withEpisode: true) }
let without = (0..<peoplePerArm).map { makePerson($0, withEpisode: false) }
print("\(peoplePerArm) people with an episode, \(peoplePerArm) without, \(totalDays) days each, seed \(seed)")
print("method".padding(toLength: 52, withPad: " ", startingAt: 0)
    + "found   median day   false alert-days/yr   false alerts/yr   told twice")
func row(_ name: String, _ s: Score) { print(name.padding(toLength: 50, withPad: " ", startingAt: 0) + "  " + s.line) }
// The detector: its normal's length (Mishra et al.'s 28 days, the box's 60), how many mornings back inside the
// normal end an episode, what "inside" is (every present z under 1, or under 2: the person's normal range), the
// allowance k and the threshold h.
for normal in [28, 60] {
    for end in [2, 1] {
        for inside in [1.0, 2.0] {
            for k in [1.0, 1.2, 1.25, 1.5] {
                for h in [2.75, 3.0, 4.0] {
                    var p = NotLikeYou.Parameters.default
                    p.baselineDays = normal
                    p.insideMorningsToEnd = end
                    p.insideZ = inside
                    p.allowance = k
                    p.threshold = h
                    let name = "not like you, \(normal) d, end \(end), in z<\(Int(inside)), k \(k) h \(h)"
                    row(p == .default ? name + " *" : name, score({ detector($0, p) }, with: with, without: without))
                }
            }
        }
    }
}
// The default again without resuming: a flag raised soon after an episode ended is told as a new one.
do {
    var p = NotLikeYou.Parameters.default
    p.resumeWithinDays = 0
    row("not like you, default, no resume", score({ detector($0, p) }, with: with, without: without))
}
for k in [0.5, 1.0, 1.5] {
    for h in [2.0, 3.0, 4.0, 6.0] {
        // Mishra et al.'s 28-day baseline, the episode ended as the box's is.
        var p = NotLikeYou.Parameters.default
        p.baselineDays = 28
        p.allowance = k
        p.threshold = h
        row("RHR-CuSum, k \(k) h \(h)", score({ rhrCuSum($0, p) }, with: with, without: without))
    }
}
for z in [1.5, 2.0, 2.5, 3.0] {
    row("RHR-Diff, z \(z)", score({ rhrDiff($0, z: z) }, with: with, without: without))
}
for bpm in [3.0, 4.0] {
    row("NightSignal, +\(Int(bpm)) bpm", score({ nightSignal($0, bpm: bpm) }, with: with, without: without))
}
