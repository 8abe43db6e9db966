/// A first-in first-out buffer of fixed capacity for the samples of one session (DESIGN §4: "nothing on the
/// per-sample path allocates"). Storage is allocated once, at `init`; `append` and `popFirst` never allocate
/// while the buffer is uniquely held (copying a buffer and then appending to the copy allocates once, as any
/// Swift value does).
///
/// Overflow: an append to a full buffer is refused and counted in `refusedCount`; nothing already held is
/// overwritten. A morning's stores (`MorningSession`) are sized for the longest session plus margin
/// (`SessionCapacity`), so a full buffer means something is flooding the session or interrupting it again and
/// again. Overwriting the oldest sample would silently erase the start of the morning (the settle and the capture
/// the metrics came from) and make the stored raw RR a lie about what was measured; refusing keeps the record
/// honest, and the count lets the session say why.
///
/// Shape after swift-collections' `RigidDeque`: `isFull`, `freeCapacity`, a `Slot` type for physical storage
/// positions distinct from logical offsets (0 = oldest), and invariant checks compiled in only when
/// `RECOVERYCORE_INVARIANTS` is defined (debug builds of this package).
///
/// Elements are plain values (`BitwiseCopyable`: RR intervals, BPM readings, numbers), so a popped slot holds
/// no reference that would need releasing before an append reuses it.
public struct RingBuffer<Element: BitwiseCopyable>: RandomAccessCollection {
    /// A physical position in `storage`. Logical offsets are plain `Int`s counted from the oldest element;
    /// the two are never interchangeable, so converting is always explicit (`slot(forOffset:)`).
    @usableFromInline
    struct Slot: Equatable, Sendable {
        @usableFromInline var position: Int
        @inlinable init(_ position: Int) { self.position = position }
    }

    /// `capacity` slots, allocated once. Slots below `storage.initialized` hold a value; the rest are raw memory.
    /// Invariant: while `storage.initialized < capacity`, the live range `head ..< head + count` lies below it.
    /// Sendable as the standard library's array storage is: written only while uniquely referenced (copy on write).
    @usableFromInline nonisolated(unsafe) var storage: RingStorage<Element>
    @usableFromInline var head: Slot
    @usableFromInline var held: Int
    /// The fixed number of elements the buffer can hold.
    public let capacity: Int
    @usableFromInline var refusals: Int

    /// Allocates storage for `capacity` elements, once.
    public init(capacity: Int) {
        precondition(capacity > 0, "a ring buffer needs room for at least one element")
        self.storage = RingStorage.create(capacity: capacity)
        self.head = Slot(0)
        self.held = 0
        self.capacity = capacity
        self.refusals = 0
        checkInvariants()
    }

    /// Number of elements held.
    @inlinable public var count: Int { held }
    /// Appends refused because the buffer was full.
    @inlinable public var refusedCount: Int { refusals }
    @inlinable public var isFull: Bool { count == capacity }
    @inlinable public var freeCapacity: Int { capacity - count }
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    /// The element at logical `offset` (0 = oldest).
    @inlinable
    public subscript(offset: Int) -> Element {
        precondition(offset >= 0 && offset < count, "ring buffer offset out of range")
        let position = slot(forOffset: offset).position
        return storage.withUnsafeMutablePointerToElements { $0[position] }
    }

    /// Appends at the newest end. Returns false, counts the refusal and changes nothing when full.
    /// Always inlined, as `popFirst`: both are per-sample operations of a few instructions.
    @inlinable @inline(__always) @discardableResult
    public mutating func append(_ element: Element) -> Bool {
        guard held < capacity else {
            refusals &+= 1
            return false
        }
        // Copy on write: the one check per append (storage shared with a copy of this buffer is cloned once).
        // First, so that little is live across the runtime call.
        if !isKnownUniquelyReferenced(&storage) { cloneStorage() }
        let tail = slot(forOffset: held).position
        storage.withUnsafeMutablePointers { initialized, elements in
            if tail < initialized.pointee {
                elements[tail] = element
            } else {
                (elements + tail).initialize(to: element)  // first pass over this slot
                initialized.pointee &+= 1
            }
        }
        held &+= 1
        checkInvariants()
        return true
    }

    /// Gives this buffer its own copy of the storage it shares with a copy of it.
    @usableFromInline @inline(never)
    mutating func cloneStorage() {
        storage = storage.clone(capacity: capacity)
    }

    /// Removes and returns the oldest element, or nil when empty. Writes nothing to the storage (the slot keeps its
    /// value until an append reuses it), so it needs no copy-on-write check.
    @inlinable @inline(__always)
    public mutating func popFirst() -> Element? {
        guard held > 0 else { return nil }
        let position = head.position
        let element = storage.withUnsafeMutablePointerToElements { $0[position] }
        let next = position &+ 1
        head = Slot(next == capacity ? 0 : next)  // slot(forOffset: 1), as head < capacity
        held &-= 1
        checkInvariants()
        return element
    }

    /// Forgets every element (keeps the storage and the refusal count).
    @inlinable
    public mutating func removeAll() {
        head = Slot(0)
        held = 0
        checkInvariants()
    }

    /// Forgets every element and the refusal count, keeping the storage: the buffer as a new session finds it.
    @inlinable
    public mutating func reset() {
        removeAll()
        refusals = 0
    }

    @inlinable
    func slot(forOffset offset: Int) -> Slot {
        let position = head.position &+ offset
        return Slot(position >= capacity ? position &- capacity : position)
    }

    @inlinable
    func checkInvariants() {
        #if RECOVERYCORE_INVARIANTS
            precondition(count >= 0 && count <= capacity, "count outside 0...capacity")
            precondition(head.position >= 0 && head.position < capacity, "head slot outside storage")
            precondition(storage.initialized <= capacity, "storage grew past capacity")
            if storage.initialized < capacity {
                precondition(head.position + count <= storage.initialized, "live range reaches uninitialised slots")
            }
        #endif
    }
}

extension RingBuffer: Sendable where Element: Sendable {}

/// The elements of a `RingBuffer`, in one allocation: a header counting the initialised slots, then the slots.
/// Shared between copies of a buffer until one of them appends (copy on write).
@usableFromInline
final class RingStorage<Element>: ManagedBuffer<Int, Element> {
    @inlinable
    static func create(capacity: Int) -> RingStorage {
        // `create` allocates an instance of the class it is called on; the downcast cannot fail.
        unsafeDowncast(RingStorage.create(minimumCapacity: capacity) { _ in 0 }, to: RingStorage.self)
    }

    /// Number of slots, from the first, that hold a value.
    @inlinable
    var initialized: Int {
        get { header }
        set { header = newValue }
    }

    /// A copy for a buffer about to write while another buffer shares this storage: same slots, same layout.
    @usableFromInline
    func clone(capacity: Int) -> RingStorage {
        let copy = RingStorage.create(capacity: capacity)
        withUnsafeMutablePointers { count, source in
            copy.withUnsafeMutablePointers { copiedCount, target in
                target.initialize(from: source, count: count.pointee)
                copiedCount.pointee = count.pointee
            }
        }
        return copy
    }

    deinit {
        _ = withUnsafeMutablePointers { initialized, elements in elements.deinitialize(count: initialized.pointee) }
    }
}
