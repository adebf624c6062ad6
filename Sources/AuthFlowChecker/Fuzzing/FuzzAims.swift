import AuthFlow
import PropertyTesting

/// The configurations the random runs have not entered yet, for a flow where back reaches what no forward move does.
///
/// With server-side keys (section 5) some configurations are reached only by going back after the server data changed
/// (a code screen opened before the account locked, revisited once it is): a path of several backs at the right places,
/// which random choices almost never make. Every fourth run then aims at a configuration no run has entered, drawn at
/// random, and takes the configuration graph's shortest path there (backs included) before it goes on at random: the
/// runtime is driven through every configuration the spec reaches, at most one aimed run each. Flows without server-side
/// keys are walked at random only, as before.
struct FuzzAims {
    let graph: ConfigurationGraph
    /// The configurations not entered yet (by index in the graph), in no order; `position` finds one in it.
    private var unentered: [Int32] = []
    private var position: [Int32] = []
    let active: Bool

    init(graph: ConfigurationGraph) {
        self.graph = graph
        active = graph.backReach != nil && graph.stoppedBy == nil
        guard active else { return }
        unentered = (0..<Int32(graph.count)).map { $0 }
        position = unentered
    }

    /// Marks the configuration of `frame` entered.
    mutating func entered(_ frame: Lockstep.Frame) {
        guard active, !unentered.isEmpty,
              let i = graph.index[Configuration(state: frame.state, keys: frame.keys, values: frame.packed)] else { return }
        let at = Int(position[Int(i)])
        guard at >= 0 else { return }
        let last = unentered.removeLast()
        if at < unentered.count {
            unentered[at] = last
            position[Int(last)] = Int32(at)
        }
        position[Int(i)] = -1
    }

    /// For every fourth run while some configuration is not entered: one of them, drawn from `rng`, its variant and the
    /// actions of the shortest path there.
    mutating func aim(run: Int, using rng: inout SeededGenerator) -> (variant: Int, actions: [FuzzAction])? {
        guard active, run % 4 == 3, !unentered.isEmpty else { return nil }
        let target = unentered[Int(rng.draw(below: UInt64(unentered.count)))]
        var root = target
        while graph.parent[Int(root)] >= 0 { root = graph.parent[Int(root)] }
        return (Int(root), ShrinkGuide(graph: graph).actions(to: target))
    }
}
