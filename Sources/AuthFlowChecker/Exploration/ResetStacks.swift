import AuthFlow
import Dispatch
import Foundation

/// The one stack at which a ``Walk`` drives the resets of each configuration: the shortest that
/// reaches it, the first of those in move order (the breadth-first order reports use).
///
/// A reset cannot be undone, so the walk drives a configuration's reset moves once and replays its path
/// afterwards. Which stack that is must not depend on the order the stacks are walked in, or a walk
/// split between threads (``ParallelExplorer``) would drive them elsewhere and could report a reset
/// found broken at another path: the stack is fixed here, from the model alone, by one breadth-first
/// search per variant over the same moves the walk takes (siblings that push the same frame are one).
///
/// A reset whose row keeps keys (or whose flow has server-side keys) can land on a configuration that
/// is not the variant's root: a one-frame history of its own, with stacks above it that no push
/// reaches. The walk walks on from each such landing once, after the first reset (breadth-first, in
/// move order) that lands on it, and the search here follows the same reset moves, so a
/// configuration reached only above a landing has its stack fixed too (its path then holds the
/// reset's ordinal, as the walk's node for the landing does).
///
/// Only configurations with a reset move are kept, with the path to them as move ordinals; a flow
/// without reset rows keeps nothing and costs nothing.
///
/// - Complexity: O(C · m) time for the C configurations within the depth; O(R · depth) memory for R with resets.
final class ResetStacks: Sendable {
    /// Per configuration with a reset move: its variant and its stack's move ordinals from the variant's root.
    let paths: [Configuration: (variant: Int, path: [Int32])]
    /// Per landing that is not its variant's root: the configuration whose reset the walk walks on from, and the reset's ordinal.
    let landings: [Configuration: (variant: Int, source: Configuration, move: Int32)]

