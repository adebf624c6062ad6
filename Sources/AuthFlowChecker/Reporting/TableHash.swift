import AuthFlow

extension FlowModel {
    /// A fingerprint of the flow's table: FNV-1a (64 bits) over its rows and each step's emissions, in declaration order.
    ///
    /// Saved paths (regressions, trails) carry it, so a path recorded against one version of a
    /// flow is recognised when the table has changed since. Printed as 16 lowercase hex digits.
    package var tableHash: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            hash ^= 0x1F
            hash &*= 0x0000_0100_0000_01b3
        }
        for row in rows {
            mix(states[row.from.index]); mix(events[row.event.index]); mix(states[row.to.index])
        }
        for (state, moves) in moves.enumerated() {
            mix(states[state])
            for move in moves {
                mix(events[move.event.index])
                for key in move.addedKeys { mix(keys[key.index]) }
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
