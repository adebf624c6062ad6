import AuthFlow
import Foundation

/// Writes the bounded undo-stack exploration of a flow as a Promela model, so SPIN can explore the same space.
///
/// The model is section 4's stack walk, stated for an explicit-state model checker that stores
/// every state it visits: the undo stack is an array of frames (`st[i]` the state of frame `i`,
/// `kd…[i]` its data keys as bit sets), `sp` indexes the top frame, and slots above `sp` are
/// always zero, so two equal stacks are one state vector. From the loop head, every legal forward
/// event of the top frame's state is one `d_step` that pushes `(target, data ∪ adds)` while the
/// stack holds at most `depth` frames above the root, and asserts the target's `requires`; back
/// is one `d_step` that pops (and zeroes) the top frame where the spec allows it (not at the root,
/// not from a terminal state, not from a `back: false` step). Illegal events (no transition)
/// change nothing and are left out. Because every move is a `d_step`, only loop-head states are
/// stored, one per stack; two events pushing the same frame give the same successor, which SPIN
/// finds in its hash table exactly as the runtime walk deduplicates siblings; and a pop always
/// returns to the parent stack, which SPIN has already stored. So:
///
/// **SPIN's `states, stored` = ``RuntimeExplorer/countStacks(depth:)`` + 1** — the one extra
/// state is SPIN's initial state, before the `d_step` that writes the root frame.
///
/// ```sh
/// authcheck export Specs/email-first.json --depth 20 > flow.pml
/// spin -a flow.pml && cc -O2 -DSAFETY -o pan pan.c && ./pan -m100
/// ```
///
/// State ids and data-key ids are the model's dense ids; the names appear in comments. Words are
/// the smallest Promela type that holds the ids (`byte`, `short`, `int`), and data keys take one
/// word per 8, 15 or 31 keys, so SPIN's state vector is as small as the model allows.
package enum PromelaExporter {
    /// Returns the Promela model of the stacks of at most `depth` forward events of `model`.
    ///
    /// - Parameters:
    ///   - model: the flow.
    ///   - depth: the bound on forward events (the stack holds at most `depth + 1` frames).
    /// - Returns: the model's source text, for `spin -a`.
    /// - Complexity: O(states + moves) text.
    package static func export(_ model: FlowModel, depth: Int) -> String {
        let depth = max(0, depth)
        let layout = Layout(model: model, depth: depth)
        var out: [String] = []
        out.append("/* authcheck: the undo stacks of at most \(depth) forward events of \(comment(model.name ?? "a flow")).")
        out.append("   One stored state per stack, plus SPIN's initial state: states stored = stacks + 1.")
        out.append("   Run: spin -a THIS.pml && cc -O2 -DSAFETY -o pan pan.c && ./pan -m\(depth + 10) */")
        out.append("")
        out.append("#define DEPTH \(depth)")
        out.append("")
        out.append("\(layout.stateType) st[DEPTH + 1];   /* the state of each frame; slots above sp are 0 */")
        for word in 0..<layout.words {
            let first = word * layout.bitsPerWord
            let last = min(model.keys.count, first + layout.bitsPerWord) - 1
            let range = last >= first ? "keys \(first)-\(last)" : "no keys"
            out.append("\(layout.wordType) kd\(word)[DEPTH + 1];   /* the data keys of each frame as a bit set (\(range)) */")
        }
        out.append("\(layout.spType) sp;              /* the index of the top frame */")
        out.append("")
        if !model.keys.isEmpty {
            out.append("/* data keys: \(model.keys.enumerated().map { "\($0.offset) \(comment($0.element))" }.joined(separator: ", ")) */")
        }
        out.append("/* states: \(model.states.enumerated().map { "\($0.offset) \(comment($0.element))" }.joined(separator: ", ")) */")
        out.append("")
        out.append("active proctype flow()")
        out.append("{")
        out.append("    d_step { st[0] = \(model.initial.index) }   /* the root frame: (\(comment(model.name(of: model.initial))), {}) */")
        out.append("end:")
        out.append("    do")
        for state in 0..<model.stateCount {
            for move in model.moves[state] {
                guard let target = move.target else { continue }   // illegal: nothing changes
                var body = ["sp++", "st[sp] = \(target.index)"]
                for word in 0..<layout.words {
                    let adds = layout.word(word, of: move.adds)
                    body.append(adds == 0 ? "kd\(word)[sp] = kd\(word)[sp - 1]" : "kd\(word)[sp] = kd\(word)[sp - 1] | \(adds)")
                }
                for word in 0..<layout.words {
                    let required = layout.word(word, of: model.requires[target.index])
                    if required != 0 { body.append("assert((kd\(word)[sp] & \(required)) == \(required))") }
                }
                out.append("    /* \(comment(model.states[state])) --\(comment(model.name(of: move.event)))--> \(comment(model.name(of: target))) */")
                out.append("    :: d_step { st[sp] == \(state) && sp < DEPTH -> \(body.joined(separator: "; ")) }")
            }
        }
        let backStates = (0..<model.stateCount).filter { !model.isTerminal[$0] && model.canGoBack[$0] }
        if !backStates.isEmpty {
            let noBack = (0..<model.stateCount).filter { !backStates.contains($0) }
            let guardText = backStates.count <= noBack.count || noBack.isEmpty
                ? (noBack.isEmpty ? "" : " && (" + backStates.map { "st[sp] == \($0)" }.joined(separator: " || ") + ")")
                : " && " + noBack.map { "st[sp] != \($0)" }.joined(separator: " && ")
            var body = ["st[sp] = 0"]
            for word in 0..<layout.words { body.append("kd\(word)[sp] = 0") }
            body.append("sp--")
            out.append("    /* back: pop the top frame where the spec allows it */")
            out.append("    :: d_step { sp > 0\(guardText) -> \(body.joined(separator: "; ")) }")
        }
        out.append("    od")
        out.append("}")
        return out.joined(separator: "\n") + "\n"
    }

    /// How ids and key sets map onto Promela's integer types.
    struct Layout {
        var stateType: String
        var spType: String
        var wordType: String
        var bitsPerWord: Int
        var words: Int

        init(model: FlowModel, depth: Int) {
            stateType = Self.type(holding: model.stateCount - 1)
            spType = Self.type(holding: depth)
            let keys = model.keys.count
            switch keys {
            case ...8: (wordType, bitsPerWord) = ("byte", 8)
            case ...15: (wordType, bitsPerWord) = ("short", 15)
            default: (wordType, bitsPerWord) = ("int", 31)
            }
            words = max(1, (keys + bitsPerWord - 1) / bitsPerWord)
        }

        /// The smallest unsigned-or-signed Promela type that holds `0...largest`.
        static func type(holding largest: Int) -> String {
            largest <= 255 ? "byte" : largest <= 32_767 ? "short" : "int"
        }

        /// Word `word` of `set`: the bits of keys `word * bitsPerWord ..< (word + 1) * bitsPerWord`.
        func word(_ word: Int, of set: KeySet) -> UInt64 {
            (set.bits >> UInt64(word * bitsPerWord)) & ((1 << UInt64(bitsPerWord)) - 1)
        }
    }

    /// `text` made safe inside a Promela comment.
    static func comment(_ text: String) -> String {
        text.replacingOccurrences(of: "*/", with: "* /").replacingOccurrences(of: "/*", with: "/ *")
            .replacingOccurrences(of: "\n", with: " ")
    }
}
