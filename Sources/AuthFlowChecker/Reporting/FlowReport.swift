/// Conventions every report shares.
enum FlowReport {
    /// What a secret key's value prints as.
    static let redacted = "<redacted>"
}
