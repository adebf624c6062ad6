/// Section 6 declared in Swift: which keys prove a factor, and the level a screen asks for.
/// Either makes the definition an `authflow/2` flow.
///
/// ```swift
/// flow.factor(.password, .knowledge)
/// flow.factor(.passkey, .possession, phishingResistant: true)
/// flow.factor(.otpPassed, .possession)
/// flow.assurance(.home, .aal2)
/// ```
extension FlowDefinition {
    /// Declares that `key`'s presence proves one authentication factor of `kind`.
    /// - Parameters:
    ///   - key: a presence or valued key some step adds (a counter or a config key is refused when the model is built).
    ///   - kind: what the key proves: something the user knows, has or is.
    ///   - phishingResistant: a passkey or a security key; counts towards `aal3` only on a possession factor.
    public mutating func factor(_ key: Key, _ kind: FlowSpec.FactorKind, phishingResistant: Bool = false) {
        factors.append(FlowSpec.Factor(key.flowName, kind, phishingResistant: phishingResistant))
        extraKeys.append(key)
    }

    /// Declares the level every configuration at `state` must meet (the built-in property `assurance`).
    ///
    /// `state` needs a step of its own (declared with `step`); a later call for the same state replaces the level.
    public mutating func assurance(_ state: State, _ level: AssuranceLevel) {
        assuranceLevels.append((state.flowName, level))
    }

    /// Adds the factors and the steps' levels to `spec`.
    func addAssurance(to spec: inout FlowSpec) {
        spec.factors = factors
        for (state, level) in assuranceLevels {
            for i in spec.steps.indices where spec.steps[i].state == state { spec.steps[i].assurance = level }
        }
    }
}
