import AuthFlow

/// Section 5's `stacks`, counted the naive way, as an oracle for the checker's count: every history of frames with its
/// server data, kept whole.
///
/// A breadth-first search over forward moves only (a push appends a frame, an in-place update rewrites the top frame,
/// a reset starts a history of one frame; no back), each pair (history, server data) kept once with the fewest moves
/// that reach it and, among those, the lowest row of a last move. A frame is a state and the client-side data.
public enum HistoryCount {
    public struct Counts: Equatable, CustomStringConvertible {
        public var total = 0
        public var byState: [Int]
        public var byRow: [Int]
        public var description: String { "total \(total), by state \(byState), by row \(byRow)" }
        public init(total: Int = 0, byState: [Int], byRow: [Int]) {
            self.total = total
            self.byState = byState
            self.byRow = byRow
        }
    }

    struct Frame: Hashable {
        var state: Int32
        var keys: UInt64
        var values: UInt64
    }

    struct Pair: Hashable {
        var history: [Frame]
        var serverKeys: UInt64
        var serverValues: UInt64
    }

    /// The pairs within `depth` forward moves of every root of `model`, counted in all, per state and per row.
    public static func count(_ model: FlowModel, depth: Int) -> Counts {
        let layout = model.layout
        var counts = Counts(byState: [Int](repeating: 0, count: model.stateCount), byRow: [Int](repeating: 0, count: model.rows.count))
        func split(_ state: Int32, _ keys: UInt64, _ values: UInt64) -> (Frame, UInt64, UInt64) {
            (Frame(state: state, keys: keys & ~layout.serverKeys, values: values & ~layout.serverValues),
             keys & layout.serverKeys, values & layout.serverValues)
        }
        var best: [Pair: Int] = [:]   // the lowest row + 1 of a last move, among the fewest moves
        var level: [Pair] = []
        for root in model.roots {
            let (frame, sk, sv) = split(model.initial.rawValue, root.keys, root.values)
            let pair = Pair(history: [frame], serverKeys: sk, serverValues: sv)
            if best[pair] == nil {
                best[pair] = 0
                level.append(pair)
            }
        }
        var successors: [FlowModel.Successor] = []
        var all = level
        for _ in 0..<max(0, depth) {
            var next: [Pair: Int] = [:]
            var order: [Pair] = []
            for pair in level {
                let top = pair.history[pair.history.count - 1]
                model.successors(state: Int(top.state), keys: top.keys | pair.serverKeys, values: top.values | pair.serverValues,
                                 into: &successors)
                for successor in successors {
                    var child = pair
                    switch successor.outcome {
                    case let .push(to, keys, values):
                        let (frame, sk, sv) = split(to.rawValue, keys, values)
                        child.history.append(frame); child.serverKeys = sk; child.serverValues = sv
                    case let .replace(to, keys, values):
                        let (frame, sk, sv) = split(to.rawValue, keys, values)
                        child.history[child.history.count - 1] = frame; child.serverKeys = sk; child.serverValues = sv
                    case let .reset(keys, values):
                        let (frame, sk, sv) = split(model.initial.rawValue, keys, values)
                        child.history = [frame]; child.serverKeys = sk; child.serverValues = sv
                    case .illegal:
                        continue
                    }
                    guard best[child] == nil else { continue }
                    let row = successor.row + 1
                    if let known = next[child] {
                        next[child] = min(known, row)
                    } else {
                        next[child] = row
                        order.append(child)
                    }
                }
            }
            for pair in order { best[pair] = next[pair] }
            all += order
            level = order
        }
        for pair in all {
            counts.total += 1
            counts.byState[Int(pair.history[pair.history.count - 1].state)] += 1
            let row = best[pair]! - 1
            if counts.byRow.indices.contains(row) { counts.byRow[row] += 1 }
        }
        return counts
    }
}
