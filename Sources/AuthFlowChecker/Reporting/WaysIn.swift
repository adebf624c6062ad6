import AuthFlow

/// One way into a protected screen: a set of present factor keys in one variant, the level it meets,
/// and a shortest path to the first configuration that has it.
public struct WayIn: Hashable, Sendable {
    /// The factor keys present, sorted by name.
    public var factors: [String]
    /// The level they meet.
    public var level: AssuranceLevel
    /// The number of steps of a shortest path from the variant's root.
    public var length: Int
    /// The variant's config values; `nil` for a flow without `config`.
    public var variant: [FlowSpec.KeyValue]?
    /// That shortest path, one step per frame; empty when left out to keep the report bounded.
    public var path: FlowPath = []
    /// The variant's index (its order), for sorting.
    var variantIndex: Int
    /// The configuration the path leads to.
    var position: Int32

    /// Weakest first: by level, then by the number of keys, then by their sorted names, then by variant order.
    static func weakerFirst(_ lhs: WayIn, _ rhs: WayIn) -> Bool {
        if lhs.level != rhs.level { return lhs.level < rhs.level }
        if lhs.factors.count != rhs.factors.count { return lhs.factors.count < rhs.factors.count }
        if lhs.factors != rhs.factors { return lhs.factors.lexicographicallyPrecedes(rhs.factors) }
        return lhs.variantIndex < rhs.variantIndex
    }
}

/// A screen whose ways in a report lists: a step that asks for an assurance level, or a success state.
public struct ProtectedStep: Hashable, Sendable {
    /// The state.
    public var state: String
    /// The level its step asks for (`none` for a success state that asks for none).
    public var asks: AssuranceLevel
    /// Whether it is a success state.
    public var isSuccess: Bool
    /// Every way in, weakest first; empty when the state is never reached.
    public var ways: [WayIn]
}
