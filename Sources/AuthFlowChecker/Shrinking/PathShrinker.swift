import AuthFlow
/// Shrinks a failing path of events and backs to a shorter one that fails at the same site.
///
/// Every candidate is replayed through the runtime under test; a candidate counts only when the
/// replay fails at the same site, so the failure is reproduced by running, never assumed from the
/// model. A replay stops at the first violation, so a candidate can come back shorter than it went
/// in: the shrinker keeps what the replay really walked. Rounds repeat while one improves, each in
/// these passes, the ones that can remove the most first:
/// 1. with a ``ShrinkGuide`` (the model), take the shortest routes the configuration graph knows
///    to the failing state (for a spec's own rule, to the nearest configurations that break it), then to every frame the path visits (keeping the rest of the path),
///    and delete every loop (a segment that starts and ends in the same undo stack);
/// 2. delete contiguous blocks: half the path, halving while longer than 8 steps, then every
///    length from 8 down to 1 (so a detour that only goes as a pair or a triple is removed);
/// 3. drop each forward event immediately undone by back;
/// 4. replace the values an event typed by the simple default values.
///
/// A candidate is kept when its replay is shorter, or as long and earlier in a fixed order
/// (back before events, then by name), so shrinking always ends.
///
/// ```swift
/// let shrunk = PathShrinker(maxReplays: 20_000, guide: guide).shrink(outcome) { fuzzer.replay($0) }
/// shrunk.outcome.actions   // the shortest failing path found
/// ```
struct PathShrinker {
    /// The most replays shrinking may spend.
    var maxReplays: Int
    /// The model's view of paths, for the guided pass; `nil` shrinks by deletion alone.
    var guide: ShrinkGuide? = nil
    /// When shrinking must stop, keeping the best path so far (`--timeout`).
    var deadline: Deadline = .none

    /// A shrunk failure and what it cost.
    struct Result {
        /// The failure at the end of the shrunk path.
        var outcome: FuzzOutcome
        /// Replays spent.
        var replays: Int
        /// The limit that stopped shrinking before no candidate improved, if one did.
        var stoppedBy: StopReason? = nil
    }

    /// Shrinks `outcome`'s path; `replay` runs a candidate and returns its first violation, or nil.
    /// - Complexity: O(n) replays per deletion length for a path of n actions, about 8 + log n
    ///   lengths, plus O(n) for the guided pass; rounds repeat while one improves, within `maxReplays`.
    func shrink(_ outcome: FuzzOutcome, replay: ([FuzzAction]) -> FuzzOutcome?) -> Result {
        var best = outcome
        var replays = 0
        var tried = Set<[FuzzAction]>()
        var timedOut = false
        func attempt(_ candidate: [FuzzAction]) -> Bool {
            // A replay of a long path can take milliseconds: the clock is read before each one.
            if !timedOut && deadline.hasPassed { timedOut = true }
            guard !timedOut, replays < maxReplays, candidate != best.actions, tried.insert(candidate).inserted else { return false }
            replays += 1
            guard let found = replay(candidate), found.site == outcome.site,
                  Self.precedes(found.actions, best.actions) else { return false }
            best = found
            return true
        }
        var improved = true
        while improved && replays < maxReplays && !timedOut {
            improved = false
            if let guide, guided(guide, site: outcome.site, variant: outcome.variant, current: { best.actions }, attempt) { improved = true }
            // Delete blocks: halving while long, then every length from 8 down to 1.
            var sizes: [Int] = []
            var size = best.actions.count / 2
            while size > 8 { sizes.append(size); size /= 2 }
            sizes += (1...8).reversed()
            for size in sizes where size < best.actions.count || size == 1 {
                var i = 0
                while i + size <= best.actions.count && !timedOut {
                    var candidate = best.actions
                    candidate.removeSubrange(i..<(i + size))
                    if attempt(candidate) { improved = true } else { i += 1 }
                }
            }
            // Drop forward/back pairs wherever they sit.
            var i = 0
            while i + 1 < best.actions.count {
                if case .event = best.actions[i], best.actions[i + 1] == .back {
                    var candidate = best.actions
                    candidate.removeSubrange(i...(i + 1))
                    if attempt(candidate) { improved = true; continue }
                }
                i += 1
            }
            // Simplify values.
            for j in best.actions.indices {
                if case let .event(name, values) = best.actions[j], values != .simple {
                    var candidate = best.actions
                    candidate[j] = .event(name)
                    if attempt(candidate) { improved = true }
                }
            }
        }
        return Result(outcome: best, replays: replays, stoppedBy: timedOut ? deadline.stopReason : nil)
    }

    /// The model-guided pass: shortest routes to the failing state, shorter prefixes, loops removed.
    /// `current` reads the best path so far, which `attempt` replaces when a candidate is kept.
    private func guided(_ guide: ShrinkGuide, site: Site, variant: Int, current: () -> [FuzzAction],
                        _ attempt: ([FuzzAction]) -> Bool) -> Bool {
        var improved = false
        // The failing state by the shortest routes, with and without the path's last action; a spec's own
        // rule, which has no state, by the routes to the nearest configurations that break it.
        let last = current().last
        let routes = site.state.map { guide.shortestPaths(toState: $0, limit: 8) }
            ?? guide.shortestPaths(breaking: site.property, variant: variant, limit: 8)
        for route in routes where route.count < current().count {
            if attempt(route) || (last.map { route.count + 1 < current().count && attempt(route + [$0]) } ?? false) {
                improved = true
                break
            }
        }
        // Each frame the path visits, by its shortest route, with the rest of the path after it.
        var k = current().count
        while k > 1 && !deadline.hasPassed {
            let path = current()
            let stacks = guide.stacks(path)
            if k < stacks.count, let top = stacks[k].last, let route = guide.shortestPath(to: top), route.count < k,
               attempt(route + path[k...]) {
                improved = true
                k = min(k, current().count)
                continue
            }
            k -= 1
        }
        // Loops: a segment that leaves the undo stack as it found it, the longest first.
        var found = true
        while found && !deadline.hasPassed {
            found = false
            let path = current()
            let stacks = guide.stacks(path)
            let n = stacks.count - 1
            search: for length in stride(from: n, through: 1, by: -1) {
                for i in 0...(n - length) where stacks[i] == stacks[i + length] {
                    var candidate = path
                    candidate.removeSubrange(i..<(i + length))
                    if attempt(candidate) {
                        improved = true
                        found = true
                        break search
                    }
                }
            }
        }
        return improved
    }

    /// Shortlex order on paths: shorter first, then back before events, events by name, default values first.
    static func precedes(_ a: [FuzzAction], _ b: [FuzzAction]) -> Bool {
        if a.count != b.count { return a.count < b.count }
        for (x, y) in zip(a, b) where x != y { return key(x) < key(y) }
        return false
    }

    private static func key(_ action: FuzzAction) -> String {
        switch action {
        case .back, .undo: return ""
        case let .event(name, values), let .reset(name, values):
            switch values {
            case .simple: return "1" + name
            case let .ordered(values): return "1" + name + "\u{0}" + values.joined(separator: "\u{0}")
            case let .named(pairs): return "1" + name + "\u{0}" + pairs.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }.joined(separator: "\u{0}")
            }
        }
    }
}
