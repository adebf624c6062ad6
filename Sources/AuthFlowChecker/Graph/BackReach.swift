import AuthFlow
import Foundation

/// Every configuration of a flow with server-side keys (section 5), those only the user's back reaches
/// included, each with its shortest path counting backs as steps.
///
/// Without server-side keys back only returns to a configuration already reached, and the plain
/// breadth-first search of ``ConfigurationGraph`` is complete. With them, back from a frame pushed
/// on `f` lands on `f` with the server valuation of the moment, which may be new. The history is a
/// stack, so this is a pushdown system with a finite global part; it is decided by summaries:
///
/// - a **global item** `G(c)`: configuration `c` is the top of some reachable history;
/// - a **level item** `L(w, z)`: starting from a frame `w` just pushed, the top `z` is reached while
///   the history never drops below `w`'s height (frames above come and go by backs);
/// - a level item `L(w, v)` whose top `v` allows back **returns** to whatever pushed `w`, carrying
///   `v`'s server valuation: from `c` that pushed `w`, back lands on `c` with it.
///
/// Items are settled in order of their length (a generalisation of Dijkstra's method to rules with
/// two premises, Knuth 1977): a length is fixed when the item is taken off the queue, so each
/// configuration's length is its shortest path's, pushes, replaces, resets and backs each one step.
///
/// - Complexity: O((C + L) · m) time for C configurations, L level items and m moves per
///   configuration, and O(C + L) memory; a flow's levels are small (a frame, its in-place updates,
///   and the server valuations reachable above it).
struct BackReach {
    /// How an item was first reached at its settled length.
    enum Derivation {
        /// A variant's root (global) or a pushed frame at the bottom of its level (level).
        case start
        /// One forward move from `item` by `event` (a push, a replace or a reset).
        case step(item: Int32, event: Int32)
        /// From `item`, a push by `event` to configuration `pushed`, the level path `returning` above it, then back.
        case back(item: Int32, event: Int32, pushed: Int32, returning: Int32)
    }

    /// One forward move of a configuration.
    struct Move {
        var event: Int32
        var row: Int32
        var target: Int32
        /// 0 a push, 1 a replace, 2 a reset.
        var kind: UInt8
    }

    let model: FlowModel
    /// Configurations in the order found, and each one's index.
    var configurations: [Configuration] = []
    var index = TripleIndex()
    /// Per configuration: its forward moves (filled when first settled as a top).
    var moves: [[Move]] = []
    /// Per configuration: its global item's settled length (-1 while unsettled) and derivation.
    var length: [Int32] = []
    var derivation: [Derivation] = []
    /// The configurations in the order their global items were settled: shortest first.
    var settled: [Int32] = []
    /// Level items: the frame at the bottom of the level, the top, the settled length (-1 while not), the derivation.
    var levelBottom: [Int32] = []
    var levelTop: [Int32] = []
    var levelLength: [Int32] = []
    var levelDerivation: [Derivation] = []
    var levelIndex = TripleIndex()
    /// Per pushed configuration: its level's returns (each server valuation once, the shortest first) as level items.
    var returns: [Int32: [Int32]] = [:]
    /// Per pushed configuration: the settled items that push it: global items (as configurations) and level items.
    var globalPushers: [Int32: [(configuration: Int32, event: Int32)]] = [:]
    var levelPushers: [Int32: [(item: Int32, event: Int32)]] = [:]
    /// Tentative lengths and the queue, one bucket per length; an entry is `configuration << 1` or `level item << 1 | 1`.
    var tentative: [Int32] = []
    var levelTentative: [Int32] = []
    var buckets: [[Int64]] = []
    /// Per bucket: how many of its entries are taken.
    var taken: [Int] = []
    /// The length the queue is taken from next: a level's bottom enters at 0 when first pushed, so it may go back.
    var cursor = 0
    /// Per configuration: whether its forward moves are listed in ``moves``.
    var expanded: [Bool] = []
    var stoppedBy: StopReason?
    let limits: CheckLimits
    let start: Date
    var successors: [FlowModel.Successor] = []

    init(model: FlowModel, limits: CheckLimits, start: Date) {
        self.model = model
        self.limits = limits
        self.start = start
        for root in model.roots {
            let configuration = Configuration(state: model.initial.rawValue, keys: root.keys, values: root.values)
            if let c = discover(configuration) { relaxGlobal(c, to: 0, .start) }
        }
        run()
    }

    /// The index of `configuration`, found now if new; `nil` when the configuration limit stops the search.
    mutating func discover(_ configuration: Configuration) -> Int32? {
        if let known = index.find(UInt64(UInt32(bitPattern: configuration.state)), configuration.keys, configuration.values) { return known }
        guard configurations.count < limits.maxConfigurations else {
            stoppedBy = .maxConfigurations(limits.maxConfigurations)
            return nil
        }
        let c = Int32(configurations.count)
        index.insert(UInt64(UInt32(bitPattern: configuration.state)), configuration.keys, configuration.values)
        configurations.append(configuration)
        moves.append([])
        expanded.append(false)
        length.append(-1)
        tentative.append(Int32.max)
        derivation.append(.start)
        return c
    }