    /// The reset stacks of `model`'s walks to `depth`, searched on `workers` threads (one per range of variants) when there
    /// are several. The variants' searches meet only where a reset lands on a configuration two of them reach (a
    /// variant's config is part of every frame it has, so this does not happen in a flow of this format); if they do,
    /// the search is made again in one piece, in variant order.
    init(model: FlowModel, depth: Int, workers: Int = 1) {
        guard model.emissions.contains(where: { $0.contains { $0.rows.contains(where: \.reset) } }) else {
            self.paths = [:]
            self.landings = [:]
            return
        }
        let variants = model.roots.count, parts = max(1, min(workers, variants))
        if parts > 1 {
            final class Found: @unchecked Sendable {
                var parts: [Search?]
                init(_ count: Int) { parts = Array(repeating: nil, count: count) }
            }
            let found = Found(parts), lock = NSLock()
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let search = Self.search(model: model, depth: depth, variants: (part * variants / parts)..<((part + 1) * variants / parts))
                lock.withLock { found.parts[part] = search }
            }
            var paths: [Configuration: (variant: Int, path: [Int32])] = [:]
            var landings: [Configuration: (variant: Int, source: Configuration, move: Int32)] = [:]
            var apart = true
            for search in found.parts.compactMap({ $0 }) {
                paths.merge(search.paths) { earlier, _ in earlier }
                for (landing, found) in search.landings {
                    if landings[landing] != nil { apart = false }
                    landings[landing] = landings[landing] ?? found
                }
            }
            if apart {
                self.paths = paths
                self.landings = landings
                return
            }
        }
        let search = Self.search(model: model, depth: depth, variants: 0..<variants)
        self.paths = search.paths
        self.landings = search.landings
    }

    /// What one search over some variants finds.
    struct Search {
        var paths: [Configuration: (variant: Int, path: [Int32])] = [:]
        var landings: [Configuration: (variant: Int, source: Configuration, move: Int32)] = [:]
    }

    /// The breadth-first search of each of `variants`, in order.
    static func search(model: FlowModel, depth: Int, variants: Range<Int>) -> Search {
        var paths: [Configuration: (variant: Int, path: [Int32])] = [:]
        var landings: [Configuration: (variant: Int, source: Configuration, move: Int32)] = [:]
        // Each configuration's moves are the semantics' successors, in the walk's order: a move's ordinal is its index
        // there, as in the walk's table (``FrameTable/expand(_:)`` keeps one move per successor). The walk takes the first
        // of the siblings that push the same frame and none that leaves the configuration as it was; here the first to
        // reach a configuration in the variant is kept, which is the same move (a sibling that pushes a frame again, or
        // stays, reaches a configuration reached already). What the search keeps is a dense id per configuration met, and
        // per id the variant that last reached it and how (its parent and the move's ordinal). A table of every
        // configuration within the depth was the peak of checking an authenticator of 121,824 configurations (31 MB).
        var successors: [FlowModel.Successor] = []
        var index = ConfigurationIndex()
        var reachedIn: [Int32] = [], parent: [Int32] = [], ordinal: [Int32] = []
        /// The id of `configuration`, reached in `variant` from `from` by move `move`; nil when `variant` reached it already.
        func reach(_ configuration: Configuration, in variant: Int, from: Int32, move: Int32) -> Int32? {
            let id = index[configuration] ?? index.append(configuration)
            if Int(id) == reachedIn.count {
                reachedIn.append(-1)
                parent.append(-1)
                ordinal.append(-1)
            }
            guard reachedIn[Int(id)] != Int32(variant) else { return nil }
            (reachedIn[Int(id)], parent[Int(id)], ordinal[Int(id)]) = (Int32(variant), from, move)
            return id
        }
        /// The move ordinals from the variant's root to `id`, up its parents.
        func path(to id: Int32) -> [Int32] {
            var path: [Int32] = []
            var cursor = id
            while parent[Int(cursor)] >= 0 {
                path.append(ordinal[Int(cursor)])
                cursor = parent[Int(cursor)]
            }
            return path.reversed()
        }
        for variant in variants {
            let root = model.roots[variant]
            let rootConfiguration = Configuration(state: model.initial.rawValue, keys: root.keys, values: root.values)
            guard let first = reach(rootConfiguration, in: variant, from: -1, move: -1) else { continue }
            var level: [Int32] = [first]
            var length = 0
            while !level.isEmpty {
                var next: [Int32] = []
                for id in level {
                    let configuration = index.configurations[Int(id)]
                    model.successors(state: Int(configuration.state), keys: configuration.keys, values: configuration.values, into: &successors)
                    if paths[configuration] == nil, successors.contains(where: { if case .reset = $0.outcome { true } else { false } }) {
                        paths[configuration] = (variant, path(to: id))
                    }
                    guard length < depth else { continue }
                    for (position, successor) in successors.enumerated() {
                        let move = Int32(position)
                        switch successor.outcome {
                        case let .push(target, keys, values), let .replace(target, keys, values):
                            if let child = reach(Configuration(state: target.rawValue, keys: keys, values: values), in: variant, from: id, move: move) {
                                next.append(child)
                            }
                        case let .reset(keys, values):
                            let landing = Configuration(state: model.initial.rawValue, keys: keys, values: values)
                            guard landing != rootConfiguration, landings[landing] == nil else { continue }
                            landings[landing] = (variant, configuration, move)
                            if let child = reach(landing, in: variant, from: id, move: move) { next.append(child) }
                        case .illegal:
                            continue
                        }
                    }
                }
                level = next
                length += 1
            }
        }
        return Search(paths: paths, landings: landings)
    }

    /// Whether the walk walks on from the landing of reset move `ordinal` of `source`: the first reset, breadth-first, that lands there.
    func walksOn(from source: Configuration, ordinal: Int32, landing: Configuration, variant: Int) -> Bool {
        guard let found = landings[landing] else { return false }
        return found.variant == variant && found.source == source && found.move == ordinal
    }

    /// Whether the stack of move ordinals `path` from `variant`'s root is the one at which the resets of its top
    /// configuration `configuration` are driven. The walk asks it of its nodes' ordinals (`nodes.dropFirst().lazy.map(\.via)`,
    /// nothing allocated), the parallel tasks of their paths.
    func drivesResets(_ configuration: Configuration, variant: Int, path: some Collection<Int32>) -> Bool {
        guard let found = paths[configuration], found.variant == variant, found.path.count == path.count else { return false }
        return found.path.elementsEqual(path)
    }
}
