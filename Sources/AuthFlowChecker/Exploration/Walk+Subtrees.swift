import AuthFlow

/// A subtree of the walk, for ``ParallelExplorer``: one stack replayed, everything below it walked.
extension Walk {
    /// Walks the subtree of the stack reached in `variant` by `path` (move ordinals from the variant's
    /// root), a distinct stack of at most `depth` events: starts the runtime in the variant, replays all
    /// but the last move as ``resync()`` would, pushes the last one with every check, walks below it and
    /// undoes it. Counts the subtree's stacks only; the stacks above it belong to whoever walks them.
    ///
    /// A move of `path` may be a reset whose landing the walk walks on from (``ResetStacks``): the landing is then a
    /// node of its own and the base of the runtime's history, as in ``walkOn(from:)``, and a path
    /// that ends with such a reset walks on from its landing.
    ///
    /// The walk keeps its table, sites and counts from one subtree to the next.
    mutating func runSubtree(variant: Int, path: [Int32]) {
        guard let last = path.last, path.count <= depth, model.roots.indices.contains(variant) else { return }
        guard begin(variant: variant) else { return }
        defer { (floor, base) = (0, 0) }
        for via in path.dropLast() {
            let m = Int(entry(at: nodes.count - 1).moveStart + via)
            let accepted = send(move: m, height: nodes.count + 1)
            if table.moves[m].target == FrameTable.reset {
                guard accepted else { return }
                pushLanding(m)
                base = nodes.count - 1
            } else {
                pushModel(m)
            }
            // An ancestor the runtime cannot follow is pruned (and reported) by whoever walks it:
            // nothing below it is walked, exactly as in the single-threaded walk.
            let top = entry(at: nodes.count - 1)
            if !accepted || !matcher.matches(state: top.state, values: top.values, data: top.data, height: nodes.count - base) { return }
        }
        floor = path.count
        let m = Int(entry(at: nodes.count - 1).moveStart + last)
        guard table.moves[m].target == FrameTable.reset else {
            push(m)
            walk()
            return
        }
        // Refused: reported where the reset was driven.
        guard send(move: m, height: nodes.count + 1) else { return }
        walkOn(from: m)
    }
}
