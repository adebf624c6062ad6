/// Reading section 6 of a spec file: top-level `factors` and each step's `assurance`.
///
/// Only the shape is checked here (an object per factor, a known kind, a boolean, a known level);
/// whether a factor names a key that can prove anything (not a counter, not a config key, a key of
/// the flow) is the model builder's to say, at the same path.
extension _SpecReader {
    /// `factors`: `{key: {"kind": ..., "phishingResistant": bool}}`, in declaration order.
    mutating func readFactors(_ node: JSONNode?) -> [FlowSpec.Factor] {
        guard let node else { return [] }
        let path = JSONPath.root.member("factors")
        guard case let .object(list) = node.value else {
            fail(path, node, "factors must be an object mapping each factor's data key to {\"kind\": ...}, found \(node.value.typeName)"
                 + "; write {\"password\": {\"kind\": \"knowledge\"}}")
            return []
        }
        var factors: [FlowSpec.Factor] = []
        for member in list where !member.key.hasPrefix("x-") {
            let keyPath = path.member(member.key)
            guard checkName(member.key, at: keyPath, member.keyLocation, what: "data key") else { continue }
            note(keyPath, member.value)
            let name = SpecLimits.shown(member.key)
            guard case .object = member.value.value else {
                fail(keyPath, member.value, "the factor '\(name)' must be an object with its kind, found \(member.value.value.typeName)"
                     + "; write {\"kind\": \"knowledge\" | \"possession\" | \"inherence\"}")
                continue
            }
            guard let fields = members(member.value, at: keyPath, known: SpecKeys.factor, what: "the factor '\(name)'") else { continue }
            guard let kindNode = fields["kind"] else {
                fail(keyPath, member.value, "the factor '\(name)' needs a kind: add \"kind\": \"knowledge\", \"possession\" or \"inherence\"")
                continue
            }
            let kind = factorKind(kindNode, at: keyPath.member("kind"))
            var phishingResistant = false
            if let flag = fields["phishingResistant"] {
                if case let .bool(value) = flag.value {
                    phishingResistant = value
                } else {
                    fail(keyPath.member("phishingResistant"), flag, "phishingResistant must be true or false, found \(flag.value.described)")
                }
            }
            if let kind { factors.append(FlowSpec.Factor(member.key, kind, phishingResistant: phishingResistant)) }
        }
        return factors
    }

    /// A factor's `kind`: `"knowledge"`, `"possession"` or `"inherence"`.
    mutating func factorKind(_ node: JSONNode, at path: JSONPath) -> FlowSpec.FactorKind? {
        let kinds = FlowSpec.FactorKind.allCases.map(\.rawValue)
        let listed = kinds.map { "\"\($0)\"" }.joined(separator: ", ")
        guard case let .string(text) = node.value else {
            fail(path, node, "kind must be one of \(listed), found \(node.value.typeName)")
            return nil
        }
        if let kind = FlowSpec.FactorKind(rawValue: text) { return kind }
        let hint = SpecLoader.suggestion(for: text, among: kinds).map { "; did you mean '\($0)'?" } ?? ""
        fail(path, node, "unknown factor kind '\(SpecLimits.shown(text))'\(hint) (kinds: \(listed): what the user knows, has or is)")
        return nil
    }

    /// A step's `assurance`: `"aal1"`, `"aal2"` or `"aal3"`.
    mutating func readAssurance(_ node: JSONNode, at path: JSONPath) -> AssuranceLevel? {
        let levels = AssuranceLevel.required.map(\.rawValue)
        let listed = levels.map { "\"\($0)\"" }.joined(separator: ", ")
        guard case let .string(text) = node.value else {
            let hint = if case let .number(number) = node.value, let level = number.int, (1...3).contains(level) {
                "; write \"aal\(level)\""
            } else { "" }
            fail(path, node, "assurance must be one of \(listed), found \(node.value.typeName)\(hint)")
            return nil
        }
        if let level = AssuranceLevel(rawValue: text), level != .none { return level }
        let hint: String
        if text == "none" {
            hint = "; a step that asks for nothing leaves assurance out"
        } else if let near = SpecLoader.suggestion(for: text, among: levels) {
            hint = "; did you mean '\(near)'?"
        } else {
            hint = ""
        }
        fail(path, node, "unknown assurance level '\(SpecLimits.shown(text))'\(hint) (levels: \(listed))")
        return nil
    }
}
