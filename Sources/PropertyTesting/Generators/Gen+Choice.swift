extension Gen {
    /// Returns a generator that runs one of `generators`, chosen uniformly; it shrinks toward the first.
    public static func oneOf(_ generators: Gen<Value>...) -> Gen {
        oneOf(generators)
    }

    /// Returns a generator that runs one of `generators`, chosen uniformly; it shrinks toward the first.
    ///
    /// - Parameter generators: the alternatives; must not be empty. Put the simplest first.
    public static func oneOf(_ generators: [Gen<Value>]) -> Gen {
        precondition(!generators.isEmpty, "Gen.oneOf needs at least one generator")
        return Gen { (source: inout ChoiceSource) throws(DiscardedCase) -> Value in
            let index = Int(source.draw(below: UInt64(generators.count)))
            return try generators[index].generate(&source)
        }
    }

    /// Returns a generator that runs one of `weighted`, chosen in proportion to its weight.
    ///
    /// It shrinks toward the first alternative with a positive weight, so put the simplest first.
    /// - Parameter weighted: pairs of a weight (0 or more, not all 0) and a generator.
    public static func frequency(_ weighted: [(Int, Gen<Value>)]) -> Gen {
        precondition(weighted.allSatisfy { $0.0 >= 0 }, "Gen.frequency weights must not be negative")
        let total = weighted.reduce(0) { $0 + $1.0 }
        precondition(total > 0, "Gen.frequency needs a positive total weight")
        return Gen { (source: inout ChoiceSource) throws(DiscardedCase) -> Value in
            var remaining = Int(source.draw(below: UInt64(total)))
            for (weight, generator) in weighted {
                if remaining < weight { return try generator.generate(&source) }
                remaining -= weight
            }
            preconditionFailure("unreachable: the draw is below the total weight")
        }
    }

    /// Returns a generator of the elements of `collection`, chosen uniformly; it shrinks toward the first.
    ///
    /// - Parameter collection: the elements to pick from; must not be empty.
    public static func element<C: Collection & Sendable>(of collection: C) -> Gen
    where C.Element == Value {
        precondition(!collection.isEmpty, "Gen.element(of:) needs a non-empty collection")
        let count = collection.count
        return Gen { source in
            let offset = Int(source.draw(below: UInt64(count)))
            return collection[collection.index(collection.startIndex, offsetBy: offset)]
        }
    }

    /// Returns a generator built from the source's current size, which grows from 0 to 100 over a run.
    public static func sized(_ build: @escaping @Sendable (Int) -> Gen<Value>) -> Gen {
        Gen { (source: inout ChoiceSource) throws(DiscardedCase) -> Value in
            try build(source.size).generate(&source)
        }
    }

    /// A generator of this generator's values or `nil`; `nil` about one time in four, and shrinks to `nil`.
    public var optional: Gen<Value?> {
        Gen<Value?> { (source: inout ChoiceSource) throws(DiscardedCase) -> Value? in
            source.drawBool(probability: 0.75) ? try self.generate(&source) : nil
        }
    }

    /// Returns a generator that runs this one with the source's size replaced by `transform(size)`.
    public func resized(_ transform: @escaping @Sendable (Int) -> Int) -> Gen {
        Gen { (source: inout ChoiceSource) throws(DiscardedCase) -> Value in
            let saved = source.size
            source.size = transform(saved)
            defer { source.size = saved }
            return try self.generate(&source)
        }
    }
}

extension Gen where Value == Bool {
    /// A generator of `false` and `true` with equal chances; it shrinks to `false`.
    public static var bool: Gen<Bool> {
        Gen { source in source.draw(through: 1) == 1 }
    }

    /// Returns a generator of `true` with the given probability; it shrinks to `false`.
    public static func bool(probability: Double) -> Gen<Bool> {
        Gen { source in source.drawBool(probability: probability) }
    }
}

extension Gen where Value == Int {
    /// Returns a generator of integers in `range`, which may be all of `Int.min...Int.max`.
    ///
    /// Values shrink toward 0 when `range` contains it, otherwise toward the bound nearest 0
    /// (the lower bound of a positive range, the upper bound of a negative one).
    public static func int(in range: ClosedRange<Int>) -> Gen<Int> {
        Gen { source in source.int(in: range) }
    }
}
