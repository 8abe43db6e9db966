/// The latest `capacity` entries of a log, oldest first: what the simulated panel keeps of its presses and
/// lamp changes. A daemon that runs the simulated panel for months must not grow with every press, and a test
/// or a watcher reads only the recent past; the storage is allocated once and reused in a ring.
public struct RecentLog<Element> {
    public let capacity: Int
    private var storage: [Element] = []
    /// Where the oldest entry sits once the storage is full.
    private var oldest = 0
    /// Entries appended since the start, including those overwritten since.
    public private(set) var totalCount = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "a log needs room for at least one entry")
        self.capacity = capacity
        storage.reserveCapacity(capacity)
    }

    public mutating func append(_ element: Element) {
        totalCount += 1
        if storage.count < capacity {
            storage.append(element)
            return
        }
        storage[oldest] = element
        oldest = (oldest + 1) % capacity
    }

    /// The entries held, oldest first.
    public var entries: [Element] { Array(storage[oldest...] + storage[..<oldest]) }

    /// Entries dropped to keep within the capacity.
    public var droppedCount: Int { totalCount - storage.count }

    public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        oldest = 0
        totalCount = 0
    }
}

extension RecentLog: Sendable where Element: Sendable {}
