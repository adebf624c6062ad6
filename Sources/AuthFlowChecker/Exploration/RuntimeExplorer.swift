import AuthFlow
import Foundation

/// The result of driving the runtime through every undo stack up to a depth.
public struct RuntimeExploration: Sendable {
    /// Runtime violations (`undo-mismatch`, `divergence`), one per site, each with its shortest path.
    public var violations: [Violation]
    /// Distinct undo stacks visited (section 4's `stacks`), the root included.
    public var stacks: Int
    /// The depth bound.
    public var depth: Int
    /// The limit that stopped the walk, if one did.
    public var stoppedBy: StopReason?
}

/// Drives the real runtime in lockstep with the spec's semantics through every undo stack up to a depth.
///
/// A depth-first walk over the distinct stacks of at most `depth` forward events: at every node
/// every legal event is sent, checked, explored and undone; illegal events are sent and must be
/// rejected without change; back is tried where the spec forbids it and must be refused. The
/// runtime's state, history height, data values and enabled events are compared with the model
/// after every move. Only siblings can push the same frame, so children are deduplicated and no
/// visited set is kept: memory is proportional to the depth.
///
/// Runtime paths are found depth-first, but every stack within the bound is visited, so keeping
/// the shortest occurrence of each site (the lexicographically first among equals, which is the
/// breadth-first order) gives the same counterexample a breadth-first search would.
public struct RuntimeExplorer {
    let model: FlowModel
    /// For each state and move, the masks that make the move push the same frame as an earlier sibling.
    let duplicateMasks: [[[UInt64]]]

    public init(model: FlowModel) {
        self.model = model
        self.duplicateMasks = model.moves.map { moves in
            moves.indices.map { j in
                guard let target = moves[j].target else { return [] }
                return (0..<j).compactMap { i in
                    moves[i].target == target ? moves[i].adds.bits ^ moves[j].adds.bits : nil
                }
            }
        }
    }

    /// The value the explorer gives `key` when event `event` pushes a frame at height `height`.
    ///
    /// Unique per (height, event, key), so a self-loop that overwrites a key with a new value
    /// and an undo that fails to restore the old one are both visible.
    @inlinable static func token(height: Int, event: EventID, key: KeyID) -> Int {
        height << 32 | Int(event.rawValue) << 8 | Int(key.rawValue)
    }

    /// Counts the stacks of at most `depth` forward events from the model alone (no runtime), memoised.
    /// - Complexity: O(F · depth · m) for F distinct frames.
    public func countStacks(depth: Int) -> Int {
        var memo: [Configuration: [Int]] = [:]
        func count(_ frame: Configuration, _ remaining: Int) -> Int {
            if remaining == 0 { return 1 }
            if let cached = memo[frame], cached[remaining] >= 0 { return cached[remaining] }
            var total = 1
            let moves = model.moves[Int(frame.state)]
            let masks = duplicateMasks[Int(frame.state)]
            for j in moves.indices {
                guard let target = moves[j].target else { continue }
                if masks[j].contains(where: { $0 & ~frame.keys == 0 }) { continue }
                total &+= count(Configuration(state: target.rawValue, keys: frame.keys | moves[j].adds.bits), remaining - 1)
            }
            var entry = memo[frame] ?? [Int](repeating: -1, count: depth + 1)
            entry[remaining] = total
            memo[frame] = entry
            return total
        }
        return count(Configuration(state: model.initial.rawValue, keys: 0), depth)
    }

    /// Walks every stack of at most `depth` events through `driver`, which must be at its root.
    /// - Complexity: O(S · m) time for S stacks; O(depth) memory.
    public func explore<Driver: FlowDriver>(_ driver: Driver, depth: Int, timeout: Double? = nil) -> RuntimeExploration {
        var walk = Walk(explorer: self, driver: driver, depth: depth, timeout: timeout)
        walk.run()
        return RuntimeExploration(
            violations: walk.sites.values.sorted { $0.order.lexicographicallyPrecedes($1.order) }.map(\.violation),
            stacks: walk.stacks, depth: depth, stoppedBy: walk.stoppedBy)
    }
}

/// One walk's state: the model's stack, the expected values, and the sites found.
struct Walk<Driver: FlowDriver> {
    struct Node {
        var state: Int32
        var keys: UInt64
        var nextMove: Int
        var event: Int32      // the event that pushed this node (-1 at the root)
        var viaMove: Int32    // its index among the parent's moves (declaration order)
        var logStart: Int     // where this node's expected-value changes start in the log
    }

    struct Site: Hashable {
        var property: Property
        var state: Int32
        var event: Int32
    }

    let explorer: RuntimeExplorer
    let model: FlowModel
    let driver: Driver
    let depth: Int
    let timeout: Double?
    let start = Date()
    var nodes: [Node] = []
    var expected: [Int]                      // expected token per key (-1: absent)
    var log: [(key: Int, previous: Int)] = []
    var stacks = 0
    var stoppedBy: StopReason?
    var sites: [Site: (order: [Int32], violation: Violation)] = [:]
    var resyncs = 0

