extension SessionRules {
    /// What a tracker records of a move by the rules: the keys the emission added or set, the keys it
    /// and the row (its clears given) cleared (names only), and the values of the valued keys it added or set that are not secret.
    @usableFromInline
    func trackedData(state: Int, emission index: Int, clearKeys rowClearKeys: UInt64, clearValues rowClearValues: UInt64, keys: UInt64, values: UInt64)
        -> (added: [Key], cleared: [Key], values: [Key: String]) {
        let emission = model.emissions[state][index]
        let layout = model.layout
        var added = emission.addKeys
        for key in emission.addValued + emission.setKeys { added |= 1 << UInt64(key) }
        var cleared = emission.clearKeys | rowClearKeys
        for key in 0..<model.keys.count where (emission.clearValues | rowClearValues) & layout.mask(key) != 0 {
            cleared |= 1 << UInt64(key)
        }
        var shown: [Key: String] = [:]
        for key in emission.addValued + emission.setKeys where model.secrets.bits & (1 << UInt64(key)) == 0 {
            if let text = layout.shown(key, keys: keys, values: values) { shown[self.keys[key]] = text }
        }
        func names(_ bits: UInt64) -> [Key] { (0..<model.keys.count).filter { bits & (1 << UInt64($0)) != 0 }.map { self.keys[$0] } }
        return (names(added), names(cleared), shown)
    }
}
