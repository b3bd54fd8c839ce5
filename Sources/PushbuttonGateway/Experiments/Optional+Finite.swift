extension Double? {
    /// The value when it is a finite number, else `nil`: what JSON can carry (it has no NaN or infinity).
    var finite: Double? { flatMap { $0.isFinite ? $0 : nil } }
}