    init(explorer: RuntimeExplorer, driver: Driver, depth: Int, timeout: Double?) {
        self.explorer = explorer
        self.model = explorer.model
        self.driver = driver
        self.depth = max(0, depth)
        self.timeout = timeout
        self.expected = [Int](repeating: -1, count: max(1, model.keys.count))
    }

    mutating func run() {
        driver.reset()
        let root = Node(state: model.initial.rawValue, keys: 0, nextMove: 0, event: -1, viaMove: -1, logStart: 0)
        nodes.append(root)
        stacks = 1
        checkNode()
        while let top = nodes.last {
            let state = Int(top.state)
            let moves = model.moves[state]
            var index = top.nextMove
            // Find the next child to explore: legal, not a duplicate of an earlier sibling, within the bound.
            var chosen = -1
            if nodes.count - 1 < depth {
                let masks = explorer.duplicateMasks[state]
                while index < moves.count {
                    let move = moves[index]
                    index += 1
                    guard move.target != nil else { continue }
                    if masks[index - 1].contains(where: { $0 & ~top.keys == 0 }) { continue }
                    chosen = index - 1
                    break
                }
            }
            nodes[nodes.count - 1].nextMove = index
            if chosen >= 0 {
                push(moves[chosen], index: chosen)
                if stacks & 0xFFFF == 0, let timeout, Date().timeIntervalSince(start) > timeout {
                    stoppedBy = .timeout(seconds: timeout)
                    break
                }
            } else {
                pop()
            }
        }
    }

    /// Sends `move` through the runtime and pushes the model's child frame.
    mutating func push(_ move: FlowModel.Move, index: Int) {
        let parent = nodes[nodes.count - 1]
        let height = nodes.count + 1
        let event = move.event
        let logStart = log.count
        let accepted = driver.send(event) { key in .int(RuntimeExplorer.token(height: height, event: event, key: key)) }
        for key in move.addedKeys {
            log.append((key.index, expected[key.index]))
            expected[key.index] = RuntimeExplorer.token(height: height, event: event, key: key)
        }
        nodes.append(Node(state: move.target!.rawValue, keys: parent.keys | move.adds.bits, nextMove: 0,
                          event: event.rawValue, viaMove: Int32(index), logStart: logStart))
        stacks += 1
        if !accepted {
            report(.divergence, state: parent.state, event: event.rawValue,
                   "the runtime rejected \(model.events[event.index]) from \(model.states[Int(parent.state)]), which the table sends to \(model.states[move.target!.index])",
                   pathLength: nodes.count - 1)
            resync()
            return
        }
        checkNode()
    }

    /// Undoes the top frame in the runtime and the model, and checks the runtime is exactly back.
    mutating func pop() {
        let child = nodes.removeLast()
        guard let parent = nodes.last else { return }
        let accepted = driver.undo()
        while log.count > child.logStart {
            let (key, previous) = log.removeLast()
            expected[key] = previous
        }
        if !accepted {
            nodes.append(child)
            report(.undoMismatch, state: child.state, event: child.event,
                   "undo from \(model.states[Int(child.state)]) was refused by the runtime", pathLength: nodes.count - 1)
            nodes.removeLast()
            resync()
            return
        }
        if let problem = mismatch(state: parent.state, keys: parent.keys) {
            nodes.append(child)
            report(.undoMismatch, state: child.state, event: child.event,
                   "after undoing \(model.events[Int(child.event)]) from \(model.states[Int(child.state)]), \(problem)",
                   pathLength: nodes.count - 1)
            nodes.removeLast()
            resync()
        }
    }

    /// Compares the runtime with the model's top frame; returns what differs, or nil.
    func mismatch(state: Int32, keys: UInt64) -> String? {
        let runtimeState = driver.state
        if runtimeState.rawValue != state {
            let name = runtimeState.index >= 0 && runtimeState.index < model.states.count ? model.states[runtimeState.index] : "\(runtimeState)"
            return "the runtime is at \(name), expected \(model.states[Int(state)])"
        }
        if driver.height != nodes.count {
            return "the runtime's history holds \(driver.height) frames, expected \(nodes.count)"
        }
        let count = keys.nonzeroBitCount
        if driver.dataCount != count {
            return "the runtime holds \(driver.dataCount) data keys, expected \(count) {\(model.names(of: KeySet(bits: keys)).joined(separator: ", "))}"
        }
        for key in KeySet(bits: keys) {
            let want = FlowValue.int(expected[key.index])
            if driver.value(of: key) != want {
                return "\(model.keys[key.index]) is \(driver.value(of: key).map { "\($0)" } ?? "absent"), expected \(want)"
            }
        }
        return nil
    }

