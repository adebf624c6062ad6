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
///
/// ```swift
/// let explorer = RuntimeExplorer(model: model)
/// let walk = explorer.explore(SessionDriver(model: model), depth: 12)
/// walk.stacks == explorer.countStacks(depth: 12)   // true
/// ```
///
/// The hot loop works on flat integer tables of the model and on stacks allocated once per walk,
/// so it allocates nothing per node; the walk over a ``SessionDriver`` is specialised for it
/// (whatever type the caller passes it as), so every runtime query is inlined. To split the walk
/// between threads, see ``ParallelExplorer``.
public struct RuntimeExplorer: Sendable {
    let model: FlowModel
    /// The model's moves as flat arrays, for the hot loop.
    let table: MoveTable

    public init(model: FlowModel) {
        self.model = model
        // For each state and move, the masks that make the move push the same frame as an earlier sibling.
        let duplicateMasks = model.moves.map { moves in
            moves.indices.map { j in
                guard let target = moves[j].target else { return [UInt64]() }
                return (0..<j).compactMap { i in
                    moves[i].target == target ? moves[i].adds.bits ^ moves[j].adds.bits : nil
                }
            }
        }
        self.table = MoveTable(model: model, duplicateMasks: duplicateMasks)
    }

    /// The value the explorer gives `key` when event `event` pushes a frame at height `height`.
    ///
    /// Unique per (height, event, key), so a self-loop that overwrites a key with a new value
    /// and an undo that fails to restore the old one are both visible.
    @inlinable static func token(height: Int, event: EventID, key: KeyID) -> Int {
        height << 32 | Int(event.rawValue) << 8 | Int(key.rawValue)
    }

    /// Counts the stacks of at most `depth` forward events from the model alone (no runtime).
    ///
    /// Counted level by level over the configuration graph, as coverage counts them, with no
    /// limit on the configurations it stores (a count that overflows saturates at `Int.max`).
    /// - Complexity: O(C · m + depth · E) for C configurations and E deduplicated edges.
    public func countStacks(depth: Int) -> Int {
        ConfigurationGraph(model: model, limits: CheckLimits(depth: depth, maxConfigurations: .max))
            .countStacks(depth: max(0, depth)).total
    }

    /// Walks every stack of at most `depth` events through `driver`, which must be at its root.
    /// - Complexity: O(S · m) time for S stacks; O(depth) memory.
    public func explore<Driver: FlowDriver>(_ driver: Driver, depth: Int, timeout: Double? = nil) -> RuntimeExploration {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        let progress = CheckProgress.current
        // The real runtime gets a walk specialised for it, whatever type the caller knew it by.
        if let session = driver as? SessionDriver {
            var walk = Walk(explorer: self, driver: session, depth: depth, deadline: deadline, timeout: timeout)
            walk.progress = progress
            walk.runAll()
            return walk.result()
        }
        var walk = Walk(explorer: self, driver: driver, depth: depth, deadline: deadline, timeout: timeout)
        walk.progress = progress
        walk.runAll()
        return walk.result()
    }
}

/// The model's moves as flat integer arrays: what the walk's hot loop reads, with no reference counting per node.
struct MoveTable: Sendable {
    /// Moves of state `s` are `moveStart[s] ..< moveStart[s + 1]`, in declaration order.
    let moveStart: [Int]
    /// Per move: its event's raw id.
    let event: [Int32]
    /// Per move: its target's raw id, or -1 when the table has no transition (an illegal event).
    let target: [Int32]
    /// Per move: the keys it adds, as bits.
    let adds: [UInt64]
    /// The keys move `m` adds in declaration order are `addedKeys[keyStart[m] ..< keyStart[m + 1]]`.
    let keyStart: [Int]
    let addedKeys: [Int32]
    /// Move `m` pushes the same frame as an earlier sibling when some `duplicateMasks[dupStart[m] ..< dupStart[m + 1]]`
    /// has no bit outside the current keys.
    let dupStart: [Int]
    let duplicateMasks: [UInt64]
    /// Per state: whether the spec allows back from it (above the root).
    let backAllowed: [Bool]
    /// The most keys one move adds.
    let maximumAdds: Int

