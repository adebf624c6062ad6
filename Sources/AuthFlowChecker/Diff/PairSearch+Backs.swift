import AuthFlow

/// The tables of ``PairSearch/runOverBacks()``: the search over pairs of histories, backs included, for versions with
/// server-side keys.
///
/// It is ``BackReach`` run on pairs. Both versions take the same kind of move at every step of an agreeing
/// path (a push against a replace or a reset is itself a difference), so their histories have the same height and
/// pair their frames one to one: the pushdown system over pairs has the agreeing pairs as its global part and pairs
/// of frames as its stack. A **global item** is an agreeing pair that is the top of some reachable pair of histories
/// (``Pair/canPop`` says whether a frame is below); a **level item** `(w, z)` says that from a pair `w` just pushed,
/// the top `z` is reached without popping `w`; a level item whose top both versions leave by back **returns** to
/// whatever pushed `w`, each version landing on its own frame below with its own server-side data. Where those
/// landings disagree the site is `different-data` on `back`; where they agree the landing is a global (or level)
/// item like any other. Items are settled shortest first, backs counting as steps.
struct PairBacks {
    /// How an item was first reached at its settled length.
    enum Derivation {
        /// A paired root (global) or a pushed pair at the bottom of its level (level).
        case start
        /// One forward move from `item`.
        case step(item: Int32, move: Int32)
        /// From `item`, a push by `move` to pair `pushed`, the level path `returning` above it, then back.
        case back(item: Int32, move: Int32, pushed: Int32, returning: Int32)
    }

    /// One forward move both versions take to agreeing pairs.
    struct Move {
        var move: Int32
        var target: Int32
        /// 0 a push, 1 a replace, 2 a reset.
        var kind: UInt8
    }

    /// A site found at a pair before the pair's shortest path is known.
    struct Pending {
        var kind: FlowDiffReport.Kind
        var move: Int32
        var old: FlowDiffReport.Result
        var new: FlowDiffReport.Result
    }

    /// A back whose landings disagree: from `pair`, a push by `move` to `pushed`, the level path `returning`, then back.
    struct Landing {
        var pair: Int32
        var move: Int32
        var pushed: Int32
        var returning: Int32
        var old: FlowDiffReport.Result
        var new: FlowDiffReport.Result
    }

    /// Per pair: its agreeing forward moves (`nil` until compared), its global length (-1 while unsettled) and derivation.
    var moves: [[Move]?] = []
    var length: [Int32] = []
    var tentative: [Int32] = []
    var derivation: [Derivation] = []
    /// Per pair: the sites its comparison found, recorded when the pair is settled (then at its shortest path).
    var pending: [Int32: [Pending]] = [:]
    /// Level items: bottom, top, settled length (-1 while not), tentative length, derivation.
    var levelBottom: [Int32] = []
    var levelTop: [Int32] = []
    var levelLength: [Int32] = []
    var levelTentative: [Int32] = []
    var levelDerivation: [Derivation] = []
    var levelIndex = TripleIndex()
    /// Per pushed pair: its level's returns as level items (each screen and pair of server data once, the shortest first).
    var returns: [Int32: [Int32]] = [:]
    /// Per pushed pair: the settled global items (pairs) and level items that push it, each with the move.
    var globalPushers: [Int32: [(pair: Int32, move: Int32)]] = [:]
    var levelPushers: [Int32: [(item: Int32, move: Int32)]] = [:]
    var landings: [Landing] = []
    /// The queue, one bucket per length; an entry is `pair << 2`, `level item << 2 | 1` or `landing << 2 | 2`.
    var buckets: [[Int64]] = []
    var taken: [Int] = []
    var cursor = 0
}

extension PairSearch {
    /// Runs the search over backs from the paired roots: every pair of histories, those only a back reaches included.
    mutating func runOverBacks() {
        startRoots()
        var settledCount = 0
        while backs.cursor < backs.buckets.count {
            guard backs.taken[backs.cursor] < backs.buckets[backs.cursor].count else {
                backs.cursor += 1
                continue
            }
            // First in, first out within a length: breadth-first order among equals.
            let entry = backs.buckets[backs.cursor][backs.taken[backs.cursor]]
            backs.taken[backs.cursor] += 1
            let d = Int32(backs.cursor)
            let item = Int32(entry >> 2)
            switch entry & 3 {
            case 0:
                guard backs.length[Int(item)] < 0, backs.tentative[Int(item)] == d else { continue }
                backs.length[Int(item)] = d
                if !settleGlobal(item, d) { return }
            case 1:
                guard backs.levelLength[Int(item)] < 0, backs.levelTentative[Int(item)] == d else { continue }
                backs.levelLength[Int(item)] = d
                if !settleLevel(item, d) { return }
            default:
                if depth.map({ Int(d) < $0 }) ?? true { recordLanding(backs.landings[Int(item)], length: Int(d)) }
            }
            settledCount += 1
            if settledCount & 1023 == 0, deadline.hasPassed {
                stoppedBy = deadline.stopReason
                return
            }
        }
    }

