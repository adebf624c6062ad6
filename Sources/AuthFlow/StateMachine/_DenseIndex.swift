/// Sees the model's dense ids (``StateID``, ``EventID``, ``KeyID``) through generic code, so the
/// runtime's tables keyed by them can be flat arrays instead of hashed dictionaries.
///
/// Every check is on the type, not the value: in code specialised for a dense id type the test
/// folds to a constant and the cast disappears; for any other type (an app's `String` or enum
/// names) it is one comparison of type metadata and the hashed tables are used as before.
@usableFromInline
enum _DenseIndex {
    /// The largest index a flat table accepts before the runtime falls back to hashing.
    @usableFromInline static let limit = 1 << 16

    /// Whether values of `type` are dense ids.
    @inlinable @inline(__always)
    static func applies<T>(to type: T.Type) -> Bool {
        T.self == StateID.self || T.self == EventID.self || T.self == KeyID.self
    }

    /// The raw id of `value` when its type is a dense id type, else `nil`.
    @inlinable @inline(__always)
    static func raw<T>(_ value: T) -> Int32? {
        if T.self == StateID.self { return (value as! StateID).rawValue }
        if T.self == EventID.self { return (value as! EventID).rawValue }
        if T.self == KeyID.self { return (value as! KeyID).rawValue }
        return nil
    }

    /// The index of `value` when its type is a dense id type and it lies in `0..<limit`, else `nil`.
    @inlinable @inline(__always)
    static func index<T>(_ value: T) -> Int? {
        guard let raw = raw(value), raw >= 0, Int(raw) < limit else { return nil }
        return Int(raw)
    }
}
