/// Fixed-size runs of `Double` kept inline in the value that holds them (a homogeneous tuple), read and written by
/// index through the tuple's bytes.
///
/// Why not `Array`: the per-beat path must not allocate (DESIGN §4), and an array held in a struct that the
/// caller copies, mutates and stores back is copied on write. Why not `InlineArray`: it needs Swift 6.2, and the
/// box also builds with Debian's Swift 6.0.3. A homogeneous tuple of `Double` is laid out as a C array (stride 8,
/// no padding), so element `i` is at byte offset `8 i`.
@usableFromInline enum InlineDoubles {
    /// 8 doubles.
    @usableFromInline typealias Slots8 = (Double, Double, Double, Double, Double, Double, Double, Double)
    /// 64 doubles.
    @usableFromInline typealias Slots64 = (
        Double, Double, Double, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double, Double, Double, Double
    )
    /// 512 doubles.
    @usableFromInline typealias Slots512 = (Slots64, Slots64, Slots64, Slots64, Slots64, Slots64, Slots64, Slots64)

    @usableFromInline static let zero8: Slots8 = (0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline static let zero64: Slots64 = (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )
    @usableFromInline static let zero512: Slots512 = (zero64, zero64, zero64, zero64, zero64, zero64, zero64, zero64)

    /// How many doubles a slots tuple holds.
    @inlinable @inline(__always)
    static func count<Slots>(_: Slots.Type) -> Int { MemoryLayout<Slots>.size / MemoryLayout<Double>.stride }

    /// Element `i` of `slots` (a tuple of doubles); traps outside it, as an array does.
    @inlinable @inline(__always)
    static func get<Slots>(_ slots: Slots, _ i: Int) -> Double {
        precondition(UInt(bitPattern: i) < UInt(count(Slots.self)), "slot index out of range")
        return withUnsafeBytes(of: slots) { $0.load(fromByteOffset: i &* 8, as: Double.self) }
    }

    /// Sets element `i` of `slots` (a tuple of doubles); traps outside it, as an array does.
    @inlinable @inline(__always)
    static func set<Slots>(_ slots: inout Slots, _ i: Int, _ value: Double) {
        precondition(UInt(bitPattern: i) < UInt(count(Slots.self)), "slot index out of range")
        withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: value, toByteOffset: i &* 8, as: Double.self) }
    }

    /// `body` over the doubles of `slots` as one buffer: the loops that walk many elements (a sort, a shift) use it
    /// so that no element access copies the tuple.
    @inlinable @inline(__always)
    static func withBuffer<Slots, R>(_ slots: inout Slots, _ body: (UnsafeMutableBufferPointer<Double>) -> R) -> R {
        withUnsafeMutableBytes(of: &slots) { raw in
            body(raw.bindMemory(to: Double.self))
        }
    }
}