    /// Stores `pair` reached from `from` by `move` unless known, as one of `from`'s agreeing moves (a root when `from` < 0).
    mutating func visitOverBacks(_ pair: Pair, from: Int, move: Int32, kind: UInt8, variant: Int32) -> Bool {
        guard let p = discover(pair, variant: variant) else { return false }
        if from < 0 {
            relaxGlobal(p, to: 0, .start)
        } else {
            backs.moves[from]?.append(PairBacks.Move(move: move, target: p, kind: kind))
        }
        return true
    }

    /// The index of `pair`, stored now if new; `nil` when the pair limit stops the search.
    mutating func discover(_ pair: Pair, variant v: Int32) -> Int32? {
        if let known = index.find(pair) { return known }
        guard pairs.count < maxPairs else {
            stoppedBy = .maxConfigurations(maxPairs)
            return nil
        }
        let p = Int32(pairs.count)
        index.insert(pair)
        pairs.append(pair)
        variant.append(v)
        backs.moves.append(nil)
        backs.length.append(-1)
        backs.tentative.append(Int32.max)
        backs.derivation.append(.start)
        return p
    }

    /// The agreeing forward moves of pair `p`, compared once (its sites kept pending); `nil` when a limit stops the search.
    mutating func movesOverBacks(_ p: Int32) -> [PairBacks.Move]? {
        if let known = backs.moves[Int(p)] { return known }
        backs.moves[Int(p)] = []
        guard expand(Int(p)) else { return nil }
        return backs.moves[Int(p)] ?? []
    }

    mutating func enqueue(_ entry: Int64, at distance: Int32) {
        while backs.buckets.count <= Int(distance) {
            backs.buckets.append([])
            backs.taken.append(0)
        }
        backs.buckets[Int(distance)].append(entry)
        backs.cursor = min(backs.cursor, Int(distance))
    }

    mutating func relaxGlobal(_ p: Int32, to distance: Int32, _ how: PairBacks.Derivation) {
        guard backs.length[Int(p)] < 0, distance < backs.tentative[Int(p)] else { return }
        backs.tentative[Int(p)] = distance
        backs.derivation[Int(p)] = how
        enqueue(Int64(p) << 2, at: distance)
    }

    mutating func relaxLevel(bottom: Int32, top: Int32, to distance: Int32, _ how: PairBacks.Derivation) {
        // Keyed as BackReach keys its level items.
        let key = (UInt64(UInt32(bitPattern: bottom)), UInt64(UInt32(bitPattern: top)))
        let item: Int32
        if let known = backs.levelIndex.find(key.0, key.1, 0) {
            item = known
        } else {
            item = Int32(backs.levelBottom.count)
            backs.levelIndex.insert(key.0, key.1, 0)
            backs.levelBottom.append(bottom)
            backs.levelTop.append(top)
            backs.levelLength.append(-1)
            backs.levelTentative.append(Int32.max)
            backs.levelDerivation.append(.start)
        }
        guard backs.levelLength[Int(item)] < 0, distance < backs.levelTentative[Int(item)] else { return }
        backs.levelTentative[Int(item)] = distance
        backs.levelDerivation[Int(item)] = how
        enqueue(Int64(item) << 2 | 1, at: distance)
    }

    /// Where back from the top `top` lands above the pair `below`: each version's frame below with the server-side data of the top.
    func landing(below: Pair, top: Pair) -> Pair {
        let (ok, ov) = old.layout.back(to: below.old.keys, below.old.values, server: top.old.keys, top.old.values)
        let (nk, nv) = new.layout.back(to: below.new.keys, below.new.values, server: top.new.keys, top.new.values)
        return Pair(old: Frame(state: below.old.state, keys: ok, values: ov), new: Frame(state: below.new.state, keys: nk, values: nv),
                    canPop: below.canPop)
    }

