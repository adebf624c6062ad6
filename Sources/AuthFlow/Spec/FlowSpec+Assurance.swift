/// Section 6 by name: which data proves an authentication factor (top-level `factors`) and how
/// strongly each screen must be reached (step `assurance`).
extension FlowSpec {
    /// What kind of proof a factor is.
    public enum FactorKind: String, Hashable, Sendable, CaseIterable {
        /// Something the user knows: a password, a PIN.
        case knowledge
        /// Something the user has: a phone that receives a code, a security key, a passkey.
        case possession
        /// Something the user is: a fingerprint, a face.
        case inherence
    }

    /// A data key whose presence proves one authentication factor.
    public struct Factor: Hashable, Sendable {
        /// The data key (a presence or valued key; never a counter or a config key).
        public var key: String
        /// What kind of proof it is.
        public var kind: FactorKind
        /// Whether it resists phishing (a passkey, a security key); counts only on a `possession` factor.
        public var phishingResistant: Bool

        public init(_ key: String, _ kind: FactorKind, phishingResistant: Bool = false) {
            self.key = key
            self.kind = kind
            self.phishingResistant = phishingResistant
        }
    }
}

/// How strongly a user has proved who they are, after NIST SP 800-63B's authenticator assurance levels,
/// simplified to what a flow can show: the factor keys present in a frame.
///
/// Levels order from the weakest: `none < aal1 < aal2 < aal3`. A step asks for one of `aal1`…`aal3`;
/// `none` is what a frame with no factor key present meets.
public enum AssuranceLevel: String, Hashable, Sendable, CaseIterable, Comparable {
    /// No factor key present.
    case none
    /// At least one factor key present.
    case aal1
    /// Factor keys of at least two distinct kinds present.
    case aal2
    /// `aal2`, and a present factor key that is phishing-resistant with kind `possession`.
    case aal3

    /// The levels a step may ask for, as the spec writes them.
    public static let required: [AssuranceLevel] = [.aal1, .aal2, .aal3]

    /// The level's rank: 0 for `none` up to 3 for `aal3`.
    public var rank: Int {
        switch self {
        case .none: return 0
        case .aal1: return 1
        case .aal2: return 2
        case .aal3: return 3
        }
    }

    public static func < (lhs: AssuranceLevel, rhs: AssuranceLevel) -> Bool { lhs.rank < rhs.rank }
}