    mutating func enqueue(_ entry: Int64, at distance: Int32) {
        while buckets.count <= Int(distance) {
            buckets.append([])
            taken.append(0)
        }
        buckets[Int(distance)].append(entry)
        cursor = min(cursor, Int(distance))
    }

    mutating func relaxGlobal(_ c: Int32, to distance: Int32, _ how: Derivation) {
        guard length[Int(c)] < 0, distance < tentative[Int(c)] else { return }
        tentative[Int(c)] = distance
        derivation[Int(c)] = how
        enqueue(Int64(c) << 1, at: distance)
    }

    /// The level item `(bottom, top)`, made now if new.
    mutating func levelItem(bottom: Int32, top: Int32) -> Int32 {
        let key = (UInt64(UInt32(bitPattern: bottom)), UInt64(UInt32(bitPattern: top)))
        if let known = levelIndex.find(key.0, key.1, 0) { return known }
        let item = Int32(levelBottom.count)
        levelIndex.insert(key.0, key.1, 0)
        levelBottom.append(bottom)
        levelTop.append(top)
        levelLength.append(-1)
        levelTentative.append(Int32.max)
        levelDerivation.append(.start)
        return item
    }

    mutating func relaxLevel(bottom: Int32, top: Int32, to distance: Int32, _ how: Derivation) {
        let item = levelItem(bottom: bottom, top: top)
        guard levelLength[Int(item)] < 0, distance < levelTentative[Int(item)] else { return }
        levelTentative[Int(item)] = distance
        levelDerivation[Int(item)] = how
        enqueue(Int64(item) << 1 | 1, at: distance)
    }

    /// Configuration `c` after a back that leaves the top `top`: `c`'s client data, `top`'s server data.
    mutating func returned(_ c: Int32, from top: Int32) -> Int32? {
        let below = configurations[Int(c)], left = configurations[Int(top)]
        let (keys, values) = model.layout.back(to: below.keys, below.values, server: left.keys, left.values)
        return discover(Configuration(state: below.state, keys: keys, values: values))
    }

    /// The forward moves of `c`, listed once.
    mutating func movesOf(_ c: Int32) -> [Move] {
        if expanded[Int(c)] { return moves[Int(c)] }
        expanded[Int(c)] = true
        let configuration = configurations[Int(c)]
        model.successors(state: Int(configuration.state), keys: configuration.keys, values: configuration.values, into: &successors)
        var list: [Move] = []
        for successor in successors {
            let target: Configuration, kind: UInt8
            switch successor.outcome {
            case let .push(to, keys, values):
                target = Configuration(state: to.rawValue, keys: keys, values: values)
                kind = 0
            case let .replace(to, keys, values):
                target = Configuration(state: to.rawValue, keys: keys, values: values)
                kind = 1
            case let .reset(keys, values):
                target = Configuration(state: model.initial.rawValue, keys: keys, values: values)
                kind = 2
            case .illegal:
                continue
            }
            guard let t = discover(target) else { break }
            list.append(Move(event: successor.event.rawValue, row: Int32(successor.row), target: t, kind: kind))
        }
        moves[Int(c)] = list
        return list
    }

    /// Whether the user may go back from the top `c` (a frame is below it: it is inside a level).
    func allowsBack(_ c: Int32) -> Bool {
        let state = Int(configurations[Int(c)].state)
        return model.canGoBack[state] && !model.isTerminal[state]
    }

    mutating func run() {
        var settledCount = 0
        while cursor < buckets.count {
            guard taken[cursor] < buckets[cursor].count else {
                cursor += 1
                continue
            }
            // First in, first out within a length: breadth-first order among equals.
            let entry = buckets[cursor][taken[cursor]]
            taken[cursor] += 1
            let d = Int32(cursor)
            if entry & 1 == 0 {
                let c = Int32(entry >> 1)
                guard length[Int(c)] < 0, tentative[Int(c)] == d else { continue }
                length[Int(c)] = d
                settled.append(c)
                settleGlobal(c, d)
            } else {
                let item = Int32(entry >> 1)
                guard levelLength[Int(item)] < 0, levelTentative[Int(item)] == d else { continue }
                levelLength[Int(item)] = d
                settleLevel(item, d)
            }
            settledCount += 1
            if stoppedBy != nil { return }
            if settledCount & 1023 == 0 {
                CheckProgress.current?.update(.configurations, count: configurations.count, depth: Int(d))
                if let timeout = limits.timeout, Date().timeIntervalSince(start) > timeout {
                    stoppedBy = .timeout(seconds: timeout)
                    return
                }
            }
        }
    }

