import AuthFlow

/// Rows of the transition table whose event their `from` step never emits: a misspelled event
/// (`closehelp` for `closeHelp`) shows as a spec warning with a suggestion, where otherwise only
/// its symptoms would (an illegal transition, a deadlock, a dead row).
///
/// ```swift
/// UnemittedRows.warnings(model)
/// // [$.transitions[5].on: help never emits 'closehelp', so this row never fires (did you mean 'closeHelp'?)]
/// ```
enum UnemittedRows {
    /// The most events of a step a warning searches for a near name or lists.
    static let maxListed = 64

    /// A warning, at the row's `on`, for each row whose `from` step exists and does not emit its event;
    /// it suggests the nearest event the step emits, or lists them when none is close.
    static func warnings(_ model: FlowModel) -> [SpecIssue] {
        let steps = Dictionary(model.spec.steps.map { ($0.state, $0) }, uniquingKeysWith: { first, _ in first })
        // Each step's events as a set, made when a row first asks: searching the emits per row was quadratic in a large step.
        var emitsOf: [String: Set<String>] = [:]
        var warnings: [SpecIssue] = []
        for (i, row) in model.spec.transitions.enumerated() {
            guard let step = steps[row.from] else { continue }
            if emitsOf[row.from] == nil { emitsOf[row.from] = Set(step.emits.map(\.event)) }
            guard emitsOf[row.from]?.contains(row.on) == false else { continue }
            let emitted = step.emits.map(\.event)
            let hint: String
            if emitted.count > maxListed {
                // Too many to search for a near name or to list on every such row.
                hint = " (it emits \(emitted.count) events)"
            } else if let nearest = EditDistance.nearest(to: Array(row.on.lowercased().unicodeScalars), in: emitted, countingSwaps: false,
                                                         form: { Array($0.lowercased().unicodeScalars) }) {
                hint = " (did you mean '\(nearest)'?)"
            } else if emitted.isEmpty {
                hint = " (it emits no events)"
            } else {
                hint = " (it emits \(emitted.joined(separator: ", ")))"
            }
            let path = "$.transitions[\(i)].on"
            warnings.append(SpecIssue(path: path, location: model.locations[path] ?? model.location(ofRow: i),
                                      message: "\(row.from) never emits '\(row.on)', so this row never fires\(hint)"))
        }
        return warnings
    }
}
