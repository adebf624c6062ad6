import AuthFlow
@testable import AuthFlowChecker
import Testing

/// `FlowDiff` against a brute-force reading of the issue's definition, on seeded random pairs of small `/2` flows.
///
/// Each pair is a random flow (counters, presence and valued keys, some server-side; guarded first-match rows,
/// in-place updates, resets, screens without back) and a copy with one change: a row's target, a guard, back
/// disabled, a row added or removed, a key made server-side. The oracle walks pairs of whole histories breadth-first
/// up to a bound, each version's moves from the semantics' one step and its history kept by hand (a push appends a
/// frame, a replace rewrites the top, a reset starts again, back pops the top keeping the server-side data), compares
/// every move by names as the issue says, and lists each site `(kind, state, move)` with the length it is first met
/// at. Its property changes come from each version's reachable configurations, found by a naive fixpoint over levels
/// of the history, with `illegal-transition`, `deadlock`, `no-exit` and the spec's own rule decided on them by hand.
@Suite struct FlowDiffOracleTests {
    /// One random flow, as data so a copy can be changed in one place.
    struct RandomFlow {
        struct Row {
            var from: String, on: String, to: String
            var when: String?
            var replace = false, reset = false, clears = false
        }

        static let states = ["s0", "s1", "s2", "s3"]
        static let keys = ["a", "b", "p", "v"]
        static let guards = ["{\"atLeast\": {\"a\": 2}}", "{\"has\": \"p\"}", "{\"below\": {\"b\": 1}}", "{\"missing\": \"p\"}",
                             "{\"equals\": {\"v\": \"x\"}}", "{\"atLeast\": {\"b\": 1}}"]
        static let effects = ["\"increment\": [\"a\"]", "\"increment\": [\"b\"]", "\"adds\": [\"p\"]", "\"adds\": [\"v\"]",
                              "\"increment\": [\"a\", \"b\"]", "\"clears\": [\"p\"]"]

        var server: [Bool]
        var emits: [[(event: String, effect: String)]]
        var back: [Bool]
        var rows: [Row]

        init(seed: UInt64) {
            var rng = SplitMix(seed: seed)
            server = Self.keys.map { _ in rng.next(3) == 0 }
            emits = []
            back = []
            rows = []
            for (i, state) in Self.states.enumerated() {
                var list: [(event: String, effect: String)] = []
                for event in ["e0", "e1", "e2"] where rng.next(3) > 0 {
                    list.append((event, Self.effects[rng.next(Self.effects.count)]))
                    let count = 1 + rng.next(2)
                    for position in 0..<count {
                        let to = rng.next(5) == 0 ? "done" : Self.states[rng.next(4)]
                        var row = Row(from: state, on: event, to: to)
                        // First match wins: every row but the last has a guard.
                        if position < count - 1 || rng.next(2) == 0 { row.when = Self.guards[rng.next(Self.guards.count)] }
                        row.replace = to == state && rng.next(2) == 0
                        row.reset = to == "s0" && state != "s0" && rng.next(3) == 0
                        row.clears = rng.next(4) == 0
                        rows.append(row)
                    }
                }
                emits.append(list)
                back.append(i == 0 || rng.next(4) > 0)
            }
        }

