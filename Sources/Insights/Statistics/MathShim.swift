// The few libm functions the statistics need (log, cos, cbrt, lgamma, exp, atanh, tanh), without Foundation.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@inline(__always) func naturalLog(_ x: Double) -> Double { log(x) }
@inline(__always) func cosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func cubeRoot(_ x: Double) -> Double { cbrt(x) }
@inline(__always) func logGamma(_ x: Double) -> Double { lgamma(x) }
@inline(__always) func exponential(_ x: Double) -> Double { exp(x) }
@inline(__always) func fisherZ(_ r: Double) -> Double { atanh(r) }
@inline(__always) func inverseFisherZ(_ z: Double) -> Double { tanh(z) }
@inline(__always) func complementaryError(_ x: Double) -> Double { erfc(x) }

/// The standard normal distribution function Φ.
func normalCDF(_ z: Double) -> Double { 0.5 * complementaryError(-z / 2.0.squareRoot()) }
