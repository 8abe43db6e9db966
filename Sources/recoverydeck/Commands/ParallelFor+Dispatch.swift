import Dispatch
import Insights

extension ParallelFor {
    /// The engine's parallel map on every core (Dispatch's pool sizes itself to the CPUs). Only analysis
    /// commands use it; the daemon never does.
    static let allCores = ParallelFor { count, body in
        DispatchQueue.concurrentPerform(iterations: count) { body($0) }
    }
}
