import Foundation

/// Live counters of a running check, read by a progress display on another thread.
///
/// The checker updates them now and then (every few thousand configurations or stacks) when a
/// display has installed one for the current task; otherwise it costs one nil check per batch.
///
/// ```swift
/// let progress = CheckProgress()
/// let report = CheckProgress.$current.withValue(progress) {
///     FlowChecker.check(file: "Specs/email-first.json")
/// }
/// // meanwhile, on a timer: progress.snapshot
/// ```
package final class CheckProgress: @unchecked Sendable {
    /// The progress of the check running in this task, if a display asked for it.
    @TaskLocal package static var current: CheckProgress?

    /// The phase of a check.
    package enum Phase: String, Sendable {
        /// The complete search over `(state, data keys)` configurations.
        case configurations
        /// The runtime walk over undo stacks.
        case stacks
    }

    /// The counters at one moment.
    package struct Snapshot: Hashable, Sendable {
        /// The phase running.
        package var phase: Phase
        /// Configurations stored, or stacks driven, so far.
        package var count: Int
        /// The breadth-first level, or the height of the current stack, in forward events.
        package var depth: Int

        package init(phase: Phase, count: Int, depth: Int) {
            self.phase = phase
            self.count = count
            self.depth = depth
        }
    }

    private let lock = NSLock()
    private var current = Snapshot(phase: .configurations, count: 0, depth: 0)

    package init() {}

    /// Records where the check is.
    package func update(_ phase: Phase, count: Int, depth: Int) {
        lock.withLock { current = Snapshot(phase: phase, count: count, depth: depth) }
    }

    /// The latest counters.
    package var snapshot: Snapshot { lock.withLock { current } }
}
