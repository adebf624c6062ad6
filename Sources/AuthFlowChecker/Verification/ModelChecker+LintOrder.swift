import AuthFlow

extension ModelChecker {
    /// The rows lint reports, in the order it has always listed them: a static table's as the table declares
    /// them, any other flow's step by step.
    ///
    /// `found` comes step by step: states in declaration order, each state's emissions in `emits` order
    /// (then the `anywhere` rows it was given), each emission's rows in table order; then the rows for an
    /// event their state never emits, in table order. A flow whose moves depend on its data keeps that order.
    /// A static flow (``FlowModel/isStatic``: every `/1` flow, and a `/2` one that reads no data) lists its
    /// rows in table order, as `/1` lint did before both came to share the frame moves. No one order gives
    /// both: a table need not declare its rows state by state.
    /// - Complexity: O(r log r) for r rows found.
    static func listed(_ found: [(row: Int, name: String)], of model: FlowModel) -> [String] {
        guard model.isStatic else { return found.map(\.name) }
        return found.sorted { $0.row < $1.row }.map(\.name)
    }
}
