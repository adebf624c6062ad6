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

    /// The phase of a check, in the order a check runs them.
    package enum Phase: String, Sendable {
        /// The complete search over `(state, data keys)` configurations, level by level.
        case configurations
        /// The runtime walk over undo stacks, depth first.
        case stacks
        /// Counting the stacks from the model, level by level, when the runtime is not walked.
        case counting

        /// What the phase is doing, for a progress line: `searching configurations`.
        package var activity: String {
            switch self {
            case .configurations: "searching configurations"
            case .stacks: "walking stacks"
            case .counting: "counting stacks"
            }
        }
    }

    /// The counters at one moment.
    package struct Snapshot: Hashable, Sendable {
        /// The phase running.
        package var phase: Phase
        /// Configurations stored, or stacks driven, so far.
        package var count: Int
        /// The deepest breadth-first level, or the highest stack, reached in this phase, in forward events.
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

    /// Records where the check is; within a phase the count and the depth never go back.
    ///
    /// A depth-first walk's stack rises and falls, and parallel workers report the depths of their own
    /// subtrees, so the depth shown is the deepest reached so far; a new phase starts both again.
    package func update(_ phase: Phase, count: Int, depth: Int) {
        lock.withLock {
            guard current.phase == phase else {
                current = Snapshot(phase: phase, count: count, depth: depth)
                return
            }
            current = Snapshot(phase: phase, count: max(current.count, count), depth: max(current.depth, depth))
        }
    }

    /// The latest counters.
    package var snapshot: Snapshot { lock.withLock { current } }
}
