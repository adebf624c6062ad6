import AuthFlow

extension LoginEventNames {
    /// Where a call runs in a flow: the operation, the provider, and the state whose step sends its outcome.
    public struct Call: Hashable, Sendable {
        public var operation: LoginOperation
        public var provider: ProviderKind
        /// The state (screen) whose step emits the call's outcome.
        public var state: String

        public init(_ operation: LoginOperation, provider: ProviderKind = .emailPassword, at state: String) {
            self.operation = operation
            self.provider = provider
            self.state = state
        }
    }

    /// What is wrong with these names for `model`: for each call, every event its outcomes map to must be one its step emits.
    ///
    /// The mapping is given once, here; this checks it against the spec, so a renamed event in either
    /// is caught in a test rather than on a device. Each problem names the state, the event, the
    /// outcome and, when the step emits a close name, the one it probably meant.
    ///
    /// ```swift
    /// let problems = LoginEventNames.default.problems(against: model, calls: [
    ///     .init(.signIn, at: "password"), .init(.verifyMFA, at: "mfaCode"), .init(.resendMFA, at: "mfaCode"),
    /// ])
    /// #expect(problems.isEmpty, "\(problems)")
    /// ```
    /// - Returns: one line per problem, empty when every mapped event is emitted where its call runs.
    public func problems(against model: FlowModel, calls: [Call]) -> [String] {
        var problems: [String] = []
        for call in calls {
            guard let state = model.state(named: call.state) else {
                problems.append("\(call.operation.rawValue) runs at '\(call.state)', which is not a step of the flow")
                continue
            }
            let emitted = model.moves[state.index].map { model.events[$0.event.index] }
            for event in events(of: call.operation, from: call.provider) where !emitted.contains(event) {
                let hint = Self.nearest(event, among: emitted).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append("\(call.state) never emits '\(event)', the event \(call.operation.rawValue) with \(call.provider.rawValue) "
                                + "can end in\(hint); it emits \(emitted.joined(separator: ", "))")
            }
        }
        return problems
    }

    /// The emitted name closest to `event` ignoring case: a typo (by edit distance), or a name one contains the other of.
    static func nearest(_ event: String, among names: [String]) -> String? {
        let lower = event.lowercased()
        return EditDistance.nearest(to: Array(lower.unicodeScalars), in: names, countingSwaps: true) { Array($0.lowercased().unicodeScalars) }
            ?? names.first { lower.contains($0.lowercased()) || $0.lowercased().contains(lower) }
    }
}