    init(model: FlowModel, duplicateMasks masks: [[[UInt64]]]) {
        var moveStart = [0]
        var event: [Int32] = [], target: [Int32] = [], adds: [UInt64] = []
        var keyStart = [0], addedKeys: [Int32] = []
        var dupStart = [0], duplicateMasks: [UInt64] = []
        for state in 0..<model.stateCount {
            for (j, move) in model.moves[state].enumerated() {
                event.append(move.event.rawValue)
                target.append(move.target?.rawValue ?? -1)
                adds.append(move.adds.bits)
                addedKeys += move.addedKeys.map(\.rawValue)
                keyStart.append(addedKeys.count)
                duplicateMasks += masks[state][j]
                dupStart.append(duplicateMasks.count)
            }
            moveStart.append(event.count)
        }
        self.moveStart = moveStart
        self.event = event
        self.target = target
        self.adds = adds
        self.keyStart = keyStart
        self.addedKeys = addedKeys
        self.dupStart = dupStart
        self.duplicateMasks = duplicateMasks
        self.backAllowed = (0..<model.stateCount).map { !model.isTerminal[$0] && model.canGoBack[$0] }
        self.maximumAdds = zip(keyStart, keyStart.dropFirst()).map { $1 - $0 }.max() ?? 0
    }

    /// The flat indices of the moves of `state`.
    @inline(__always) func moves(of state: Int) -> Range<Int> { moveStart[state]..<moveStart[state + 1] }

    /// Whether move `m`, from a frame holding `keys`, pushes the same frame as an earlier sibling.
    @inline(__always) func isDuplicate(_ m: Int, keys: UInt64) -> Bool {
        var i = dupStart[m]
        let end = dupStart[m + 1]
        while i < end {
            if duplicateMasks[i] & ~keys == 0 { return true }
            i += 1
        }
        return false
    }

    /// The index among its state's moves (declaration order) of flat move `m` from `state`.
    @inline(__always) func ordinal(_ m: Int, from state: Int) -> Int32 { Int32(m - moveStart[state]) }
}

/// One node of the walk's stack: the model's frame and where the walk is among its children.
struct WalkNode {
    var state: Int32
    var keys: UInt64
    var nextMove: Int     // the next flat move index to try
    var event: Int32      // the event that pushed this node (-1 at the root)
    var viaMove: Int32    // its index among the parent's moves (declaration order)
    var logStart: Int     // where this node's expected-value changes start in the log
}

/// A stack of trivial values in memory a ``WalkMemory`` owns: no uniqueness or bounds checks per node in the hot loop.
struct PointerStack<Element>: RandomAccessCollection {
    let base: UnsafeMutablePointer<Element>
    let capacity: Int
    private(set) var count = 0

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always) subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    @inline(__always) mutating func append(_ element: Element) {
        assert(count < capacity, "the walk's stack overflowed its capacity")
        base[count] = element
        count += 1
    }

    @inline(__always) @discardableResult mutating func removeLast() -> Element {
        count -= 1
        return base[count]
    }

    @inline(__always) mutating func removeAll() { count = 0 }
}

/// The memory of one walk, allocated once: its stack of nodes, its undo log of expected values, the expected values.
final class WalkMemory {
    let nodes: UnsafeMutablePointer<WalkNode>
    let nodeCapacity: Int
    let log: UnsafeMutablePointer<ExpectedChange>
    let logCapacity: Int
    let expected: UnsafeMutablePointer<Int>
    let keys: Int

    init(depth: Int, keys: Int, maximumAdds: Int) {
        nodeCapacity = depth + 2
        logCapacity = (depth + 2) * max(1, maximumAdds)
        self.keys = max(1, keys)
        nodes = .allocate(capacity: nodeCapacity)
        log = .allocate(capacity: logCapacity)
        expected = .allocate(capacity: self.keys)
        expected.initialize(repeating: -1, count: self.keys)
    }

    deinit {
        nodes.deallocate()
        log.deallocate()
        expected.deallocate()
    }
}

/// One entry of the walk's undo log: a key's expected value before a push changed it.
struct ExpectedChange {
    var key: Int32
    var previous: Int
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
        if a.state != b.state { return a.state < b.state }
        return (a.event ?? "") < (b.event ?? "")
    }
}

/// One walk's state: the model's stack, the expected values, and the sites found.
struct Walk<Driver: FlowDriver> {
    let explorer: RuntimeExplorer
    let model: FlowModel
    let table: MoveTable
    let driver: Driver
    let depth: Int
    let deadline: Date?
    let timeout: Double?
    let memory: WalkMemory
    var nodes: PointerStack<WalkNode>
    let expected: UnsafeMutablePointer<Int>  // expected token per key (-1: absent)
    var log: PointerStack<ExpectedChange>
    var stacks = 0
    var stoppedBy: StopReason?
    var sites: [Site: FoundViolation] = [:]
    /// Where to report progress, every 4096 stacks; `nil` for nowhere.
    var progress: CheckProgress?
    /// When set, called every 4096 stacks with the stacks counted since the last call instead of
    /// reporting progress and checking the deadline; returns whether to stop (walks that share an
    /// exploration share its limits this way).
    var monitor: ((Int) -> Bool)?
    var monitored = 0

