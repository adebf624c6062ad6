/// The data a flow collected, with the data before each step kept so that back can restore it.
///
/// ```swift
/// var data = DataStack<SignInKey, String>()
/// data.push(["email": "a@b.c"])   // current == [.email: "a@b.c"]
/// data.pop()                      // current == [:]
/// ```
public struct DataStack<Key: Hashable, Value> {
    /// The data now.
    public private(set) var current: [Key: Value] = [:]
    /// The data before each step, oldest first.
    private var saved: [[Key: Value]] = []
    var mutant: Mutant?

    public init(mutant: Mutant? = nil) {
        self.mutant = mutant
    }

    /// Saves the data and adds `values` to it (a value replaces the key's earlier one).
    public mutating func push(_ values: [Key: Value]) {
        saved.append(current)
        if mutant == .mergeKeepsOldValue {
            current.merge(values) { old, _ in old }
        } else {
            current.merge(values) { _, new in new }
        }
    }

    /// Adds `values` to the data in place, with nothing saved to go back to.
    public mutating func merge(_ values: [Key: Value]) {
        current.merge(values) { _, new in new }
    }

    /// Empties the data, saving it.
    public mutating func pushCleared() {
        saved.append(current)
        current = [:]
    }

    /// Restores the data before the last push; false when there is none.
    @discardableResult
    public mutating func pop() -> Bool {
        guard let previous = saved.popLast() else { return false }
        current = previous
        return true
    }
}
