import AuthFlow

/// The result of driving the runtime through every undo stack up to a depth.
package struct RuntimeExploration: Sendable {
    /// Runtime violations (`undo-mismatch`, `divergence`), one per site, each with its shortest path.
    package var violations: [Violation]
    /// Distinct undo stacks visited (section 4's `stacks`), the root included.
    package var stacks: Int
    /// The depth bound.
    package var depth: Int
    /// The limit that stopped the walk, if one did.
    package var stoppedBy: StopReason?
}

/// A violation with the breadth-first order of where it was found: path length, then the moves taken.
struct FoundViolation: Sendable {
    var order: [Int32]
    var violation: Violation

    /// Whether `self` comes before `other` in breadth-first order (ties: property, state, event).
    func precedes(_ other: FoundViolation) -> Bool {
        if order != other.order { return order.lexicographicallyPrecedes(other.order) }
        let a = violation, b = other.violation
        if a.property != b.property { return a.property < b.property }
        if a.state != b.state { return (a.state ?? "") < (b.state ?? "") }
        return (a.event ?? "") < (b.event ?? "")
    }
}