    init(explorer: RuntimeExplorer, driver: Driver, depth: Int, deadline: Date?, timeout: Double?) {
        self.explorer = explorer
        self.model = explorer.model
        self.table = explorer.table
        self.driver = driver
        self.depth = max(0, depth)
        self.deadline = deadline
        self.timeout = timeout
        self.memory = WalkMemory(depth: self.depth, keys: explorer.model.keys.count, maximumAdds: explorer.table.maximumAdds)
        self.nodes = PointerStack(base: memory.nodes, capacity: memory.nodeCapacity)
        self.log = PointerStack(base: memory.log, capacity: memory.logCapacity)
        self.expected = memory.expected
    }

    /// The walk's findings, violations in breadth-first order.
    func result() -> RuntimeExploration {
        RuntimeExploration(violations: Self.ordered(Array(sites.values)), stacks: stacks, depth: depth, stoppedBy: stoppedBy)
    }

    /// `found`'s violations in breadth-first order.
    static func ordered(_ found: [FoundViolation]) -> [Violation] {
        found.sorted { $0.precedes($1) }.map(\.violation)
    }

    /// Walks every stack from the root.
    mutating func runAll() {
        driver.reset()
        nodes.removeAll()
        nodes.append(WalkNode(state: model.initial.rawValue, keys: 0, nextMove: table.moveStart[model.initial.index],
                              event: -1, viaMove: -1, logStart: 0))
        stacks += 1
        checkNode()
        walk(above: 0)
    }

    /// Walks the subtree of the stack reached by `path` (flat move indices from the root), which
    /// must be a distinct stack of at most `depth` events: replays all but the last move as
    /// ``resync()`` would, pushes the last one with every check, walks below it and undoes it.
    /// Counts the subtree's stacks only; the stacks above it belong to whoever walks them.
    mutating func runSubtree(path: [Int]) {
        precondition(!path.isEmpty && path.count <= depth, "a subtree is rooted below the root and within the depth")
        driver.reset()
        for index in 0..<memory.keys { expected[index] = -1 }
        log.removeAll()
        nodes.removeAll()
        nodes.append(WalkNode(state: model.initial.rawValue, keys: 0, nextMove: table.moveStart[model.initial.index],
                              event: -1, viaMove: -1, logStart: 0))
        for m in path.dropLast() {
            pushModel(m)
            let height = nodes.count
            let event = EventID(table.event[m])
            let accepted = driver.send(event) { .int(RuntimeExplorer.token(height: height, event: event, key: $0)) }
            // An ancestor the runtime cannot follow is pruned (and reported) by whoever walks it:
            // nothing below it is walked, exactly as in the single-threaded walk.
            if !accepted || !matches(state: nodes[nodes.count - 1].state, keys: nodes[nodes.count - 1].keys) { return }
        }
        push(path[path.count - 1])
        walk(above: path.count)
    }

    /// The depth-first loop: explores until the stack is back to `floor` nodes.
    mutating func walk(above floor: Int) {
        while nodes.count > floor {
            let top = nodes.count - 1
            let state = Int(nodes[top].state)
            var index = nodes[top].nextMove
            let end = table.moveStart[state + 1]
            // Find the next child to explore: legal, not a duplicate of an earlier sibling, within the bound.
            var chosen = -1
            if top < depth {
                let keys = nodes[top].keys
                while index < end {
                    let m = index
                    index += 1
                    if table.target[m] < 0 || table.isDuplicate(m, keys: keys) { continue }
                    chosen = m
                    break
                }
            }
            nodes[top].nextMove = index
            if chosen >= 0 {
                push(chosen)
                if stacks & 0xFFF == 0, periodic() { break }
            } else {
                pop()
            }
        }
    }

    /// Reports progress and checks the limits; returns whether to stop.
    mutating func periodic() -> Bool {
        if let monitor {
            let stop = monitor(stacks - monitored)
            monitored = stacks
            if stop { stoppedBy = .timeout(seconds: timeout ?? 0) }
            return stop
        }
        if let progress { progress.update(.stacks, count: stacks, depth: nodes.count - 1) }
        if let deadline, Date() > deadline {   // every 4096 stacks: a few microseconds apart, cheap to ask
            stoppedBy = .timeout(seconds: timeout ?? 0)
            return true
        }
        return false
    }

