import Foundation

/// When a run must stop: `--timeout` seconds of wall clock after it began, one moment every phase honours.
///
/// A command makes one when it starts, before it reads the spec, and hands the same value to each
/// phase: reading (``InputSource`` waits for a FIFO no longer), loading (the parser and the model
/// builder), the search, the stack count, the paths, the shrinking. Each phase asks ``hasPassed``
/// every so often in its own loop and stops as `incomplete`, so `--timeout N` ends the whole run
/// about N seconds after it began, whichever phase is running.
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

    /// The deadline `seconds` from now.
    public static func after(_ seconds: Double) -> Deadline { Deadline(timeout: seconds) }

    /// Whether the moment has come.
    public var hasPassed: Bool {
        guard let timeout else { return false }
        return Date().timeIntervalSince(start) > timeout
    }

    /// Seconds left before the moment (0 once it has passed); `nil` for no limit.
    public var remaining: Double? {
        timeout.map { max(0, $0 - Date().timeIntervalSince(start)) }
    }

    /// The milliseconds left, for `poll`: 0 once passed, at most `Int32.max`, -1 (wait as long as it takes) for no limit.
    package func remainingMilliseconds() -> Int32 {
        guard let remaining else { return -1 }
        guard remaining > 0 else { return 0 }
        return Int32(clamping: Int64(min(remaining * 1000, 1e12).rounded(.up)))
    }
}

extension Deadline {
    /// `--timeout 5 s reached`, as a stop by this deadline is reported.
    package var stopReasonText: String {
        let seconds = timeout ?? 0
        return "--timeout \(seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)) s reached"
    }
}
