/// A guard compiled to key ids and bit masks, evaluated on a frame without touching a name.
///
/// Built by the model from a ``FlowSpec/Guard``: `equals` becomes one ``valueIn(_:mask:)`` per
/// key (an absent key equals nothing), `in` likewise, `has`/`missing` test the presence bit.
///
/// Only ``not(_:)`` is boxed: a test of one key is held inline, so reading a row's guard retains nothing (every case
/// boxed cost a retain and a release per guard the configuration search tested).
@usableFromInline package enum Condition: Hashable, Sendable {
    /// Key `k` is present.
    case present(Int)
    /// Key `k` is absent.
    case absent(Int)
    /// Valued key `k` is present and its value index is in `mask` (bit `i` for value `i`).
    case valueIn(Int, mask: UInt64)
    /// Counter `k` is at least `n`.
    case atLeast(Int, Int)
    /// Counter `k` is below `n`.
    case below(Int, Int)
    /// Every condition holds.
    case all([Condition])
    /// Some condition holds.
    case any([Condition])
    /// The condition does not hold.
    indirect case not(Condition)
    /// The state is one of these raw ids.
    case at(Set<Int32>)

    /// Whether the condition holds in the frame `(state, keys, values)`.
    /// - Complexity: O(size of the condition).
    @usableFromInline package func holds(state: Int32, keys: UInt64, values: UInt64, layout: DataLayout) -> Bool {
        switch self {
        case .present, .absent, .valueIn:
            // The tests of one key are defined once, where a guard is read in place.
            return Optional(self).holdsOrAbsent(state: state, keys: keys, values: values, layout: layout)
        case let .atLeast(k, n): return layout.field(k, in: values) >= n
        case let .below(k, n): return layout.field(k, in: values) < n
        case let .all(conditions): return conditions.allSatisfy { $0.holds(state: state, keys: keys, values: values, layout: layout) }
        case let .any(conditions): return conditions.contains { $0.holds(state: state, keys: keys, values: values, layout: layout) }
        case let .not(condition): return !condition.holds(state: state, keys: keys, values: values, layout: layout)
        case let .at(states): return states.contains(state)
        }
    }

    /// Every condition of `conditions`: the one itself when there is one, so a frame tests it without a list.
    package static func all(folding conditions: [Condition]) -> Condition {
        conditions.count == 1 ? conditions[0] : .all(conditions)
    }

    /// The keys the condition reads.
    package var keys: Set<Int> {
        switch self {
        case let .present(k), let .absent(k), let .valueIn(k, _), let .atLeast(k, _), let .below(k, _): return [k]
        case let .all(conditions), let .any(conditions): return conditions.reduce(into: Set<Int>()) { $0.formUnion($1.keys) }
        case let .not(condition): return condition.keys
        case .at: return []
        }
    }

    /// Whether the condition holds whatever the data (no test, or only tests that always pass).
    package var isAlwaysTrue: Bool {
        if case let .all(conditions) = self { return conditions.allSatisfy(\.isAlwaysTrue) }
        return false
    }
}

extension Optional where Wrapped == Condition {
    /// Whether the guard holds in the frame; no guard holds everywhere. A test of one key is made here, in line, on the
    /// guard where it lies; only a compound guard is copied out to ``Condition/holds(state:keys:values:layout:)`` (a copy
    /// and a release per guard tested cost the configuration search about a tenth of its time).
    @inlinable @inline(__always)
    package func holdsOrAbsent(state: Int32, keys: UInt64, values: UInt64, layout: DataLayout) -> Bool {
        switch self {
        case .none: return true
        case let .present(k)?: return keys & (1 << UInt64(k)) != 0
        case let .absent(k)?: return keys & (1 << UInt64(k)) == 0
        case let .valueIn(k, mask)?: return keys & (1 << UInt64(k)) != 0 && mask & (1 << UInt64(layout.field(k, in: values))) != 0
        case let condition?: return condition.holds(state: state, keys: keys, values: values, layout: layout)
        }
    }
}