    /// Pushes the model's child frame for move `m` (expected values included), without the runtime.
    @inline(__always)
    mutating func pushModel(_ m: Int) {
        let parent = nodes[nodes.count - 1]
        let height = nodes.count + 1
        let event = table.event[m]
        let logStart = log.count
        for k in table.keyStart[m]..<table.keyStart[m + 1] {
            let key = table.addedKeys[k]
            log.append(ExpectedChange(key: key, previous: expected[Int(key)]))
            expected[Int(key)] = RuntimeExplorer.token(height: height, event: EventID(event), key: KeyID(key))
        }
        let target = table.target[m]
        nodes.append(WalkNode(state: target, keys: parent.keys | table.adds[m], nextMove: table.moveStart[Int(target)],
                              event: event, viaMove: table.ordinal(m, from: Int(parent.state)), logStart: logStart))
    }

    /// Sends move `m` through the runtime and pushes the model's child frame.
    mutating func push(_ m: Int) {
        let parentState = nodes[nodes.count - 1].state
        let height = nodes.count + 1
        let event = EventID(table.event[m])
        let accepted = driver.send(event) { .int(RuntimeExplorer.token(height: height, event: event, key: $0)) }
        pushModel(m)
        stacks += 1
        if !accepted {
            let target = Int(table.target[m])
            report(.divergence, state: parentState, event: event.rawValue, pathLength: nodes.count - 1) { model in
                "the runtime rejected \(model.events[event.index]) from \(model.states[Int(parentState)]), which the table sends to \(model.states[target])"
            }
            prune()
            return
        }
        checkNode()
    }

    /// Leaves a child the runtime could not follow: drops it from the model without undoing the
    /// runtime (which never got there) and puts the runtime back at the parent. Its subtree is not
    /// walked: every stack below it would report the same disagreement again.
    mutating func prune() {
        let child = nodes.removeLast()
        while log.count > child.logStart {
            let change = log.removeLast()
            expected[Int(change.key)] = change.previous
        }
        resync()
    }

    /// Undoes the top frame in the runtime and the model, and checks the runtime is exactly back.
    mutating func pop() {
        let child = nodes.removeLast()
        guard let parent = nodes.last else { return }
        let accepted = driver.undo()
        while log.count > child.logStart {
            let change = log.removeLast()
            expected[Int(change.key)] = change.previous
        }
        if !accepted {
            nodes.append(child)
            report(.undoMismatch, state: child.state, event: child.event, pathLength: nodes.count - 1) { model in
                "undo from \(model.states[Int(child.state)]) was refused by the runtime"
            }
            nodes.removeLast()
            resync()
            return
        }
        if !matches(state: parent.state, keys: parent.keys) {
            let found = mismatch(state: parent.state, keys: parent.keys)
            let problem = found?.summary ?? "the runtime changed while it was compared"
            nodes.append(child)
            report(.undoMismatch, state: child.state, event: child.event, pathLength: nodes.count - 1, mismatch: found) { model in
                "after undoing \(model.events[Int(child.event)]) from \(model.states[Int(child.state)]), \(problem)"
            }
            nodes.removeLast()
            resync()
        }
    }

    /// Whether the runtime is exactly at the model's frame: state, history height, data values.
    @inline(__always)
    func matches(state: Int32, keys: UInt64) -> Bool {
        if driver.state.rawValue != state || driver.height != nodes.count || driver.dataCount != keys.nonzeroBitCount {
            return false
        }
        var rest = keys
        while rest != 0 {
            let key = rest.trailingZeroBitCount
            rest &= rest &- 1
            guard case .int(let value)? = driver.value(of: KeyID(key)), value == expected[key] else { return false }
        }
        return true
    }

    /// Compares the runtime with the model's frame `(state, keys)` at the top of the walk's stack; every difference, or nil.
    func mismatch(state: Int32, keys: UInt64) -> FrameMismatch? {
        FrameComparator(model: model).compare(driver, state: state, height: nodes.count, keys: keys,
                                              expected: { .int(expected[$0.index]) }, display: Self.display)
    }

    /// A value as reports show it: the explorer's values read `#N`, "the value step N entered".
    static func display(_ value: FlowValue) -> String {
        if case let .int(token) = value, token >= 1 << 32 { return "#\((token >> 32) - 1)" }
        return "\(value)"
    }

