/// A generator of random values that draws all its randomness from a ``ChoiceSource``.
///
/// A `Gen` is a function from a choice source to a value. Because every random decision goes
/// through the source, a value can be replayed from its recorded choices and shrunk by shrinking
/// those choices: generators built with ``map(_:)``, ``flatMap(_:)`` and ``filter(maxAttempts:_:)``
/// shrink for free, with no shrinking code per type (the design of Hypothesis).
///
/// ```swift
/// let passcode = Gen.array(of: Gen.int(in: 0...9), count: 6).map { $0.map { String($0) }.joined() }
/// let report = forAll(passcode) { code in code.count == 6 }
/// ```
///
/// A generator may *discard* a case, for example when a filter keeps rejecting; it does so by
/// throwing ``DiscardedCase``, and ``forAll(_:cases:seed:maxShrinkSteps:_:)`` then skips the case.
public struct Gen<Value>: Sendable {
    private let body: @Sendable (inout ChoiceSource) throws(DiscardedCase) -> Value

    /// Creates a generator from a function that draws from a choice source.
    ///
    /// Draw every random decision from `source`, never from another random number generator,
    /// or replay and shrinking will not see it.
    public init(_ body: @escaping @Sendable (inout ChoiceSource) throws(DiscardedCase) -> Value) {
        self.body = body
    }

    /// Generates one value, drawing from `source`.
    /// - Throws: ``DiscardedCase`` when the generator gives up on this case.
    public func generate(_ source: inout ChoiceSource) throws(DiscardedCase) -> Value {
        try body(&source)
    }

    /// Generates one value from a fresh seeded source, or `nil` if the generator discards it.
    public func sample(seed: UInt64, size: Int = 100) -> Value? {
        var source = ChoiceSource(seed: seed, size: size)
        return try? generate(&source)
    }

    /// Regenerates the value that a recorded choice sequence stands for, or `nil` if discarded.
    ///
    /// Use it with the ``PropertyReport/Failure/choices`` and ``CaseID/size`` of a failure to get
    /// the shrunk value back in a debugger or a regression test.
    public func replay(_ choices: [UInt64], size: Int = 100) -> Value? {
        var source = ChoiceSource(replaying: choices, size: size)
        return try? generate(&source)
    }

    /// Returns a generator of `transform` applied to this generator's values; it shrinks with them.
    public func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> Gen<T> {
        Gen<T> { (source: inout ChoiceSource) throws(DiscardedCase) -> T in
            transform(try self.generate(&source))
        }
    }

    /// Returns a generator that picks a second generator from this one's value and runs it.
    ///
    /// Both stages draw from the same source, so shrinking the first stage's choices (say, a length)
    /// and the second's (the elements) happens together.
    public func flatMap<T>(_ transform: @escaping @Sendable (Value) -> Gen<T>) -> Gen<T> {
        Gen<T> { (source: inout ChoiceSource) throws(DiscardedCase) -> T in
            try transform(try self.generate(&source)).generate(&source)
        }
    }

    /// Returns a generator of only the values that satisfy `isIncluded`, retrying a bounded number of times.
    ///
    /// After `maxAttempts` rejections in a row the case is discarded (``DiscardedCase`` is thrown)
    /// rather than looping forever. Prefer constructing valid values directly when a filter rejects
    /// most values.
    /// - Parameters:
    ///   - maxAttempts: how many values to try before discarding the case; at least 1.
    ///   - isIncluded: the condition every generated value must satisfy.
    public func filter(
        maxAttempts: Int = 100,
        _ isIncluded: @escaping @Sendable (Value) -> Bool
    ) -> Gen<Value> {
        precondition(maxAttempts >= 1, "filter needs at least one attempt")
        return Gen { (source: inout ChoiceSource) throws(DiscardedCase) -> Value in
            for _ in 0..<maxAttempts {
                let value = try self.generate(&source)
                if isIncluded(value) { return value }
            }
            throw DiscardedCase(reason: "filter rejected \(maxAttempts) values in a row")
        }
    }

    /// Returns a generator that always produces `value` and draws nothing.
    public static func constant(_ value: Value) -> Gen where Value: Sendable {
        Gen { _ in value }
    }

    /// Returns a generator of pairs, drawing the first component before the second.
    public static func zip<A, B>(_ a: Gen<A>, _ b: Gen<B>) -> Gen<(A, B)> where Value == (A, B) {
        Gen<(A, B)> { (source: inout ChoiceSource) throws(DiscardedCase) -> (A, B) in
            let first = try a.generate(&source)
            let second = try b.generate(&source)
            return (first, second)
        }
    }

    /// Returns a generator of triples, drawing the components in order.
    public static func zip<A, B, C>(
        _ a: Gen<A>, _ b: Gen<B>, _ c: Gen<C>
    ) -> Gen<(A, B, C)> where Value == (A, B, C) {
        Gen<(A, B, C)> { (source: inout ChoiceSource) throws(DiscardedCase) -> (A, B, C) in
            let first = try a.generate(&source)
            let second = try b.generate(&source)
            let third = try c.generate(&source)
            return (first, second, third)
        }
    }
}

/// The signal a generator throws to give up on a case, such as a filter that keeps rejecting.
public struct DiscardedCase: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the case was discarded.
    public var reason: String

    /// Creates a discard signal.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "discarded: \(reason)" }
}
