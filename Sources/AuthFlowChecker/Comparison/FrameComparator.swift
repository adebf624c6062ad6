import AuthFlow

/// Compares the runtime under test with the model's frame: the one comparator every search uses.
///
/// The exhaustive walk and the random-path tester both ask it, after every move they check, what
/// differs between the runtime and the frame the spec's semantics expect. It returns every
/// difference, not the first: a runtime that corrupts two keys is reported with both. Values are
/// compared exactly and shown through the caller's `display` (the walk's `#N` tokens, the
/// tester's strings); a secret key's values print as `<redacted>`.
struct FrameComparator {
    let model: FlowModel

    /// The mismatch between `driver` and the frame `(state, keys)` at history height `height`, or nil when they agree.
    /// - Parameters:
    ///   - expected: the value the model expects for each key in `keys`.
    ///   - display: how a value prints.
    /// - Complexity: O(k) driver queries for k keys in the flow.
    func compare<Driver: FlowDriver>(_ driver: Driver, state: Int32, height: Int, keys: UInt64,
                                     expected: (KeyID) -> FlowValue, display: (FlowValue) -> String) -> FrameMismatch? {
        var differences: [FrameMismatch.Difference] = []
        let actualState = driver.state
        let expectedState = model.states[Int(state)]
        let actualStateName = actualState.index >= 0 && actualState.index < model.stateCount
            ? model.states[actualState.index] : "\(actualState)"
        if actualState.rawValue != state {
            differences.append(.state(actual: actualStateName, expected: expectedState))
        }
        if driver.height != height {
            differences.append(.height(actual: driver.height, expected: height))
        }
        let expectedSet = KeySet(bits: keys)
        if driver.dataCount != expectedSet.count {
            differences.append(.dataCount(actual: driver.dataCount, expected: expectedSet.count, keys: model.names(of: expectedSet)))
        }
        var expectedData: [FrameSnapshot.Entry] = []
        var actualData: [FrameSnapshot.Entry] = []
        for index in model.keys.indices {
            let key = KeyID(Int32(index))
            let secret = model.secrets.contains(key)
            func shown(_ value: FlowValue) -> String { secret ? FlowReport.redacted : display(value) }
            let want = expectedSet.contains(key) ? expected(key) : nil
            let have = driver.value(of: key)
            if let want { expectedData.append(.init(key: model.keys[index], value: shown(want))) }
            if let have { actualData.append(.init(key: model.keys[index], value: shown(have))) }
            if want != have {
                differences.append(.value(key: model.keys[index], actual: have.map(shown), expected: want.map(shown)))
            }
        }
        guard !differences.isEmpty else { return nil }
        return FrameMismatch(
            expected: FrameSnapshot(state: expectedState, height: height, data: expectedData),
            actual: FrameSnapshot(state: actualStateName, height: driver.height, data: actualData, dataCount: driver.dataCount),
            differences: differences)
    }
}