    /// Checks the node just entered: frame, enabled events, rejected events, back policy.
    mutating func checkNode() {
        let node = nodes[nodes.count - 1]
        let state = Int(node.state)
        if !matches(state: node.state, keys: node.keys) {
            let found = mismatch(state: node.state, keys: node.keys)
            let problem = found?.summary ?? "the runtime changed while it was compared"
            report(.divergence, state: node.state, event: node.event, pathLength: nodes.count - 1, mismatch: found) { model in
                node.event < 0 ? "at the start, \(problem)" : "after \(model.events[Int(node.event)]), \(problem)"
            }
            if nodes.count > 1 { prune() } else { resync() }
            return
        }
        for m in table.moves(of: state) {
            let legal = table.target[m] >= 0
            let event = EventID(table.event[m])
            if driver.canHandle(event) != legal {
                report(.divergence, state: node.state, event: event.rawValue, pathLength: nodes.count - 1) { model in
                    "the runtime says \(model.events[event.index]) is \(legal ? "not " : "")enabled in \(model.states[state]); the table says it is \(legal ? "" : "not ")"
                }
                continue
            }
            if !legal {
                // An illegal event must be rejected and change nothing.
                let height = nodes.count + 1
                if driver.send(event, value: { .int(RuntimeExplorer.token(height: height, event: event, key: $0)) }) {
                    report(.divergence, state: node.state, event: event.rawValue, pathLength: nodes.count - 1) { model in
                        "the runtime accepted \(model.events[event.index]) in \(model.states[state]), which has no transition"
                    }
                    resync()
                    return
                }
                if !matches(state: node.state, keys: node.keys) {
                    let found = mismatch(state: node.state, keys: node.keys)
                    let problem = found?.summary ?? "the runtime changed while it was compared"
                    report(.undoMismatch, state: node.state, event: event.rawValue, pathLength: nodes.count - 1, mismatch: found) { model in
                        "rejecting \(model.events[event.index]) changed the runtime: \(problem)"
                    }
                    resync()
                    return
                }
            }
        }
        let backAllowed = nodes.count > 1 && table.backAllowed[state]
        if driver.canGoBack != backAllowed {
            report(.divergence, state: node.state, event: -1, pathLength: nodes.count - 1) { model in
                "the runtime says back is \(backAllowed ? "not " : "")possible in \(model.states[state]); the spec says it is \(backAllowed ? "" : "not")"
            }
        } else if !backAllowed && nodes.count > 1 {
            if driver.back() {
                report(.divergence, state: node.state, event: -1, pathLength: nodes.count - 1) { model in
                    "the runtime let the user go back from \(model.states[state]), which the spec forbids"
                }
                resync()
            } else if !matches(state: node.state, keys: node.keys) {
                let found = mismatch(state: node.state, keys: node.keys)
                let problem = found?.summary ?? "the runtime changed while it was compared"
                report(.undoMismatch, state: node.state, event: -1, pathLength: nodes.count - 1, mismatch: found) { _ in
                    "a refused back changed the runtime: \(problem)"
                }
                resync()
            }
        }
    }

    /// Puts the runtime back in step with the model after a disagreement: reset and replay the path.
    mutating func resync() {
        driver.reset()
        for (i, node) in nodes.enumerated().dropFirst() {
            let event = EventID(node.event)
            _ = driver.send(event) { .int(RuntimeExplorer.token(height: i + 1, event: event, key: $0)) }
        }
    }

    /// Records a violation at a site, keeping the shortest (then first) occurrence; `message` is
    /// only evaluated when this occurrence is kept.
    mutating func report(_ property: Property, state: Int32, event: Int32, pathLength: Int, mismatch: FrameMismatch? = nil,
                         _ message: (FlowModel) -> String) {
        let site = Site(property: property, state: model.states[Int(state)], event: event < 0 ? nil : model.events[Int(event)])
        var order = [Int32(pathLength)]
        order.reserveCapacity(nodes.count)
        for node in nodes.dropFirst() { order.append(node.viaMove) }
        if let existing = sites[site], !order.lexicographicallyPrecedes(existing.order) { return }
        let path = nodes.enumerated().map { i, node in
            PathStep(event: node.event < 0 ? nil : model.events[Int(node.event)],
                     state: model.states[Int(node.state)],
                     data: model.names(of: KeySet(bits: node.keys)),
                     values: values(after: i, keys: node.keys))
        }
        sites[site] = FoundViolation(order: order, violation: Violation(
            property: property, state: model.states[Int(state)], event: event < 0 ? nil : model.events[Int(event)],
            message: message(model), path: path, mismatch: mismatch))
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
                let move = model.moves[Int(nodes[j - 1].state)][Int(node.viaMove)]
                if move.adds.contains(key) {
                    token = RuntimeExplorer.token(height: j + 1, event: EventID(node.event), key: key)
                    break
                }
            }
            result[model.keys[key.index]] = token < 0 ? "?" : Self.display(.int(token))
        }
        return result
    }
}