        var json: String {
            let data = Self.keys.enumerated().map { k, key in
                let kind = key == "a" || key == "b" ? "\"max\": 2" : key == "v" ? "\"values\": [\"x\", \"y\"]" : ""
                let side = server[k] ? (kind.isEmpty ? "\"server\": true" : ", \"server\": true") : ""
                return "\"\(key)\": {\(kind)\(side)}"
            }.joined(separator: ", ")
            var steps = Self.states.indices.map { i in
                let list = emits[i].map { "\"\($0.event)\": {\($0.effect), \"by\": \"system\"}" }.joined(separator: ", ")
                return "\"\(Self.states[i])\": {\"emits\": {\(list)}\(back[i] ? "" : ", \"back\": false")}"
            }
            steps.append("\"done\": {\"emits\": {}}")
            let table = rows.map { row in
                var text = "{\"from\": \"\(row.from)\", \"on\": \"\(row.on)\", \"to\": \"\(row.to)\""
                if let when = row.when { text += ", \"when\": \(when)" }
                if row.replace { text += ", \"history\": \"replace\"" }
                if row.reset { text += ", \"reset\": true" }
                if row.clears { text += ", \"clears\": [\"p\"]" }
                return text + "}"
            }
            return """
            {"format": "authflow/2", "initial": "s0", "success": ["done"], "abort": [],
             "data": {\(data)},
             "steps": {\(steps.joined(separator: ", "))},
             "transitions": [\(table.joined(separator: ", "))],
             "properties": [{"id": "a-low-at-s3", "never": {"all": [{"at": ["s3"]}, {"atLeast": {"a": 2}}]}}]}
            """
        }

        /// A copy with one change drawn by `rng`, and what it was.
        func mutated(_ rng: inout SplitMix) -> (RandomFlow, String) {
            var copy = self
            switch rng.next(6) {
            case 0 where !rows.isEmpty:
                let r = rng.next(rows.count)
                copy.rows[r].to = rng.next(5) == 0 ? "done" : Self.states[rng.next(4)]
                copy.rows[r].replace = copy.rows[r].replace && copy.rows[r].to == rows[r].from
                copy.rows[r].reset = copy.rows[r].reset && copy.rows[r].to == "s0"
                return (copy, "row \(r)'s target → \(copy.rows[r].to)")
            case 1 where !rows.isEmpty:
                let r = rng.next(rows.count)
                copy.rows[r].when = Self.guards[rng.next(Self.guards.count)]
                return (copy, "row \(r)'s guard → \(copy.rows[r].when ?? "-")")
            case 2:
                let s = 1 + rng.next(3)
                copy.back[s].toggle()
                return (copy, "back on \(Self.states[s]) → \(copy.back[s])")
            case 3 where !rows.isEmpty:
                let r = rng.next(rows.count)
                copy.rows.remove(at: r)
                return (copy, "row \(r) removed")
            case 4:
                let s = rng.next(4)
                guard let emitted = emits[s].first else { return (copy, "nothing") }
                let to = Self.states[rng.next(4)]
                // Before the others of its event, guarded: it takes some of their data.
                let at = rows.firstIndex { $0.from == Self.states[s] && $0.on == emitted.event } ?? rows.count
                copy.rows.insert(Row(from: Self.states[s], on: emitted.event, to: to, when: Self.guards[rng.next(Self.guards.count)]), at: at)
                return (copy, "row added at \(at): \(Self.states[s]).\(emitted.event) → \(to)")
            default:
                let k = rng.next(Self.keys.count)
                copy.server[k] = true
                return (copy, "\(Self.keys[k]) server-side")
            }
        }
    }

    /// A frame of one version: a screen and its client-side data.
    struct Frame: Hashable { var state: Int32; var keys: UInt64; var values: UInt64 }

    /// One version's history and server-side data.
    struct Side: Hashable {
        var history: [Frame]
        var serverKeys: UInt64
        var serverValues: UInt64
    }

    /// Where one move of one version leads.
    enum Kind { case push, replace, reset }

    /// One version, read through the semantics' single step.
    struct Version {
        let model: FlowModel

        func split(_ state: Int32, _ keys: UInt64, _ values: UInt64) -> (Frame, UInt64, UInt64) {
            let layout = model.layout
            return (Frame(state: state, keys: keys & ~layout.serverKeys, values: values & ~layout.serverValues),
                    keys & layout.serverKeys, values & layout.serverValues)
        }

        func top(_ side: Side) -> Configuration {
            let frame = side.history[side.history.count - 1]
            return Configuration(state: frame.state, keys: frame.keys | side.serverKeys, values: frame.values | side.serverValues)
        }

        /// The data by name: a presence key "present", a valued key its value, a counter its count (0 as absent).
        func named(_ keys: UInt64, _ values: UInt64) -> [String: String] {
            var out: [String: String] = [:]
            let layout = model.layout
            for k in model.keys.indices {
                switch layout.kinds[k] {
                case .presence: if keys & (1 << UInt64(k)) != 0 { out[model.keys[k]] = "present" }
                case .valued: if keys & (1 << UInt64(k)) != 0 { out[model.keys[k]] = "=" + layout.domains[k][layout.field(k, in: values)] }
                case .counter: if layout.field(k, in: values) != 0 { out[model.keys[k]] = "#\(layout.field(k, in: values))" }
                }
            }
            return out
        }

        /// Each legal move by name (`e0`, `e1(v=x)`), the first of a name kept, with the configuration it leads to.
        func moves(_ c: Configuration) -> [String: (kind: Kind, state: Int32, keys: UInt64, values: UInt64)] {
            var successors: [FlowModel.Successor] = []
            model.successors(state: Int(c.state), keys: c.keys, values: c.values, into: &successors)
            var out: [String: (kind: Kind, state: Int32, keys: UInt64, values: UInt64)] = [:]
            for successor in successors {
                let emission = model.emissions[Int(c.state)][successor.emission]
                let chosen = zip(emission.addValued, emission.branchValues(successor.branch)).map { "\(model.keys[$0])=\(model.layout.domains[$0][$1])" }
                let name = model.events[successor.event.index] + (chosen.isEmpty ? "" : "(" + chosen.joined(separator: ", ") + ")")
                switch successor.outcome {
                case let .push(to, keys, values): if out[name] == nil { out[name] = (.push, to.rawValue, keys, values) }
                case let .replace(to, keys, values): if out[name] == nil { out[name] = (.replace, to.rawValue, keys, values) }
                case let .reset(keys, values): if out[name] == nil { out[name] = (.reset, model.initial.rawValue, keys, values) }
                case .illegal: continue
                }
            }
            return out
        }

        func apply(_ side: Side, _ move: (kind: Kind, state: Int32, keys: UInt64, values: UInt64)) -> Side {
            var side = side
            let (frame, sk, sv) = split(move.state, move.keys, move.values)
            switch move.kind {
            case .push: side.history.append(frame)
            case .replace: side.history[side.history.count - 1] = frame
            case .reset: side.history = [frame]
            }
            side.serverKeys = sk
            side.serverValues = sv
            return side
        }

        func allowsBack(_ state: Int32) -> Bool { model.canGoBack[Int(state)] && !model.isTerminal[Int(state)] }

        /// Every reachable configuration: for each frame entered with some server data, the tops reachable above it
        /// without popping it, to a fixpoint (back from such a top lands on the frame below with the top's server data).
        func reachable() -> Set<Configuration> {
            struct Top: Hashable { var frame: Frame; var serverKeys: UInt64; var serverValues: UInt64 }
            var levels: [Top: Set<Top>] = [:]
            for root in model.roots {
                let (frame, sk, sv) = split(model.initial.rawValue, root.keys, root.values)
                let top = Top(frame: frame, serverKeys: sk, serverValues: sv)
                levels[top] = [top]
            }
            var changed = true
            while changed {
                changed = false
                for (bottom, tops) in levels {
                    for top in tops {
                        let c = Configuration(state: top.frame.state, keys: top.frame.keys | top.serverKeys, values: top.frame.values | top.serverValues)
                        for (_, move) in moves(c) {
                            let (frame, sk, sv) = split(move.state, move.keys, move.values)
                            let next = Top(frame: frame, serverKeys: sk, serverValues: sv)
                            switch move.kind {
                            case .replace:
                                if levels[bottom, default: []].insert(next).inserted { changed = true }
                            case .reset:
                                if levels[next] == nil { levels[next] = [next]; changed = true }
                            case .push:
                                if levels[next] == nil { levels[next] = [next]; changed = true }
                                for above in levels[next] ?? [] where allowsBack(above.frame.state) {
                                    let landed = Top(frame: top.frame, serverKeys: above.serverKeys, serverValues: above.serverValues)
                                    if levels[bottom, default: []].insert(landed).inserted { changed = true }
                                }
                            }
                        }
                    }
                }
            }
            var all = Set<Configuration>()
            for tops in levels.values {
                for top in tops {
                    all.insert(Configuration(state: top.frame.state, keys: top.frame.keys | top.serverKeys, values: top.frame.values | top.serverValues))
                }
            }
            return all
        }

        /// The violated sites as reports print them, decided by hand on the reachable configurations.
        func violations() -> Set<String> {
            let all = reachable()
            var sites = Set<String>()
            var edges: [Configuration: [Configuration]] = [:]
            for c in all {
                let state = model.states[Int(c.state)]
                var successors: [FlowModel.Successor] = []
                model.successors(state: Int(c.state), keys: c.keys, values: c.values, into: &successors)
                for successor in successors {
                    switch successor.outcome {
                    case .illegal: sites.insert("illegal-transition@\(state).\(model.events[successor.event.index])")
                    case let .push(to, keys, values), let .replace(to, keys, values):
                        edges[c, default: []].append(Configuration(state: to.rawValue, keys: keys, values: values))
                    case let .reset(keys, values):
                        edges[c, default: []].append(Configuration(state: model.initial.rawValue, keys: keys, values: values))
                    }
                }
                if state == "s3" && model.layout.field(model.keys.firstIndex(of: "a") ?? 0, in: c.values) >= 2 { sites.insert("a-low-at-s3") }
            }
            for c in all where !model.isTerminal[Int(c.state)] && !model.isBackOnly[Int(c.state)] {
                guard let out = edges[c], !out.isEmpty else {
                    sites.insert("deadlock@\(model.states[Int(c.state)])")
                    continue
                }
                // Forward moves only, resets included: can some terminal configuration be reached?
                var seen: Set<Configuration> = [c], work = [c], exits = false
                while let next = work.popLast(), !exits {
                    if model.isTerminal[Int(next.state)] { exits = true }
                    for child in edges[next] ?? [] where seen.insert(child).inserted { work.append(child) }
                }
                if !exits { sites.insert("no-exit@\(model.states[Int(c.state)])") }
            }
            return sites
        }
    }

    /// The sites `kind state.move length` within `bound` moves of the start, each at the length first met, by pairs of whole histories.
    static func oracleSites(_ old: FlowModel, _ new: FlowModel, bound: Int) -> [String: Int] {
        let o = Version(model: old), n = Version(model: new)
        struct Node: Hashable { var old: Side; var new: Side }
        var sites: [String: Int] = [:]
        func site(_ kind: String, _ state: String, _ move: String, _ length: Int) {
            let key = "\(kind) \(state).\(move)"
            if sites[key] == nil { sites[key] = length }
        }
        precondition(old.roots.count == 1 && new.roots.count == 1, "the random flows have no config")
        guard old.states[old.initial.index] == new.states[new.initial.index] else { return ["different-state -.-": 0] }
        let (of, osk, osv) = o.split(old.initial.rawValue, old.roots[0].keys, old.roots[0].values)
        let (nf, nsk, nsv) = n.split(new.initial.rawValue, new.roots[0].keys, new.roots[0].values)
        var level = [Node(old: Side(history: [of], serverKeys: osk, serverValues: osv), new: Side(history: [nf], serverKeys: nsk, serverValues: nsv))]
        var seen = Set<Node>()
        for length in 0...bound {
            var next: [Node] = []
            for node in level where seen.insert(node).inserted {
                let co = o.top(node.old), cn = n.top(node.new)
                let state = old.states[Int(co.state)]
                let movesOld = o.moves(co), movesNew = n.moves(cn)
                for name in Set(movesOld.keys).union(movesNew.keys) {
                    guard let a = movesOld[name] else { site("added-move", state, name, length); continue }
                    guard let b = movesNew[name] else { site("removed-move", state, name, length); continue }
                    if old.states[Int(a.state)] != new.states[Int(b.state)] { site("different-state", state, name, length); continue }
                    let childOld = o.apply(node.old, a), childNew = n.apply(node.new, b)
                    let topOld = o.top(childOld), topNew = n.top(childNew)
                    if o.named(topOld.keys, topOld.values) != n.named(topNew.keys, topNew.values) || a.kind != b.kind {
                        site("different-data", state, name, length)
                        continue
                    }
                    next.append(Node(old: childOld, new: childNew))
                }
                guard node.old.history.count > 1 else { continue }
                precondition(node.new.history.count == node.old.history.count, "agreeing histories of different heights")
                let backOld = o.allowsBack(co.state), backNew = n.allowsBack(cn.state)
                if backOld != backNew {
                    site(backNew ? "added-back" : "removed-back", state, "back", length)
                    continue
                }
                guard backOld else { continue }
                var childOld = node.old, childNew = node.new
                childOld.history.removeLast()
                childNew.history.removeLast()
                let topOld = o.top(childOld), topNew = n.top(childNew)
                if o.named(topOld.keys, topOld.values) != n.named(topNew.keys, topNew.values) {
                    site("different-data", state, "back", length)
                    continue
                }
                next.append(Node(old: childOld, new: childNew))
            }
            level = next
        }
        return sites
    }

    static func line(_ d: FlowDiffReport.Difference) -> String {
        let values = d.values.isEmpty ? "" : "(" + d.values.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        return "\(d.kind.rawValue) \(d.state ?? "-").\(d.event ?? "-")\(values)"
    }

    static let bound = 6

    /// Compares one pair; returns whether it loaded and whether the two differ, for the suite's tally.
    static func compare(seed: Int) -> (loaded: Bool, differs: Bool, back: Bool) {
        var rng = SplitMix(seed: UInt64(seed) &* 7919)
        let base = RandomFlow(seed: UInt64(seed))
        let (changed, change) = base.mutated(&rng)
        guard let old = try? SpecLoader.load(json: base.json), let new = try? SpecLoader.load(json: changed.json) else { return (false, false, false) }
        let context = "seed \(seed), \(change)\n\(base.json)\n\(changed.json)"
        let expected = oracleSites(old, new, bound: bound)
        // Within the bound: the same sites at the same shortest lengths, and the same verdict.
        let bounded = FlowDiff.compare(old, new, depth: bound + 1)
        var actual: [String: Int] = [:]
        for d in bounded.differences { actual[line(d)] = d.length }
        #expect(actual == expected, "\(context)")
        // Unbounded, the sites within the bound are those, at those lengths; the others lie beyond it.
        let whole = FlowDiff.compare(old, new, properties: false)
        var near: [String: Int] = [:]
        for d in whole.differences where d.length <= bound { near[line(d)] = d.length }
        #expect(near == expected, "unbounded: \(context)")
        for d in whole.differences { #expect(d.path.count == d.length) }
        // Property changes: each version's violations decided by hand on its reachable configurations.
        let before = Version(model: old).violations(), after = Version(model: new).violations()
        #expect(Set(bounded.properties.new.map(\.description)) == after.subtracting(before), "new violations: \(context)")
        #expect(Set(bounded.properties.fixed.map(\.description)) == before.subtracting(after), "fixed: \(context)")
        #expect(bounded.identical == (expected.isEmpty && before == after), "identical: \(context)")
        #expect(bounded.stoppedBy == nil && whole.stoppedBy == nil)
        let back = whole.differences.contains { $0.event == "back" || $0.path.contains { $0.event == "back" } }
        return (true, !expected.isEmpty, back)
    }

    @Test func randomPairsAgreeWithWholeHistories() {
        var loaded = 0, differing = 0, overBacks = 0, throughBack = 0
        for seed in 0..<150 {
            let (ok, differs, back) = Self.compare(seed: seed)
            if back { throughBack += 1 }
            if ok { loaded += 1 }
            if differs { differing += 1 }
            if ok, RandomFlow(seed: UInt64(seed)).server.contains(true) { overBacks += 1 }
        }
        // Most pairs load, many differ within the bound, many run the search over backs, and some sites need a back.
        #expect(loaded >= 120, "\(loaded) of 150 loaded")
        #expect(differing >= 40, "\(differing) differ")
        #expect(overBacks >= 40, "\(overBacks) with server-side keys")
        #expect(throughBack >= 10, "\(throughBack) with back in a site's path or at a site")
    }
}

