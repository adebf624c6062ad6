/// Collects spec issues up to ``SpecLimits/maxIssues``, counting the ones past it.
struct _SpecIssueList {
    private(set) var issues: [SpecIssue] = []
    private(set) var dropped = 0

    var isEmpty: Bool { issues.isEmpty }

    /// Adds the issue `make` builds; past the limit only counts it (the message is never built).
    mutating func append(_ make: () -> SpecIssue) {
        if issues.count < SpecLimits.maxIssues {
            issues.append(make())
        } else {
            dropped += 1
        }
    }

    /// Adds an issue; past the limit only counts it.
    mutating func append(_ issue: @autoclosure () -> SpecIssue) {
        append(issue)
    }

    /// The issues, in the order `areInIncreasingOrder` gives, followed by one that counts those left out.
    func reported(by areInIncreasingOrder: ((SpecIssue, SpecIssue) -> Bool)? = nil) -> [SpecIssue] {
        var result = areInIncreasingOrder.map { issues.sorted(by: $0) } ?? issues
        if dropped > 0 {
            result.append(SpecIssue(
                path: "$",
                message: "\(dropped) more problem\(dropped == 1 ? "" : "s") not listed; a report lists the first \(SpecLimits.maxIssues)"))
        }
        return result
    }
}
