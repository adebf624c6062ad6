import AuthFlow

/// A Promela boolean expression, folded as it is built so that a test whose answer is known never reaches the text.
///
/// The exporter states every guard of the model as one of these: a guard on data an emission's
/// effects have just written is known (an added key is present, a value set is that value), so
/// most of a `/2` guard folds to a constant before it is written, and an `authflow/1` flow's
/// guards vanish entirely.
enum PromelaExpression: Hashable {
    case constant(Bool)
    /// A comparison, with its negation written out (`(kd0 & 2) != 0` / `(kd0 & 2) == 0`).
    case test(String, negated: String)
    case all([PromelaExpression])
    case any([PromelaExpression])

    static let `true` = PromelaExpression.constant(true)
    static let `false` = PromelaExpression.constant(false)

    /// Every operand holds; constants folded, nested conjunctions flattened.
    static func all(of operands: [PromelaExpression]) -> PromelaExpression {
        var kept: [PromelaExpression] = []
        for operand in operands {
            switch operand {
            case .constant(true): continue
            case .constant(false): return .false
            case let .all(inner): kept.append(contentsOf: inner)
            default: kept.append(operand)
            }
        }
        return kept.isEmpty ? .true : kept.count == 1 ? kept[0] : .all(kept)
    }

    /// Some operand holds; constants folded, nested disjunctions flattened, repeats dropped (branches often test alike).
    /// - Complexity: O(n) for n operands.
    static func any(of operands: [PromelaExpression]) -> PromelaExpression {
        var kept: [PromelaExpression] = []
        var seen = Set<PromelaExpression>()
        for operand in operands {
            switch operand {
            case .constant(false): continue
            case .constant(true): return .true
            case let .any(inner): for item in inner where seen.insert(item).inserted { kept.append(item) }
            default: if seen.insert(operand).inserted { kept.append(operand) }
            }
        }
        return kept.isEmpty ? .false : kept.count == 1 ? kept[0] : .any(kept)
    }

    /// The negation, pushed down to the comparisons (De Morgan), so the text never needs `!`.
    var negated: PromelaExpression {
        switch self {
        case let .constant(value): return .constant(!value)
        case let .test(text, negated): return .test(negated, negated: text)
        case let .all(operands): return .any(of: operands.map(\.negated))
        case let .any(operands): return .all(of: operands.map(\.negated))
        }
    }

    /// The text, parenthesised where a compound sits inside another.
    var text: String {
        switch self {
        case let .constant(value): return value ? "true" : "false"
        case let .test(text, _): return text
        case let .all(operands): return operands.map(\.operandText).joined(separator: " && ")
        case let .any(operands): return operands.map(\.operandText).joined(separator: " || ")
        }
    }

    private var operandText: String {
        switch self {
        case .all, .any: return "(\(text))"
        default: return text
        }
    }
}

/// The data of a frame as the exporter writes it: read from the frame's variables, or known after effects.
///
/// Starts as "everything as the frame holds it" and follows an emission's effects, in the order
/// ``FlowModel/applying(_:branch:keys:values:)`` applies them, so a guard on the result is a guard
/// on the frame before it, with what the effects wrote folded in.
struct PromelaData {
    /// A key's field (a valued key's value index, a counter's count).
    enum Field: Hashable {
        /// Known.
        case constant(Int)
        /// The frame's field plus `plus` increments, capped at the counter's max.
        case frame(plus: Int)
    }

    /// Per key: its presence when an effect fixed it; `nil` reads the frame.
    var presence: [Int: Bool] = [:]
    /// Per key: its field when an effect changed it; absent reads the frame.
    var fields: [Int: Field] = [:]

    func field(_ k: Int) -> Field { fields[k] ?? .frame(plus: 0) }

    /// Removes the keys of `clearKeys` and zeroes the fields `clearValues` covers.
    mutating func clear(keys clearKeys: UInt64, values clearValues: UInt64, layout: DataLayout) {
        for k in layout.kinds.indices {
            if clearKeys & (1 << UInt64(k)) != 0 { presence[k] = false }
            if layout.mask(k) != 0 && clearValues & layout.mask(k) != 0 { fields[k] = .constant(0) }
        }
    }

    /// After effects that never branch (a row's own, a step's `entry`): clears, adds, set, increment.
    func applying(_ effects: FlowModel.Effects, layout: DataLayout) -> PromelaData {
        var data = self
        data.clear(keys: effects.clearKeys, values: effects.clearValues, layout: layout)
        for k in layout.kinds.indices where effects.addKeys & (1 << UInt64(k)) != 0 { data.presence[k] = true }
        for (key, value) in zip(effects.setKeys, effects.setValues) {
            data.presence[key] = true
            data.fields[key] = .constant(value)
        }
        for key in effects.increment {
            guard case let .counter(max) = layout.kinds[key] else { continue }
            switch data.field(key) {
            case let .constant(value): data.fields[key] = .constant(Swift.min(max, value + 1))
            case let .frame(plus): data.fields[key] = .frame(plus: plus + 1)
            }
        }
        return data
    }

    /// After `emission`'s effects for `branch`: clears, adds (the branch's values), set, increment.
    func applying(_ emission: FlowModel.Emission, branch: Int, layout: DataLayout) -> PromelaData {
        var data = self
        data.clear(keys: emission.clearKeys, values: emission.clearValues, layout: layout)
        for k in layout.kinds.indices where emission.addKeys & (1 << UInt64(k)) != 0 { data.presence[k] = true }
        // The branch's answers, decoded by the semantics (the first added key varies slowest).
        for (key, value) in zip(emission.addValued, emission.branchValues(branch)) {
            data.presence[key] = true
            data.fields[key] = .constant(value)
        }
        for (key, value) in zip(emission.setKeys, emission.setValues) {
            data.presence[key] = true
            data.fields[key] = .constant(value)
        }
        for key in emission.increment {
            guard case let .counter(max) = layout.kinds[key] else { continue }
            switch data.field(key) {
            case let .constant(value): data.fields[key] = .constant(Swift.min(max, value + 1))
            case let .frame(plus): data.fields[key] = .frame(plus: plus + 1)
            }
        }
        return data
    }
}
