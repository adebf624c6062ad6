import Foundation

/// When a run must stop: `--timeout` seconds of wall clock after it began, one moment every phase honours.
///
/// A command makes one when it starts, before it reads the spec, and hands the same value to each
/// phase: the search, the stack count, the paths, the shrinking, the rendering. Each phase asks
/// ``hasPassed`` every so often in its own loop and stops as `incomplete` with ``stopReason``, so
/// `--timeout N` ends the whole run about N seconds after it began, whichever phase is running.
///
/// ```swift
/// let deadline = Deadline(timeout: 5)
/// if deadline.hasPassed { return .incomplete(deadline.stopReason) }
/// ```
public struct Deadline: Sendable {
    /// When the run began, by the wall clock.
    public var start: Date
    /// Seconds after `start` at which the run stops; `nil` for no limit.
    public var timeout: Double?

    public init(start: Date = Date(), timeout: Double?) {
        self.start = start
        self.timeout = timeout
    }

    /// No limit.
    public static let none = Deadline(timeout: nil)

    /// Whether the moment has come.
    public var hasPassed: Bool {
        guard let timeout else { return false }
        return Date().timeIntervalSince(start) > timeout
    }

    /// Seconds left before the moment (0 once it has passed); `nil` for no limit.
    public var remaining: Double? {
        timeout.map { max(0, $0 - Date().timeIntervalSince(start)) }
    }

    /// What a run stopped by this deadline reports: `--timeout N s reached`; `nil` for no limit.
    public var stopReason: StopReason? { timeout.map { .timeout(seconds: $0) } }
}
