/// Where a property is violated: the property, the state, and for some properties the event.
///
/// One violation is reported per site: `(property, state)`, or `(property, state, event)` for
/// `illegal-transition` and the runtime properties; a spec's own property is violated once, whatever
/// the state, so its site is the property alone. It is the identity that every search keeps
/// the shortest counterexample of, and that shrinking preserves. It prints as `property@state`
/// or `property@state.event`, and a spec's own property by its id.
public struct Site: Hashable, Sendable, CustomStringConvertible {
    /// The property violated.
    public var property: Property
    /// The state of the site; `nil` for a spec's own property.
    public var state: String?
    /// The event of the site, when it has one.
    public var event: String?

    public init(property: Property, state: String?, event: String? = nil) {
        self.property = property
        self.state = state
        self.event = event
    }

    public var description: String {
        guard let state else { return property.id }
        return event.map { "\(property.id)@\(state).\($0)" } ?? "\(property.id)@\(state)"
    }
}
