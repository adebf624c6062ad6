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
    ///
    /// With `height` nil the history is not compared, and neither snapshot shows one: an app's
    /// own coordinator keeps no history the checker can read, so only what it holds is compared.
    /// - Parameters:
    ///   - expected: the value the model expects for each key in `keys`.
    ///   - display: how a value prints.
    /// - Complexity: O(k) driver queries for k keys in the flow.
    func compare<Driver: FlowDriver>(_ driver: Driver, state: Int32, height: Int?, keys: UInt64,
                                     expected: (KeyID) -> FlowValue, display: (FlowValue) -> String) -> FrameMismatch? {
        var differences: [FrameMismatch.Difference] = []
        let actualState = driver.state
        let expectedState = model.states[Int(state)]
        let actualStateName = actualState.index >= 0 && actualState.index < model.stateCount
            ? model.states[actualState.index] : (driver as? NamesUnknownStates)?.name(of: actualState) ?? "\(actualState)"
        if actualState.rawValue != state {
            differences.append(.state(actual: actualStateName, expected: expectedState))
        }
        let actualHeight = height == nil ? nil : driver.height
        if let height, let actualHeight, actualHeight != height {
            differences.append(.height(actual: actualHeight, expected: height))
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
            actual: FrameSnapshot(state: actualStateName, height: actualHeight, data: actualData, dataCount: driver.dataCount),
            differences: differences)
    }
}

/// A driver whose implementation can be in states the spec does not name, and can say what they are called.
protocol NamesUnknownStates {
    /// The implementation's name for `state`, an id the driver gave a state the model does not know.
    func name(of state: StateID) -> String?
}
