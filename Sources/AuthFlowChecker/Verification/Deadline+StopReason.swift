import AuthFlow

extension Deadline {
    /// What a run stopped by this deadline reports: `--timeout N s reached`; `nil` for no limit.
    public var stopReason: StopReason? { timeout.map { .timeout(seconds: $0) } }
}