    /// Whether both versions let the user go back from pair `p`'s screens.
    func bothAllowBack(_ p: Int32) -> Bool {
        let pair = pairs[Int(p)]
        let so = Int(pair.old.state), sn = Int(pair.new.state)
        return old.canGoBack[so] && !old.isTerminal[so] && new.canGoBack[sn] && !new.isTerminal[sn]
    }

    /// Pair `p` settled at length `d`: its sites recorded, its moves followed, and back from each return of what it pushes.
    mutating func settleGlobal(_ p: Int32, _ d: Int32) -> Bool {
        if let depth, d >= depth { return true }
        guard let moves = movesOverBacks(p) else { return false }
        for site in backs.pending.removeValue(forKey: p) ?? [] {
            recordSettled(site.kind, at: Int(p), move: site.move, length: Int(d), old: site.old, new: site.new)
        }
        for move in moves {
            relaxGlobal(move.target, to: d + 1, .step(item: p, move: move.move))
            guard move.kind == 0 else { continue }
            relaxLevel(bottom: move.target, top: move.target, to: 0, .start)
            backs.globalPushers[move.target, default: []].append((p, move.move))
            for back in backs.returns[move.target] ?? [] {
                if !returnGlobal(p, move: move.move, pushed: move.target, returning: back) { return false }
            }
        }
        return true
    }

    /// Level item `item` settled at length `d` above its bottom: its top's moves followed; a top both versions leave by back returns.
    mutating func settleLevel(_ item: Int32, _ d: Int32) -> Bool {
        let bottom = backs.levelBottom[Int(item)], top = backs.levelTop[Int(item)]
        guard let moves = movesOverBacks(top) else { return false }
        for move in moves {
            switch move.kind {
            case 1:
                relaxLevel(bottom: bottom, top: move.target, to: d + 1, .step(item: item, move: move.move))
            case 0:
                relaxLevel(bottom: move.target, top: move.target, to: 0, .start)
                backs.levelPushers[move.target, default: []].append((item, move.move))
                for back in backs.returns[move.target] ?? [] {
                    if !returnLevel(item, move: move.move, pushed: move.target, returning: back) { return false }
                }
            default:
                continue   // a reset leaves the level: the global items cover where it lands
            }
        }
        // Back allowed on one side only is a site of the global item; only a back both take returns.
        guard bothAllowBack(top) else { return true }
        let server = pairs[Int(top)]
        let oldLayout = old.layout, newLayout = new.layout
        // Landings depend on the server data alone; the site of a disagreeing one also on the screen.
        if let known = backs.returns[bottom], known.contains(where: {
            let other = pairs[Int(backs.levelTop[Int($0)])]
            return other.old.state == server.old.state
                && other.old.keys & oldLayout.serverKeys == server.old.keys & oldLayout.serverKeys
                && other.old.values & oldLayout.serverValues == server.old.values & oldLayout.serverValues
                && other.new.keys & newLayout.serverKeys == server.new.keys & newLayout.serverKeys
                && other.new.values & newLayout.serverValues == server.new.values & newLayout.serverValues
        }) { return true }
        backs.returns[bottom, default: []].append(item)
        for pusher in backs.globalPushers[bottom] ?? [] where backs.length[Int(pusher.pair)] >= 0 {
            if !returnGlobal(pusher.pair, move: pusher.move, pushed: bottom, returning: item) { return false }
        }
        for pusher in backs.levelPushers[bottom] ?? [] {
            if !returnLevel(pusher.item, move: pusher.move, pushed: bottom, returning: item) { return false }
        }
        return true
    }

    /// Back from the return `returning` of the level of `pushed`, which the settled pair `p` pushed by `move`: a global
    /// item where both versions land on agreeing data, else a `different-data` site on `back` at the return's top.
    mutating func returnGlobal(_ p: Int32, move: Int32, pushed: Int32, returning: Int32) -> Bool {
        let top = backs.levelTop[Int(returning)]
        let lands = landing(below: pairs[Int(p)], top: pairs[Int(top)])
        let through = backs.length[Int(p)] + 1 + backs.levelLength[Int(returning)]
        if dataAgrees(lands.old, lands.new) {
            guard let target = discover(lands, variant: variant[Int(p)]) else { return false }
            relaxGlobal(target, to: through + 1, .back(item: p, move: move, pushed: pushed, returning: returning))
        } else {
            let oldConfig = oldConfig, newConfig = newConfig
            backs.landings.append(PairBacks.Landing(
                pair: p, move: move, pushed: pushed, returning: returning,
                old: .returns(state: old.states[Int(lands.old.state)], data: Self.data(old, keys: lands.old.keys & ~oldConfig, values: lands.old.values)),
                new: .returns(state: new.states[Int(lands.new.state)], data: Self.data(new, keys: lands.new.keys & ~newConfig, values: lands.new.values))))
            enqueue(Int64(backs.landings.count - 1) << 2 | 2, at: through)
        }
        return true
    }

