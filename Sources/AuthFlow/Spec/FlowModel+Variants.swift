/// Choosing which `authflow/2` variants a run covers: `--variant recovery=code`.
extension FlowModel {
    /// The model restricted to the variants `selection` allows: for each config key it names, the
    /// values listed (a key named twice allows either value); keys it does not name keep every value.
    /// Variants keep their order and their indices are renumbered from 0.
    /// - Throws: ``VariantSelectionError`` for a flow without config, an unknown key or a value outside its domain.
    public func selectingVariants(_ selection: [String: Set<String>]) throws(VariantSelectionError) -> FlowModel {
        guard !selection.isEmpty else { return self }
        guard !spec.config.isEmpty else { throw .noConfig }
        for (key, values) in selection.sorted(by: { $0.key < $1.key }) {
            guard let declared = spec.config.first(where: { $0.key == key }) else {
                throw .unknownKey(key, known: spec.config.map(\.key))
            }
            for value in values.sorted() where !declared.values.contains(value) {
                throw .unknownValue(key: key, value: value, domain: declared.values)
            }
        }
        let kept = variants.indices.filter { index in
            variants[index].allSatisfy { pair in selection[pair.key]?.contains(pair.value) ?? true }
        }
        var model = self
        model.roots = kept.map { roots[$0] }
        model.variants = kept.map { variants[$0] }
        return model
    }
}

extension FlowModel {
    /// The model with only variant `index` (an index of ``variantNames``), renumbered 0.
    package func keepingVariant(_ index: Int) -> FlowModel {
        var model = self
        model.roots = [roots[index]]
        model.variants = [variants[index]]
        return model
    }
}

/// Why a variant selection does not fit a flow.
public enum VariantSelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The flow declares no `config`, so it has one variant and nothing to select.
    case noConfig
    /// `key` is not a config key of the flow.
    case unknownKey(String, known: [String])
    /// `value` is not one of `key`'s values.
    case unknownValue(key: String, value: String, domain: [String])

    public var description: String {
        switch self {
        case .noConfig:
            return "the flow declares no config, so it has no variants to choose"
        case let .unknownKey(key, known):
            return "'\(key)' is not a config key of the flow; its config keys are \(known.joined(separator: ", "))"
        case let .unknownValue(key, value, domain):
            return "'\(value)' is not a value of config key \(key); its values are \(domain.joined(separator: ", "))"
        }
    }
}
