import AuthFlow

/// The one stack at which a ``Walk`` drives the resets of each configuration: the shortest that
/// reaches it, the first of those in move order (the breadth-first order reports use).
///
/// A reset cannot be undone, so the walk drives a configuration's reset moves once and replays its path
/// afterwards. Which stack that is must not depend on the order the stacks are walked in, or a walk
/// split between threads (``ParallelExplorer``) would drive them elsewhere and could report a reset
/// found broken at another path: the stack is fixed here, from the model alone, by one breadth-first
/// search per variant over the same moves the walk takes (siblings that push the same frame are one).
///
/// Only configurations with a reset move are kept, with the path to them as move ordinals; a flow
/// without reset rows keeps nothing and costs nothing.
///
/// - Complexity: O(C · m) time for the C configurations within the depth; O(R · depth) memory for R with resets.
final class ResetStacks: Sendable {
    /// Per configuration with a reset move: its variant and its stack's move ordinals from the variant's root.
    let paths: [Configuration: (variant: Int, path: [Int32])]

    init(model: FlowModel, depth: Int) {
        var paths: [Configuration: (variant: Int, path: [Int32])] = [:]
        guard model.emissions.contains(where: { $0.contains { $0.rows.contains(where: \.reset) } }) else {
            self.paths = paths
            return
        }
        var table = FrameTable(model: model, depth: depth, capacity: Int(Int32.max))
        for (variant, root) in model.roots.enumerated() {
            let first = table.intern(Configuration(state: model.initial.rawValue, keys: root.keys, values: root.values))
            var seen: Set<Int32> = [first]
            var level: [(config: Int32, path: [Int32])] = [(first, [])]
            var length = 0
            while !level.isEmpty {
                var next: [(config: Int32, path: [Int32])] = []
                for (config, path) in level {
                    table.expand(config, of: model)
                    let entry = table.entries[Int(config)]
                    if entry.facts.contains(.resets), paths[entry.configuration] == nil { paths[entry.configuration] = (variant, path) }
                    guard length < depth else { continue }
                    for m in Int(entry.moveStart)..<Int(entry.moveEnd) where table.moves[m].walked {
                        let target = table.moves[m].target
                        if seen.insert(target).inserted { next.append((target, path + [Int32(m) - entry.moveStart])) }
                    }
                }
                level = next
                length += 1
            }
        }
        self.paths = paths
    }

    /// Whether the stack `nodes` (in `variant`) is the one at which the resets of its top configuration `configuration` are driven.
    func drivesResets(_ configuration: Configuration, variant: Int, nodes: PointerStack<WalkNode>) -> Bool {
        guard let found = paths[configuration], found.variant == variant, found.path.count == nodes.count - 1 else { return false }
        for i in found.path.indices where nodes[i + 1].via != found.path[i] { return false }
        return true
    }
}
