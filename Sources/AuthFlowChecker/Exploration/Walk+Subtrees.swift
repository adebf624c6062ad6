import AuthFlow

/// A subtree of the walk, for ``ParallelExplorer``: one stack replayed, everything below it walked.
extension Walk {
    /// Walks the subtree of the stack reached in `variant` by `path` (move ordinals from the variant's
    /// root), a distinct stack of at most `depth` events: starts the runtime in the variant, replays all
    /// but the last move as ``resync()`` would, pushes the last one with every check, walks below it and
    /// undoes it. Counts the subtree's stacks only; the stacks above it belong to whoever walks them.
    ///
    /// The walk keeps its table, sites and counts from one subtree to the next.
    mutating func runSubtree(variant: Int, path: [Int32]) {
        guard let last = path.last, path.count <= depth, model.roots.indices.contains(variant) else { return }
        guard begin(variant: variant) else { return }
        for via in path.dropLast() {
            let m = Int(entry(at: nodes.count - 1).moveStart + via)
            let accepted = send(move: m, height: nodes.count + 1)
            pushModel(m)
            // An ancestor the runtime cannot follow is pruned (and reported) by whoever walks it:
            // nothing below it is walked, exactly as in the single-threaded walk.
            let top = entry(at: nodes.count - 1)
            if !accepted || !matcher.matches(state: top.state, values: top.values, data: top.data, height: nodes.count) { return }
        }
        floor = path.count
        push(Int(entry(at: nodes.count - 1).moveStart + last))
        walk()
        floor = 0
    }
}
