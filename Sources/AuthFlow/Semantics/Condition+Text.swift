/// A compiled guard as a person reads it on an edge label or in a report: `nextStep = done`, `attempts < 3`.
extension Condition {
    /// The guard in words, with `model`'s names: `has email`, `no email`, `k = v`, `k ∈ {a, b}`,
    /// `n ≥ 2`, `n < 3`, `a ∧ b`, `a ∨ b`, `¬a`, `at s`; nested groups in parentheses.
    package func text(_ model: FlowModel) -> String {
        switch self {
        case let .present(k): return "has \(model.keys[k])"
        case let .absent(k): return "no \(model.keys[k])"
        case let .valueIn(k, mask):
            let values = model.layout.domains[k].indices.filter { mask & (1 << UInt64($0)) != 0 }.map { model.layout.domains[k][$0] }
            return values.count == 1 ? "\(model.keys[k]) = \(values[0])" : "\(model.keys[k]) ∈ {\(values.joined(separator: ", "))}"
        case let .atLeast(k, n): return "\(model.keys[k]) ≥ \(n)"
        case let .below(k, n): return "\(model.keys[k]) < \(n)"
        case let .all(conditions): return conditions.isEmpty ? "true" : conditions.map { $0.grouped(model) }.joined(separator: " ∧ ")
        case let .any(conditions): return conditions.isEmpty ? "false" : conditions.map { $0.grouped(model) }.joined(separator: " ∨ ")
        case let .not(condition): return "¬\(condition.grouped(model))"
        case let .at(states): return "at \(states.sorted().map { model.states[Int($0)] }.joined(separator: ", "))"
        }
    }

    /// The text, in parentheses when it joins several parts.
    private func grouped(_ model: FlowModel) -> String {
        switch self {
        case let .all(conditions) where conditions.count > 1, let .any(conditions) where conditions.count > 1: return "(\(text(model)))"
        default: return text(model)
        }
    }
}