    /// Back inside a level: from the level item `item` whose top pushed `pushed` by `move`, the return `returning` lands on
    /// the top again; it leads on only where both versions land on agreeing data (the site is the global item's).
    mutating func returnLevel(_ item: Int32, move: Int32, pushed: Int32, returning: Int32) -> Bool {
        let below = backs.levelTop[Int(item)], top = backs.levelTop[Int(returning)]
        let lands = landing(below: pairs[Int(below)], top: pairs[Int(top)])
        guard dataAgrees(lands.old, lands.new) else { return true }
        guard let target = discover(lands, variant: variant[Int(below)]) else { return false }
        relaxLevel(bottom: backs.levelBottom[Int(item)], top: target,
                   to: backs.levelLength[Int(item)] + 1 + backs.levelLength[Int(returning)] + 1,
                   .back(item: item, move: move, pushed: pushed, returning: returning))
        return true
    }

    /// Records a site at the settled pair `at`, or replaces the one found before when this path is shorter.
    mutating func recordSettled(_ kind: FlowDiffReport.Kind, at: Int, move: Int32, length: Int,
                                old oldResult: FlowDiffReport.Result, new newResult: FlowDiffReport.Result) {
        let key = SiteKey(kind: kind, state: pairs[at].old.state, move: move)
        if let known = sites[key], differences[known].length <= length { return }
        let site = difference(kind, at: at, move: move, path: pathOverBacks(to: Int32(at)), old: oldResult, new: newResult)
        if let known = sites[key] { differences[known] = site } else {
            sites[key] = differences.count
            differences.append(site)
        }
    }

    /// Records a back whose landings disagree, at the top it leaves, with its path.
    mutating func recordLanding(_ landing: PairBacks.Landing, length: Int) {
        let top = backs.levelTop[Int(landing.returning)]
        let key = SiteKey(kind: .differentData, state: pairs[Int(top)].old.state, move: -1)
        if let known = sites[key], differences[known].length <= length { return }
        var steps = pathOverBacks(to: landing.pair)
        steps.append(step(landing.move, to: landing.pushed))
        appendLevel(landing.returning, into: &steps)
        let site = difference(.differentData, at: Int(top), move: -1, path: steps, old: landing.old, new: landing.new)
        if let known = sites[key] { differences[known] = site } else {
            sites[key] = differences.count
            differences.append(site)
        }
    }

    /// The step by `move` (-1 for back) to pair `p`, named by the old version.
    func step(_ move: Int32, to p: Int32) -> FlowDiffReport.Step {
        let info = move >= 0 ? moveInfo[Int(move)] : (event: "back", chosen: [])
        return FlowDiffReport.Step(event: info.event, chosen: info.chosen, state: old.states[Int(pairs[Int(p)].old.state)])
    }

    /// The shortest path to the settled pair `p`, backs as steps.
    func pathOverBacks(to p: Int32) -> [FlowDiffReport.Step] {
        var steps: [FlowDiffReport.Step] = []
        appendGlobal(p, into: &steps)
        return steps
    }

    private func appendGlobal(_ p: Int32, into steps: inout [FlowDiffReport.Step]) {
        switch backs.derivation[Int(p)] {
        case .start:
            return
        case let .step(item, move):
            appendGlobal(item, into: &steps)
            steps.append(step(move, to: p))
        case let .back(item, move, pushed, returning):
            appendGlobal(item, into: &steps)
            steps.append(step(move, to: pushed))
            appendLevel(returning, into: &steps)
            steps.append(step(-1, to: p))
        }
    }

    func appendLevel(_ item: Int32, into steps: inout [FlowDiffReport.Step]) {
        let top = backs.levelTop[Int(item)]
        switch backs.levelDerivation[Int(item)] {
        case .start:
            return
        case let .step(previous, move):
            appendLevel(previous, into: &steps)
            steps.append(step(move, to: top))
        case let .back(previous, move, pushed, returning):
            appendLevel(previous, into: &steps)
            steps.append(step(move, to: pushed))
            appendLevel(returning, into: &steps)
            steps.append(step(-1, to: top))
        }
    }
}
