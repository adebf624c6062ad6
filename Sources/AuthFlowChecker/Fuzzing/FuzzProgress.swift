import Foundation

/// Live counters of a running fuzz, read by a progress display on another thread.
///
/// The fuzzer updates them after each run when a display has installed one for the current task;
/// otherwise it costs one nil check per run.
package final class FuzzProgress: @unchecked Sendable {
    /// The progress of the fuzz running in this task, if a display asked for it.
    @TaskLocal package static var current: FuzzProgress?

    /// The counters at one moment.
    package struct Snapshot: Hashable, Sendable {
        /// Runs finished.
        package var runs: Int
        /// Steps taken in them.
        package var steps: Int
        /// Whether a failure was found and is being shrunk.
        package var shrinking: Bool

        package init(runs: Int = 0, steps: Int = 0, shrinking: Bool = false) {
            self.runs = runs
            self.steps = steps
            self.shrinking = shrinking
        }
    }

    private let lock = NSLock()
    private var current = Snapshot()

    package init() {}

    /// Records the runs and steps done.
    package func update(runs: Int, steps: Int) {
        lock.withLock { current = Snapshot(runs: runs, steps: steps, shrinking: current.shrinking) }
    }

    /// Records that a failure is being shrunk.
    package func startShrinking() {
        lock.withLock { current.shrinking = true }
    }

    /// The latest counters.
    package var snapshot: Snapshot { lock.withLock { current } }
}
