/// Section 6 compiled: the factor keys as bit masks and the level each state asks for, with the one
/// function that decides which level a frame meets.
///
/// Every part of the checker (the complete check, the ways in, the lockstep walk, the random
/// tester, conformance and traces) asks ``level(keys:)`` or ``meets(state:keys:)``: there is no
/// other place that decides assurance. A frame's present factor keys are `keys & factorMask`;
/// the level needs three mask tests, no string and no dictionary.
///
/// - Complexity: ``level(keys:)`` is O(1): a few `AND`s and comparisons on one word.
public struct FlowAssurance: Hashable, Sendable {
    /// The factor keys' ids (``KeyID`` indices), in declaration order.
    public let factorKeys: [Int]
    /// Per factor key, by the same index: its kind.
    public let factorKinds: [FlowSpec.FactorKind]
    /// The bits of every factor key.
    public let factorMask: UInt64
    /// The bits of the factor keys of each kind, in ``FlowSpec/FactorKind/allCases`` order.
    @usableFromInline let kindMasks: [UInt64]
    /// The bits of the possession factors that are phishing-resistant: one of them present lifts `aal2` to `aal3`.
    @usableFromInline let strongPossession: UInt64
    /// Per state: the level its step asks for (`none` when it asks for nothing).
    public let required: [AssuranceLevel]
    /// Whether the spec uses section 6 at all (`factors` or some step's `assurance`): only then is there a ways-in report.
    public let isUsed: Bool

    /// The assurance of a flow that uses none of section 6: nothing asked, no factor.
    static func unused(states: Int) -> FlowAssurance {
        FlowAssurance(factorKeys: [], factorKinds: [], phishingResistant: [], required: Array(repeating: .none, count: states), isUsed: false)
    }

    init(factorKeys: [Int], factorKinds: [FlowSpec.FactorKind], phishingResistant: [Bool], required: [AssuranceLevel], isUsed: Bool) {
        self.factorKeys = factorKeys
        self.factorKinds = factorKinds
        var mask: UInt64 = 0, strong: UInt64 = 0
        var kindMasks = [UInt64](repeating: 0, count: FlowSpec.FactorKind.allCases.count)
        for (i, key) in factorKeys.enumerated() {
            let bit: UInt64 = 1 << UInt64(key)
            mask |= bit
            if let kind = FlowSpec.FactorKind.allCases.firstIndex(of: factorKinds[i]) { kindMasks[kind] |= bit }
            // Phishing resistance counts only on something the user has.
            if phishingResistant[i] && factorKinds[i] == .possession { strong |= bit }
        }
        self.factorMask = mask
        self.kindMasks = kindMasks
        self.strongPossession = strong
        self.required = required
        self.isUsed = isUsed
    }

    /// Whether some step asks for a level: only then is the `assurance` property checked.
    public var protectsSomeStep: Bool { required.contains { $0 != .none } }

    /// The level the factor keys present in `keys` (a frame's presence bits) meet.
    ///
    /// `none` with no factor key present; `aal1` with one or more of a single kind; `aal2` with keys of
    /// two distinct kinds; `aal3` when, besides, a present key is a phishing-resistant possession factor.
    /// A valued factor key counts when present, whatever its value.
    @inlinable public func level(keys: UInt64) -> AssuranceLevel {
        let present = keys & factorMask
        if present == 0 { return .none }
        var kinds = 0
        for mask in kindMasks where present & mask != 0 { kinds += 1 }
        if kinds < 2 { return .aal1 }
        return present & strongPossession != 0 ? .aal3 : .aal2
    }

    /// Whether a frame at `state` with presence bits `keys` meets the level its step asks for
    /// (always, at a step that asks for none). The `assurance` property is broken where this is false.
    @inlinable public func meets(state: Int, keys: UInt64) -> Bool {
        let asked = required[state]
        return asked == .none || level(keys: keys) >= asked
    }
}
