/// How many frames the user's back takes off a history whose frames may update the one below in place (section 5's
/// `"history": "replace"`): the one definition the runtime, the random tester's lockstep frames and trace replay share.
@usableFromInline package enum BackFrames {
    /// The top frame and every frame below it that updated the next one down in place, for a history of `height` frames
    /// where `replaces(i)` says frame `i` (0 the root) updated frame `i - 1`; 0 when that would leave no frame (the
    /// user is on the root's screen).
    /// - Complexity: O(frames taken off).
    @inlinable @inline(__always)
    package static func count(height: Int, replaces: (Int) -> Bool) -> Int {
        var count = 1
        while count < height && replaces(height - count) { count += 1 }
        return count < height ? count : 0
    }
}
