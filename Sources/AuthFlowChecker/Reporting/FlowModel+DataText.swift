import AuthFlow

extension FlowModel {
    /// The data `(keys, values)` as messages print it: `{email, nextStep=done, attempts=2}`, secrets redacted.
    func dataText(keys: UInt64, values: UInt64) -> String {
        "{" + dataEntries(keys: keys, values: values).map { key, value in value.map { "\(key)=\($0)" } ?? key }.joined(separator: ", ") + "}"
    }

    /// The keys present (and counters) with the value of each valued key or counter (`nil` for a presence key).
    func dataEntries(keys: UInt64, values: UInt64) -> [(key: String, value: String?)] {
        self.keys.indices.compactMap { k in
            guard layout.isCounter(k) || keys & (1 << UInt64(k)) != 0 else { return nil }
            guard case .presence = layout.kinds[k] else {
                let shown = secrets.contains(KeyID(k)) ? FlowReport.redacted : layout.shown(k, keys: keys, values: values)
                return (self.keys[k], shown)
            }
            return (self.keys[k], nil)
        }
    }
}
