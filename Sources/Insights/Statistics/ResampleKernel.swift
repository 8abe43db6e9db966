/// The resampling arithmetic, written for speed: each series is stored twice over (so a circular block
/// never wraps) with prefix sums, so a block's sum and sum of squares cost O(1); only the cross product
/// of independently resampled x and y needs a pass over the days, done segment by segment.
struct ResampleKernel {
    let n: Int
    let xx: [Double]
    let yy: [Double]
    let px: [Double]
    let pxx: [Double]
    let py: [Double]
    let pyy: [Double]
    let pxy: [Double]

    init(x: [Double], y: [Double]) {
        n = x.count
        // Centre first: the sums stay small and the one-pass formulas below lose no precision.
        let (mx, my) = means(x, y)
        let cx = x.map { $0 - mx }
        let cy = y.map { $0 - my }
        xx = cx + cx
        yy = cy + cy
        var px = [Double](repeating: 0, count: 2 * n + 1)
        var pxx = px
        var py = px
        var pyy = px
        var pxy = px
        for i in 0..<(2 * n) {
            px[i + 1] = px[i] + xx[i]
            pxx[i + 1] = pxx[i] + xx[i] * xx[i]
            py[i + 1] = py[i] + yy[i]
            pyy[i + 1] = pyy[i] + yy[i] * yy[i]
            pxy[i + 1] = pxy[i] + xx[i] * yy[i]
        }
        self.px = px
        self.pxx = pxx
        self.py = py
        self.pyy = pyy
        self.pxy = pxy
    }

    /// r of (x*, y*) with x* and y* resampled in circular blocks of their own lengths, independent starts.
    func nullDraws(blockX: Int, blockY: Int, count: Int, rng: inout SeededGenerator) -> [Double] {
        let n = self.n
        let nbx = (n + blockX - 1) / blockX
        let nby = (n + blockY - 1) / blockY
        var out = [Double]()
        out.reserveCapacity(count)
        var startsX = [Int](repeating: 0, count: nbx)
        var startsY = [Int](repeating: 0, count: nby)
        let fn = Double(n)
        xx.withUnsafeBufferPointer { xb in
            yy.withUnsafeBufferPointer { yb in
                px.withUnsafeBufferPointer { px in
                    pxx.withUnsafeBufferPointer { pxx in
                        py.withUnsafeBufferPointer { py in
                            pyy.withUnsafeBufferPointer { pyy in
                                let xp = xb.baseAddress!
                                let yp = yb.baseAddress!
                                for _ in 0..<count {
                                    let (sx, sxx) = resampledSums(
                                        &startsX, block: blockX, n: n, sums: px, squares: pxx, rng: &rng)
                                    let (sy, syy) = resampledSums(
                                        &startsY, block: blockY, n: n, sums: py, squares: pyy, rng: &rng)
                                    let vx = sxx - sx * sx / fn
                                    let vy = syy - sy * sy / fn
                                    // A resample with a constant side has no correlation; leave it out.
                                    guard vx > 1e-12 * sxx, vy > 1e-12 * syy, vx > 0, vy > 0 else { continue }
                                    var sxy = 0.0
                                    var t = 0
                                    var bx = 0
                                    var by = 0
                                    var xi = startsX[0]
                                    var yi = startsY[0]
                                    var xr = min(blockX, n)
                                    var yr = min(blockY, n)
                                    while t < n {
                                        let m = min(xr, yr)
                                        sxy += dot(xp + xi, yp + yi, m)
                                        xi += m
                                        yi += m
                                        xr -= m
                                        yr -= m
                                        t += m
                                        if t >= n { break }
                                        if xr == 0 {
                                            bx += 1
                                            xi = startsX[bx]
                                            xr = min(blockX, n - t)
                                        }
                                        if yr == 0 {
                                            by += 1
                                            yi = startsY[by]
                                            yr = min(blockY, n - t)
                                        }
                                    }
                                    out.append((sxy - sx * sy / fn) / (vx * vy).squareRoot())
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// r of pairs resampled together in circular blocks of length `block`.
    func pairedDraws(block: Int, count: Int, rng: inout SeededGenerator) -> [Double] {
        let n = self.n
        let nb = (n + block - 1) / block
        let fn = Double(n)
        var out = [Double]()
        out.reserveCapacity(count)
        for _ in 0..<count {
            var sx = 0.0
            var sxx = 0.0
            var sy = 0.0
            var syy = 0.0
            var sxy = 0.0
            for b in 0..<nb {
                let s = rng.index(below: n)
                let e = s + min(block, n - b * block)
                sx += px[e] - px[s]
                sxx += pxx[e] - pxx[s]
                sy += py[e] - py[s]
                syy += pyy[e] - pyy[s]
                sxy += pxy[e] - pxy[s]
            }
            let vx = sxx - sx * sx / fn
            let vy = syy - sy * sy / fn
            guard vx > 1e-12 * sxx, vy > 1e-12 * syy, vx > 0, vy > 0 else { continue }
            out.append(max(-1, min(1, (sxy - sx * sy / fn) / (vx * vy).squareRoot())))
        }
        return out
    }
}

/// One side of a null draw: a random start for each circular block of `block` values (kept in `starts`,
/// one a block), and the sum and sum of squares of the values so drawn, read from their prefix sums.
@inline(__always)
private func resampledSums(
    _ starts: inout [Int], block: Int, n: Int, sums: UnsafeBufferPointer<Double>,
    squares: UnsafeBufferPointer<Double>, rng: inout SeededGenerator
) -> (sum: Double, squares: Double) {
    var sum = 0.0
    var sumOfSquares = 0.0
    for b in 0..<starts.count {
        let s = rng.index(below: n)
        starts[b] = s
        let len = min(block, n - b * block)
        sum += sums[s + len] - sums[s]
        sumOfSquares += squares[s + len] - squares[s]
    }
    return (sum, sumOfSquares)
}

/// Σ a[i]·b[i] over `count` values, four independent accumulators so the loop pipelines.
@inline(__always)
private func dot(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ count: Int) -> Double {
    var s0 = 0.0
    var s1 = 0.0
    var s2 = 0.0
    var s3 = 0.0
    var i = 0
    while i + 4 <= count {
        s0 += a[i] * b[i]
        s1 += a[i + 1] * b[i + 1]
        s2 += a[i + 2] * b[i + 2]
        s3 += a[i + 3] * b[i + 3]
        i += 4
    }
    while i < count {
        s0 += a[i] * b[i]
        i += 1
    }
    return (s0 + s1) + (s2 + s3)
}
