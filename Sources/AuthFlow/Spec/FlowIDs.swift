/// A state of a loaded flow, interned to a dense index into ``FlowModel/states``.
public struct StateID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: Int32
    @inlinable public init(_ rawValue: Int32) { self.rawValue = rawValue }
    @inlinable public init(_ index: Int) { self.rawValue = Int32(truncatingIfNeeded: index) }
    @inlinable public var index: Int { Int(rawValue) }
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "state#\(rawValue)" }
}

/// An event of a loaded flow, interned to a dense index into ``FlowModel/events``.
public struct EventID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: Int32
    @inlinable public init(_ rawValue: Int32) { self.rawValue = rawValue }
    @inlinable public init(_ index: Int) { self.rawValue = Int32(truncatingIfNeeded: index) }
    @inlinable public var index: Int { Int(rawValue) }
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "event#\(rawValue)" }
}

/// A data key of a loaded flow, interned to a dense index into ``FlowModel/keys`` (at most 64).
public struct KeyID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: Int32
    @inlinable public init(_ rawValue: Int32) { self.rawValue = rawValue }
    @inlinable public init(_ index: Int) { self.rawValue = Int32(truncatingIfNeeded: index) }
    @inlinable public var index: Int { Int(rawValue) }
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "key#\(rawValue)" }
}

/// A set of data keys of one flow as a 64-bit set: the "data" half of a model frame.
public struct KeySet: Hashable, Sendable, Sequence {
    /// Bit `i` is set when key `i` is in the set.
    public var bits: UInt64

    /// The most data keys one flow may declare.
    public static let capacity = 64

    @inlinable public init(bits: UInt64 = 0) { self.bits = bits }
    @inlinable public init<S: Sequence>(_ keys: S) where S.Element == KeyID {
        var bits: UInt64 = 0
        for key in keys { bits |= 1 << UInt64(key.rawValue) }
        self.bits = bits
    }

    @inlinable public var isEmpty: Bool { bits == 0 }
    @inlinable public var count: Int { bits.nonzeroBitCount }
    @inlinable public func contains(_ key: KeyID) -> Bool { bits & (1 << UInt64(key.rawValue)) != 0 }
    @inlinable public func union(_ other: KeySet) -> KeySet { KeySet(bits: bits | other.bits) }
    @inlinable public func subtracting(_ other: KeySet) -> KeySet { KeySet(bits: bits & ~other.bits) }
    @inlinable public func isSubset(of other: KeySet) -> Bool { bits & ~other.bits == 0 }
    @inlinable public mutating func insert(_ key: KeyID) { bits |= 1 << UInt64(key.rawValue) }

    /// Iterates the keys in ascending id order.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var remaining: UInt64
        @inlinable init(_ bits: UInt64) { remaining = bits }
        @inlinable public mutating func next() -> KeyID? {
            guard remaining != 0 else { return nil }
            let index = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            return KeyID(index)
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(bits) }
}
