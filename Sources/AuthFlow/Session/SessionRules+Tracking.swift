extension SessionRules {
    /// What a tracker records of a move by the rules: the keys the emission, the fired row's own effects and its target's
    /// `entry` added or set, the keys they and the row's clears cleared (names only), and the values of the valued keys
    /// added or set that are not secret.
    @usableFromInline
    func trackedData(state: Int, emission index: Int, row fired: Int, keys: UInt64, values: UInt64)
        -> (added: [Key], cleared: [Key], values: [Key: String]) {
        let emission = model.emissions[state][index]
        let layout = model.layout
        var setKeys = emission.addValued + emission.setKeys
        var added = emission.addKeys
        var clearKeys = emission.clearKeys, clearValues = emission.clearValues
        if let row = emission.rows.first(where: { $0.row == fired }) {
            clearKeys |= row.clearKeys
            clearValues |= row.clearValues
            for effects in [row.effects, row.entry] {
                added |= effects.addKeys
                setKeys += effects.setKeys
                clearKeys |= effects.clearKeys
                clearValues |= effects.clearValues
            }
        }
        for key in setKeys { added |= 1 << UInt64(key) }
        var cleared = clearKeys
        for key in 0..<model.keys.count where clearValues & layout.mask(key) != 0 {
            cleared |= 1 << UInt64(key)
        }
        var shown: [Key: String] = [:]
        for key in setKeys where model.secrets.bits & (1 << UInt64(key)) == 0 {
            if let text = layout.shown(key, keys: keys, values: values) { shown[self.keys[key]] = text }
        }
        func names(_ bits: UInt64) -> [Key] { (0..<model.keys.count).filter { bits & (1 << UInt64($0)) != 0 }.map { self.keys[$0] } }
        return (names(added), names(cleared), shown)
    }
}