    /// Checks the node just entered: frame, enabled events, rejected events, back policy.
    mutating func checkNode() {
        let node = nodes[nodes.count - 1]
        let state = Int(node.state)
        if let problem = mismatch(state: node.state, keys: node.keys) {
            report(.divergence, state: node.state, event: node.event,
                   node.event < 0 ? "at the start, \(problem)" : "after \(model.events[Int(node.event)]), \(problem)",
                   pathLength: nodes.count - 1)
            resync()
            return
        }
        for move in model.moves[state] {
            let legal = move.target != nil
            if driver.canHandle(move.event) != legal {
                report(.divergence, state: node.state, event: move.event.rawValue,
                       "the runtime says \(model.events[move.event.index]) is \(legal ? "not " : "")enabled in \(model.states[state]); the table says it is \(legal ? "" : "not ")",
                       pathLength: nodes.count - 1)
                continue
            }
            if !legal {
                // An illegal event must be rejected and change nothing.
                let height = nodes.count + 1
                let event = move.event
                if driver.send(event, value: { .int(RuntimeExplorer.token(height: height, event: event, key: $0)) }) {
                    report(.divergence, state: node.state, event: event.rawValue,
                           "the runtime accepted \(model.events[event.index]) in \(model.states[state]), which has no transition",
                           pathLength: nodes.count - 1)
                    resync()
                    return
                }
                if let problem = mismatch(state: node.state, keys: node.keys) {
                    report(.undoMismatch, state: node.state, event: event.rawValue,
                           "rejecting \(model.events[event.index]) changed the runtime: \(problem)", pathLength: nodes.count - 1)
                    resync()
                    return
                }
            }
        }
        let backAllowed = nodes.count > 1 && !model.isTerminal[state] && model.canGoBack[state]
        if driver.canGoBack != backAllowed {
            report(.divergence, state: node.state, event: -1,
                   "the runtime says back is \(backAllowed ? "not " : "")possible in \(model.states[state]); the spec says it is \(backAllowed ? "" : "not")",
                   pathLength: nodes.count - 1)
        } else if !backAllowed && nodes.count > 1 {
            if driver.back() {
                report(.divergence, state: node.state, event: -1,
                       "the runtime let the user go back from \(model.states[state]), which the spec forbids", pathLength: nodes.count - 1)
                resync()
            } else if let problem = mismatch(state: node.state, keys: node.keys) {
                report(.undoMismatch, state: node.state, event: -1, "a refused back changed the runtime: \(problem)", pathLength: nodes.count - 1)
                resync()
            }
        }
    }

    /// Puts the runtime back in step with the model after a disagreement: reset and replay the path.
    mutating func resync() {
        resyncs += 1
        driver.reset()
        for (i, node) in nodes.enumerated().dropFirst() {
            let event = EventID(node.event)
            _ = driver.send(event) { .int(RuntimeExplorer.token(height: i + 1, event: event, key: $0)) }
        }
    }

    /// Records a violation at a site, keeping the shortest (then first) occurrence.
    mutating func report(_ property: Property, state: Int32, event: Int32, _ message: String, pathLength: Int) {
        let site = Site(property: property, state: state, event: event)
        let order = [Int32(pathLength)] + nodes.dropFirst().map(\.viaMove)
        if let existing = sites[site], !Self.precedes(order, existing.order) { return }
        let path = nodes.enumerated().map { i, node in
            PathStep(event: node.event < 0 ? nil : model.events[Int(node.event)],
                     state: model.states[Int(node.state)],
                     data: model.names(of: KeySet(bits: node.keys)),
                     values: values(after: i, keys: node.keys))
        }
        sites[site] = (order, Violation(property: property, state: model.states[Int(state)],
                                        event: event < 0 ? nil : model.events[Int(event)],
                                        message: message, path: path))
    }

    /// The values the model expects after step `i` of the current path, secrets redacted.
    func values(after i: Int, keys: UInt64) -> [String: String] {
        var result: [String: String] = [:]
        for key in KeySet(bits: keys) {
            if model.secrets.contains(key) {
                result[model.keys[key.index]] = "<redacted>"
                continue
            }
            // The token of the last frame at or below i that set the key.
            var token = -1
            for j in stride(from: i, through: 1, by: -1) {
                let node = nodes[j]
                let move = model.moves[Int(nodes[j - 1].state)].first { $0.event.rawValue == node.event }
                if let move, move.adds.contains(key) {
                    token = RuntimeExplorer.token(height: j + 1, event: EventID(node.event), key: key)
                    break
                }
            }
            result[model.keys[key.index]] = token < 0 ? "?" : String(token)
        }
        return result
    }

    /// Orders by path length, then by the event sequence (declaration order), as breadth-first search would.
    static func precedes(_ a: [Int32], _ b: [Int32]) -> Bool {
        a.lexicographicallyPrecedes(b)
    }
}
