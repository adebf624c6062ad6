import AuthFlow

/// The built-in property `assurance` on one frame: whether its factor keys meet the level its step
/// asks for, and the words every reporter uses when they do not.
///
/// The level itself is decided in one place, ``FlowAssurance/meets(state:keys:)`` on the model's
/// semantics; the complete checker, the lockstep walk, the random tester, conformance and traces
/// all ask it through here, so they agree on every frame.
enum AssuranceCheck {
    /// Whether the frame at `state` with presence bits `keys` breaks `assurance`.
    @inline(__always)
    static func breaks(_ model: FlowModel, state: Int, keys: UInt64) -> Bool {
        !model.assurance.meets(state: state, keys: keys)
    }

    /// Whether the frame at `state` with presence bits `keys` breaks `assurance`, by the model's levels `assurance`
    /// (for a hot loop that holds them, rather than copying a model to read them).
    @inline(__always)
    static func breaks(_ assurance: FlowAssurance, state: Int, keys: UInt64) -> Bool {
        !assurance.meets(state: state, keys: keys)
    }

    /// `home asks for aal2, but is reached with only googleToken (aal1)`: the level asked, the factors present and the level they meet.
    /// - Parameter subject: what holds the frame when it is an implementation's, not the spec's (`the app`).
    static func message(_ model: FlowModel, state: Int, keys: UInt64, subject: String? = nil) -> String {
        let name = model.states[state]
        let asked = model.assurance.required[state].rawValue
        let factors = model.factorNames(keys: keys)
        let met = model.assurance.level(keys: keys).rawValue
        let present = factors.isEmpty ? "no factor (\(met))"
            : factors.count == 1 ? "only \(factors[0]) (\(met))" : "only \(factors.joined(separator: ", ")) (\(met))"
        let reached = subject.map { "\($0) is there with" } ?? "is reached with"
        return "\(name) asks for \(asked), but \(reached) \(present)"
    }
}
