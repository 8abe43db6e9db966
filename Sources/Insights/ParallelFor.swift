/// How the caller lends the engine its cores. The engine itself starts no threads (it is a pure
/// module); an executable hands in a runner built on Dispatch, tests may use `.serial`. The runner
/// must call `body` exactly once for every index in 0..<count, in any order, on any threads, and
/// return when all calls have returned.
public struct ParallelFor: Sendable {
    public typealias Runner = @Sendable (_ count: Int, _ body: @Sendable (Int) -> Void) -> Void

    let runner: Runner

    public init(_ runner: @escaping Runner) { self.runner = runner }

    /// Runs every index on the calling thread, in order.
    public static let serial = ParallelFor { count, body in
        for i in 0..<count { body(i) }
    }

    /// `transform` for every index, results in index order. Each index writes only its own slot, so the
    /// slots need no lock.
    public func map<T: Sendable>(_ count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let slots = Slots<T>(count: count)
        runner(count) { i in slots.store(transform(i), at: i) }
        return slots.collect()
    }
}

/// Write-once result slots, one per index; see `ParallelFor.map`.
private final class Slots<T>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<T?>
    private let count: Int

    init(count: Int) {
        self.count = count
        base = UnsafeMutablePointer<T?>.allocate(capacity: count)
        base.initialize(repeating: nil, count: count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func store(_ value: T, at index: Int) { base[index] = value }

    func collect() -> [T] {
        (0..<count).map { i in
            guard let v = base[i] else { preconditionFailure("ParallelFor runner skipped index \(i)") }
            return v
        }
    }
}
