import AuthFlow

extension PairSearch {
    /// The ids of the pairs the search stored, 0, 1, 2… in the order stored, found through ``TripleIndex`` as
    /// ``BackReach`` finds its configurations.
    ///
    /// A pair is two frames of three words each and a flag: too wide for one three-word key. Each version's frames
    /// get ids of their own (`(state, keys, values)`, as ``BackReach`` keys a configuration), and a pair is the key
    /// `(old frame, new frame, canPop)`. Hashing a `Pair` with a `Dictionary`'s seeded hasher cost a quarter of the
    /// diff's search over backs.
    struct PairIndex {
        var oldFrames = TripleIndex()
        var newFrames = TripleIndex()
        var pairs = TripleIndex()

        /// How many pairs it holds: the id the next one gets.
        var count: Int { pairs.count }

        /// The id of `pair`, or `nil`.
        func find(_ pair: Pair) -> Int32? {
            guard let o = oldFrames.find(UInt64(UInt32(bitPattern: pair.old.state)), pair.old.keys, pair.old.values),
                  let n = newFrames.find(UInt64(UInt32(bitPattern: pair.new.state)), pair.new.keys, pair.new.values)
            else { return nil }
            return pairs.find(UInt64(o), UInt64(n), pair.canPop ? 1 : 0)
        }

        /// Gives `pair`, which it does not hold, the next id (``count``).
        mutating func insert(_ pair: Pair) {
            func id(_ frame: Frame, in frames: inout TripleIndex) -> UInt64 {
                let state = UInt64(UInt32(bitPattern: frame.state))
                if let known = frames.find(state, frame.keys, frame.values) { return UInt64(known) }
                frames.insert(state, frame.keys, frame.values)
                return UInt64(frames.count - 1)
            }
            let o = id(pair.old, in: &oldFrames), n = id(pair.new, in: &newFrames)
            pairs.insert(o, n, pair.canPop ? 1 : 0)
        }
    }
}
