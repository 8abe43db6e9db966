/// The result of an experiment (T4; DESIGN §6): by assignment and per protocol.
public struct ExperimentResult: Sendable, Equatable {
    /// Intention-to-treat: every measured morning, by the arm its night was assigned, whatever was done. This is
    /// the comparison the randomisation protects, and the only one with a p-value.
    public var byAssignment: ArmComparison
    /// Per protocol: only the mornings whose check-in says the night went as assigned. Those who skip the habit
    /// on bad days choose which nights drop out, so this is shown beside the randomised result, never instead.
    public var perProtocol: ArmComparison?
    /// Re-draws of the scheme the p-value and the CI were computed from.
    public var redraws: Int
    /// Mornings in the schedule (run so far), measured, and with a check-in that followed the assignment.
    public var scheduled: Int
    public var measured: Int
    public var followed: Int
    public var withCheckin: Int

    /// Health Engine README, T4: "In your own test, late caffeine lowered your rMSSD by 6 ms". The effect is
    /// claimed only when the randomisation test rejects "no effect" at α 0.05.
    public func sentence(habit: String, outcome: String, unit: String, digits: Int) -> String {
        let c = byAssignment
        let p = c.p ?? 1
        let interval =
            "95 % CI \(ExperimentResult.fixed(c.ciLow, digits)) to \(ExperimentResult.fixed(c.ciHigh, digits))\(unit); "
            + "p = \(ExperimentResult.pText(p)), \(c.habitMornings) vs \(c.withoutMornings) mornings"
        if p < ExperimentAnalysis.alpha {
            let verb = c.difference < 0 ? "lowered" : "raised"
            return "In your own test, \(habit) \(verb) your \(outcome) by "
                + "\(ExperimentResult.fixed(abs(c.difference), digits))\(unit) "
                + "(\(ExperimentResult.fixed(abs(c.percent), 0)) %; \(interval))."
        }
        return "In your own test, \(habit) made no clear difference to your \(outcome): "
            + "\(ExperimentResult.signed(c.difference, digits))\(unit) (\(interval))."
    }

    public var tier: Tier? { (byAssignment.p ?? 1) < ExperimentAnalysis.alpha ? .t4 : nil }

    static func pText(_ p: Double) -> String { p < 0.001 ? "<0.001" : fixed(p, 3) }

    static func signed(_ v: Double, _ digits: Int) -> String { (v > 0 ? "+" : "") + fixed(v, digits) }

    /// Rounded half away from zero to `digits` decimals (the CLI's own formatter is not visible from here).
    static func fixed(_ v: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let units = Int64((abs(v) * scale).rounded(.toNearestOrAwayFromZero))
        let whole = String(units / Int64(scale))
        let sign = v < 0 && units != 0 ? "-" : ""
        guard digits > 0 else { return sign + whole }
        let fraction = String(units % Int64(scale))
        return sign + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
