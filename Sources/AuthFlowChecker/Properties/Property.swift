import AuthFlow

/// A property authcheck decides, by its stable id (used in output and `--property`): one of the
/// built-in ones, or a rule the spec states (`properties` in `authflow/2`).
///
/// Properties order as the built-in ones are listed, then the spec's in declaration order.
public struct Property: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The id as printed and as `--property` takes it.
    public let id: String
    /// Where it sorts: a built-in property's place in ``builtIn``, or 1000 plus a user property's place in the spec.
    let rank: Int
    /// For a user property: what it demands and the condition, as the spec states them.
    public let rule: FlowModel.UserProperty?

    private init(builtIn id: String, rank: Int) {
        self.id = id
        self.rank = rank
        self.rule = nil
    }

    /// The user property `rule`, the `index`-th of its spec.
    public init(rule: FlowModel.UserProperty, index: Int) {
        self.id = rule.id
        self.rank = 1000 + index
        self.rule = rule
    }

    public static let illegalTransition = Property(builtIn: "illegal-transition", rank: 0)
    public static let unmetRequirement = Property(builtIn: "unmet-requirement", rank: 1)
    public static let deadlock = Property(builtIn: "deadlock", rank: 2)
    public static let noExit = Property(builtIn: "no-exit", rank: 3)
    public static let terminalExit = Property(builtIn: "terminal-exit", rank: 4)
    public static let undoMismatch = Property(builtIn: "undo-mismatch", rank: 6)
    public static let divergence = Property(builtIn: "divergence", rank: 7)
    public static let passcode = Property(builtIn: "passcode", rank: 8)
    /// Section 6: every reachable configuration of a step that declares `assurance` meets that level.
    ///
    /// Built in, but not in ``builtIn``: it applies only to a spec some step of which declares a level
    /// (``assuranceProperties(of:)``), so the reports of every other spec list what they always listed.
    public static let assurance = Property(builtIn: "assurance", rank: 5)

    /// The built-in properties, in the order reports list them.
    public static let builtIn: [Property] = [.illegalTransition, .unmetRequirement, .deadlock, .noExit, .terminalExit,
                                             .undoMismatch, .divergence, .passcode]

    /// The built-in property with id `id`, if there is one.
    public init?(builtInID id: String) {
        guard let property = (Self.builtIn + [.assurance]).first(where: { $0.id == id }) else { return nil }
        self = property
    }

    /// `[.assurance]` when some step of `model` declares `assurance`, else none: the built-in property of section 6.
    public static func assuranceProperties(of model: FlowModel) -> [Property] {
        model.assurance.protectsSomeStep ? [.assurance] : []
    }

    /// The property with id `id`, as `--property` names it before the spec is read: a built-in one, or
    /// a name for a spec's own property that equals it (properties are equal by id).
    public init(id: String) {
        self = Property(builtInID: id) ?? Property(builtIn: id, rank: 999)
    }

    /// The properties decided on the spec's configuration graph (complete, no depth bound).
    public static let specProperties: [Property] = [.illegalTransition, .unmetRequirement, .deadlock, .noExit, .terminalExit]

    /// The spec's own properties, in declaration order.
    public static func userProperties(of model: FlowModel) -> [Property] {
        model.properties.enumerated().map { Property(rule: $1, index: $0) }
    }

    /// Every property that applies to `model`: the built-in ones, then the spec's own.
    public static func all(of model: FlowModel) -> [Property] { builtIn + assuranceProperties(of: model) + userProperties(of: model) }

    /// Whether the spec states it (`properties`), not authcheck.
    public var isUserDefined: Bool { rule != nil }

    public static func == (lhs: Property, rhs: Property) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    public static func < (lhs: Property, rhs: Property) -> Bool {
        lhs.rank != rhs.rank ? lhs.rank < rhs.rank : lhs.id < rhs.id
    }

    public var description: String { id }

    /// One line saying what the property demands.
    public var summary: String {
        if let rule {
            if let text = rule.description, !text.isEmpty { return text }
            return "\(rule.kind.rawValue) \(rule.text)"
        }
        switch id {
        case "illegal-transition": return "every event a reachable step emits has a transition"
        case "unmet-requirement": return "every reachable screen is entered with the data it requires"
        case "deadlock": return "every reachable non-terminal state has a legal forward move"
        case "no-exit": return "a terminal state stays reachable from every reachable state"
        case "terminal-exit": return "terminal states emit nothing and have no outgoing transitions"
        case "undo-mismatch": return "back restores exactly the previous state and data, and a rejected event changes nothing"
        case "divergence": return "the runtime agrees with the spec's semantics"
        case "assurance": return "every reachable screen that declares an assurance level is reached with the factors that level needs"
        default: return "the passcode normaliser is idempotent, stays within the policy, reads back every code however it is typed, and reports short and overlong input"
        }
    }
}
