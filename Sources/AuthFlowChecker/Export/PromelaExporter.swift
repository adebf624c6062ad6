import AuthFlow
import Foundation

/// Writes a flow as a Promela model, so SPIN explores the space authcheck explores and reports the violations it reports.
///
/// Two spaces, one per question:
///
/// - ``Space/configurations``: every reachable frame `(state, data)` once, as the complete checker
///   searches them. The frame is a few global variables; every move is one `d_step`, so SPIN
///   stores exactly one state per configuration. Every property a safety run can state is in it:
///   `illegal-transition`, `unmet-requirement`, `terminal-exit` and the spec's own `always` and
///   `never` rules are assertions checked on every frame entered (each root, and after every
///   move), and `deadlock` is SPIN's invalid end state (a terminal state and a back-only screen
///   wait in a self-loop, so only a non-terminal frame with no forward move stops the process).
///   So `pan` reports an error of a property exactly when `authcheck check` reports a violation of
///   it (``properties(of:)``).
///   **SPIN's `states, stored` = configurations + 1.**
/// - ``Space/stacks(depth:)``: section 4's bounded stack walk. The undo stack is an array of frames
///   (`st[i]` the state of frame `i`, `kd…[i]` its presence bits, `v…[i]` its values), `sp`
///   indexes the top frame and slots above it are always zero, so two equal stacks are one state
///   vector; back is a `d_step` that pops where the spec allows it. Two events pushing the same
///   frame give the same successor, which SPIN finds in its hash table as the runtime walk
///   deduplicates siblings; a pop returns to the parent stack and a reset to a root, both stored
///   already. The same assertions are checked on every frame pushed, but back keeps a deadlocked
///   frame from blocking the process and the depth bound hides deeper frames, so this space
///   decides nothing: it is for the counts. **SPIN's `states, stored` =
///   ``RuntimeExplorer/countStacks(depth:)`` + 1.**
///
/// In both, the one extra state is SPIN's initial state, before the `d_step` that writes a root.
/// A flow with config variants starts with one nondeterministic choice of root, in variant order.
///
/// The model is generated from the compiled semantics (``FlowModel/emissions`` and the
/// ``DataLayout``), never from the spec: each emission offered in a frame and each branch of its
/// effects (one per value a valued key it adds can take) is one option of the loop, guarded by the
/// emission's `when` and by "some row holds"; inside, the rows are tried in declaration order with
/// nested `if … :: else -> if … fi fi`, the first that holds firing. Guards are written on the frame
/// before the move with the effects folded in (an added key is present, a counter incremented at
/// its max stays there), so no option is ever taken that then changes nothing.
///
/// A rule's condition is written like a guard, on the frame entered; its `at` folds away, since
/// each check is written for the one state entered. The assertion is named ``marker(_:)`` of the
/// rule (`rule_` and the id with `_` for `-`), and the header comment lists each marker with its id.
///
/// `no-exit` ("from here no terminal state can be reached") and `reachable` (some configuration
/// satisfies a guard) are not in the model: each says that some path *exists*, which no
/// assertion on one path and no end state can state; a safety run only finds paths that go wrong.
///
/// ```sh
/// authcheck export --format promela Specs/email-first.json > flow.pml
/// spin -a flow.pml && cc -O2 -DSAFETY -o pan pan.c && ./pan -c0 -m1000000
/// ```
///
/// State ids and data-key ids are the model's dense ids; the names appear in comments. Words are
/// the smallest Promela type that holds the ids (`byte`, `short`, `int`), data keys take one
/// word per 8, 15 or 31 keys, and each valued key or counter a `byte` holding its value's index or
/// its count, so SPIN's state vector is as small as the model allows.
package enum PromelaExporter {
    /// The space the model explores.
    package enum Space: Hashable, Sendable {
        /// Every reachable configuration once: the complete search, with every property a safety run can state.
        case configurations
        /// Every undo stack of at most `depth` forward events: the space the runtime walk drives.
        case stacks(depth: Int)
    }

    /// The built-in properties the configurations model states: every one a safety run can check.
    package static let properties: [Property] = [.illegalTransition, .unmetRequirement, .deadlock, .terminalExit]

    /// Every property the configurations model of `model` states: the built-in ``properties``, then
    /// the spec's own `always` and `never` rules in declaration order (a `reachable` rule is not in it).
    package static func properties(of model: FlowModel) -> [Property] {
        properties + Property.userProperties(of: model).filter { $0.rule?.kind != .reachable }
    }

    /// The name an assertion of `property` carries, so pan's message says which property failed.
    ///
    /// A built-in property's id with `_` for `-` (`unmet_requirement`); a spec's own rule the same
    /// behind `rule_` (`rule_mfa_before_session`), so no rule's name can be a Promela keyword, a
    /// variable of the model or a built-in property's marker. Ids are lowercase words joined by single
    /// hyphens, so two ids never share a marker.
    static func marker(_ property: Property) -> String {
        let name = property.id.replacingOccurrences(of: "-", with: "_")
        return Property(builtInID: property.id) == nil ? "rule_" + name : name
    }

    /// The property an error pan printed reports, if it is one of `candidates`.
    ///
    /// pan prints `pan:N: MESSAGE (at depth D)`; MESSAGE is `invalid end state` for a deadlock, or
    /// `assertion violated` and the assertion, which opens with its property's marker
    /// (`assertion violated (unmet_requirement||((kd0&2)==2))`, `assertion violated rule_mfa_before_session`).
    /// - Parameters:
    ///   - message: MESSAGE, or the whole line.
    ///   - candidates: the properties the model states, ``properties(of:)``; the built-in ones by default.
    package static func property(reportedBy message: some StringProtocol, among candidates: [Property] = properties) -> Property? {
        var text = Substring(message)
        if text.hasPrefix("pan:") { text = text.drop { $0 != " " }.dropFirst() }
        if text.hasPrefix("invalid end state") { return candidates.contains(.deadlock) ? .deadlock : nil }
        guard text.hasPrefix("assertion violated ") else { return nil }
        let assertion = text.dropFirst("assertion violated ".count).drop { $0 == "(" }
        let name = assertion.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return candidates.first { marker($0) == name }
    }

    /// Returns the Promela model of the stacks of at most `depth` forward events of `model`.
    /// - Complexity: O(Σ branches × rows) text over every state's emissions.
    package static func export(_ model: FlowModel, depth: Int) -> String {
        export(model, space: .stacks(depth: depth))
    }

    /// Returns the Promela model of `model` over `space`.
    ///
    /// - Parameters:
    ///   - model: the flow.
    ///   - space: every configuration, or every stack of at most a number of forward events.
    /// - Returns: the model's source text, for `spin -a`.
    /// - Complexity: O(Σ branches × rows) text over every state's emissions.
    package static func export(_ model: FlowModel, space: Space) -> String {
        var writer = PromelaWriter(model: model, space: space, deadline: .none)
        return writer.text() ?? ""
    }

    /// Returns the Promela model of `model` over `space`, or `nil` when `deadline` passes first (asked once per state).
    package static func export(_ model: FlowModel, space: Space, deadline: Deadline) -> String? {
        var writer = PromelaWriter(model: model, space: space, deadline: deadline)
        return writer.text()
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

        /// The word and the bit within it of key `k`.
        func bit(of k: Int) -> (word: Int, bit: UInt64) {
            (k / bitsPerWord, 1 << UInt64(k % bitsPerWord))
        }
    }

    /// `text` made safe inside a Promela comment.
    static func comment(_ text: String) -> String {
        text.replacingOccurrences(of: "*/", with: "* /").replacingOccurrences(of: "/*", with: "/ *")
            .replacingOccurrences(of: "\n", with: " ")
    }
}
