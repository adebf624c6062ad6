import AuthFlow
import Foundation

/// One walk's state: the model's stack, the expected values, and the sites found.
struct Walk<Driver: FlowDriver> {
    let explorer: RuntimeExplorer
    let model: FlowModel
    let table: MoveTable
    let driver: Driver
    let depth: Int
    let deadline: Date?
    let timeout: Double?
    let memory: WalkMemory<WalkNode>
    /// Whether the runtime's history height, enabled events and back answer are compared (``DriverTraits``).
    let readsInternals: Bool
    /// What findings call the implementation.
    let subject: String
    var nodes: PointerStack<WalkNode>
    let expected: UnsafeMutablePointer<Int>  // expected token per key (-1: absent)
    var log: PointerStack<ExpectedChange>
    var stacks = 0
    var stoppedBy: StopReason?
    var sites: [Site: FoundViolation] = [:]
    /// For an app: the stack height each configuration was probed at (see ``checkNode()``).
    var probedAt = ProbeDepths()
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
        self.readsInternals = explorer.traits.readsInternals
        self.subject = explorer.traits.subject
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
            let subject = self.subject
            report(.divergence, state: parentState, event: event.rawValue) { model in
                "\(subject) rejected \(model.events[event.index]) from \(model.states[Int(parentState)]), which the table sends to \(model.states[target])"
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
            let subject = self.subject, readsInternals = self.readsInternals
            let userBack = table.backAllowed[Int(child.state)]
            report(.undoMismatch, state: child.state, event: child.event, trigger: .undo) { model in
                // An app is undone by its own back where the spec allows back, else by its undo capability.
                readsInternals ? "undo from \(model.states[Int(child.state)]) was refused by the runtime"
                    : userBack ? "back from \(model.states[Int(child.state)]) was refused by \(subject), which the spec allows"
                    : "undo from \(model.states[Int(child.state)]) was refused by \(subject)'s undo"
            }
            nodes.removeLast()
            resync()
            return
        }
        if !matches(state: parent.state, keys: parent.keys) {
            let found = mismatch(state: parent.state, keys: parent.keys)
            let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
            // An app was backtracked by its own back where the spec allows it: say so.
            let userBack = !readsInternals && table.backAllowed[Int(child.state)]
            nodes.append(child)
            report(.undoMismatch, state: child.state, event: child.event, trigger: .undo, mismatch: found) { model in
                userBack ? "after back from \(model.states[Int(child.state)]) (entered by \(model.events[Int(child.event)])), \(problem)"
                    : "after undoing \(model.events[Int(child.event)]) from \(model.states[Int(child.state)]), \(problem)"
            }
            nodes.removeLast()
            resync()
        }
    }
}
