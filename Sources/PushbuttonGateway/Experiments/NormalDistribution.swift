import Foundation

/// The standard normal distribution, by hand (Foundation's `erfc` only): the tail probability and the quantile.
enum NormalDistribution {
    /// P(Z > z) for the standard normal Z, from `erfc` so tiny tails keep their precision (no 1 − cdf).
    static func upperTail(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }

    /// P(|Z| ≥ |z|): the two-sided p-value of a z statistic.
    static func twoSidedPValue(_ z: Double) -> Double {
        min(1, erfc(abs(z) / 2.0.squareRoot()))
    }

    /// The quantile: the z with P(Z ≤ z) = p, for 0 < p < 1 (±infinity at 0 and 1, nan outside).
    ///
    /// Peter J. Acklam's rational approximation ("An algorithm for computing the inverse normal cumulative
    /// distribution function", 2003; relative error below 1.15e-9), refined by one step of Halley's method on
    /// `erfc`, as Acklam recommends, which brings it to full double precision.
    static func quantile(_ p: Double) -> Double {
        guard p.isFinite, p >= 0, p <= 1 else { return .nan }
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        let a = [
            -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
            -3.066479806614716e+01, 2.506628277459239e+00,
        ]
        let b = [
            -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
            -1.328068155288572e+01,
        ]
        let c = [
            -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
            4.374664141464968e+00, 2.938163982698783e+00,
        ]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        var x: Double
        if p < low || p > 1 - low {
            let q = (-2 * log(p < low ? p : 1 - p)).squareRoot()
            let numerator = ((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]
            let denominator = (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
            x = (p < low ? 1 : -1) * numerator / denominator
        } else {
            let q = p - 0.5
            let r = q * q
            let numerator = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            let denominator = ((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1
            x = numerator / denominator
        }
        // Halley's step: e is the cdf's error at x, computed from the tail nearer to p.
        let e = p < 0.5 ? 0.5 * erfc(-x / 2.0.squareRoot()) - p : (1 - p) - upperTail(x)
        let u = e * (2 * Double.pi).squareRoot() * exp(x * x / 2)
        x -= u / (1 + x * u / 2)
        return x
    }
}
