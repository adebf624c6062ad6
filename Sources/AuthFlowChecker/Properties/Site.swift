/// Where a property is violated: the property, the state, and for some properties the event.
///
/// One violation is reported per site: `(property, state)`, or `(property, state, event)` for
/// `illegal-transition` and the runtime properties. It is the identity that every search keeps
/// the shortest counterexample of, and that shrinking preserves. It prints as `property@state`
/// or `property@state.event`.
public struct Site: Hashable, Sendable, CustomStringConvertible {
    /// The property violated.
    public var property: Property
    /// The state of the site.
    public var state: String
    /// The event of the site, when it has one.
    public var event: String?

    public init(property: Property, state: String, event: String? = nil) {
        self.property = property
        self.state = state
        self.event = event
    }

    public var description: String { event.map { "\(property.id)@\(state).\($0)" } ?? "\(property.id)@\(state)" }
}
