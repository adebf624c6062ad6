/// A stored value that equality and hashing leave out: how a file spelled something, beside what it means.
///
/// A type whose `Hashable` conformance is synthesized compares every stored property; wrapping one
/// in `@NotCompared` leaves that one out, so a new property added later takes part by default (a
/// hand-written `==` that listed the others would silently skip it).
///
/// ```swift
/// struct Emission: Hashable { var event: String; @NotCompared var writtenAsList = false }
/// ```
@propertyWrapper
package struct NotCompared<Value: Sendable>: Hashable, Sendable {
    package var wrappedValue: Value

    package init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    package static func == (lhs: NotCompared, rhs: NotCompared) -> Bool { true }

    package func hash(into hasher: inout Hasher) {}
}