    mutating func settleGlobal(_ c: Int32, _ d: Int32) {
        for move in movesOf(c) {
            relaxGlobal(move.target, to: d + 1, .step(item: c, event: move.event))
            guard move.kind == 0 else { continue }
            relaxLevel(bottom: move.target, top: move.target, to: 0, .start)
            globalPushers[move.target, default: []].append((c, move.event))
            for back in returns[move.target] ?? [] {
                guard let landing = returned(c, from: levelTop[Int(back)]) else { return }
                relaxGlobal(landing, to: d + 1 + levelLength[Int(back)] + 1,
                            .back(item: c, event: move.event, pushed: move.target, returning: back))
            }
        }
    }

    mutating func settleLevel(_ item: Int32, _ d: Int32) {
        let bottom = levelBottom[Int(item)], top = levelTop[Int(item)]
        for move in movesOf(top) {
            switch move.kind {
            case 1:
                relaxLevel(bottom: bottom, top: move.target, to: d + 1, .step(item: item, event: move.event))
            case 0:
                relaxLevel(bottom: move.target, top: move.target, to: 0, .start)
                levelPushers[move.target, default: []].append((item, move.event))
                for back in returns[move.target] ?? [] {
                    guard let landing = returned(top, from: levelTop[Int(back)]) else { return }
                    relaxLevel(bottom: bottom, top: landing, to: d + 1 + levelLength[Int(back)] + 1,
                               .back(item: item, event: move.event, pushed: move.target, returning: back))
                }
            default:
                continue   // a reset leaves the level: the global items cover where it lands
            }
        }
        // A top the user may leave by back returns to whatever pushed the level's bottom, with its server valuation.
        guard allowsBack(top) else { return }
        let layout = model.layout
        let server = configurations[Int(top)]
        if let known = returns[bottom], known.contains(where: {
            let other = configurations[Int(levelTop[Int($0)])]
            return other.keys & layout.serverKeys == server.keys & layout.serverKeys && other.values & layout.serverValues == server.values & layout.serverValues
        }) { return }
        returns[bottom, default: []].append(item)
        for pusher in globalPushers[bottom] ?? [] where length[Int(pusher.configuration)] >= 0 {
            guard let landing = returned(pusher.configuration, from: top) else { return }
            relaxGlobal(landing, to: length[Int(pusher.configuration)] + 1 + d + 1,
                        .back(item: pusher.configuration, event: pusher.event, pushed: bottom, returning: item))
        }
        for pusher in levelPushers[bottom] ?? [] {
            let below = levelTop[Int(pusher.item)]
            guard let landing = returned(below, from: top) else { return }
            relaxLevel(bottom: levelBottom[Int(pusher.item)], top: landing, to: levelLength[Int(pusher.item)] + 1 + d + 1,
                       .back(item: pusher.item, event: pusher.event, pushed: bottom, returning: item))
        }
    }

    /// Every landing of a back that no forward move gives: from a settled configuration `c` that pushes `w`, back from
    /// each return of `w`'s level lands on `c` with that return's server valuation (`(c, landing)` pairs, as indices).
    func backJumps() -> [(from: Int32, to: Int32)] {
        var jumps: [(from: Int32, to: Int32)] = []
        let layout = model.layout
        for c in settled {
            let below = configurations[Int(c)]
            for move in moves[Int(c)] where move.kind == 0 {
                for back in returns[move.target] ?? [] {
                    let left = configurations[Int(levelTop[Int(back)])]
                    let (keys, values) = layout.back(to: below.keys, below.values, server: left.keys, left.values)
                    if let landing = index.find(UInt64(UInt32(bitPattern: below.state)), keys, values), landing != c {
                        jumps.append((c, landing))
                    }
                }
            }
        }
        return jumps
    }

    /// The steps of the shortest path to configuration `c`: each step's event (-1 for back) and the configuration after it.
    func steps(to c: Int32) -> [(event: Int32, configuration: Int32)] {
        var out: [(event: Int32, configuration: Int32)] = []
        appendGlobal(c, into: &out)
        return out
    }

    private func appendGlobal(_ c: Int32, into out: inout [(event: Int32, configuration: Int32)]) {
        switch derivation[Int(c)] {
        case .start:
            return
        case let .step(item, event):
            appendGlobal(item, into: &out)
            out.append((event, c))
        case let .back(item, event, pushed, returning):
            appendGlobal(item, into: &out)
            out.append((event, pushed))
            appendLevel(returning, into: &out)
            out.append((-1, c))
        }
    }

    private func appendLevel(_ item: Int32, into out: inout [(event: Int32, configuration: Int32)]) {
        let top = levelTop[Int(item)]
        switch levelDerivation[Int(item)] {
        case .start:
            return
        case let .step(previous, event):
            appendLevel(previous, into: &out)
            out.append((event, top))
        case let .back(previous, event, pushed, returning):
            appendLevel(previous, into: &out)
            out.append((event, pushed))
            appendLevel(returning, into: &out)
            out.append((-1, top))
        }
    }
}
