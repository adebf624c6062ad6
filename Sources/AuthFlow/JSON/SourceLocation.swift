/// A position in a source text: a 1-based line and a 1-based column.
///
/// Lines are separated by LF, CR LF or a lone CR. The column counts Unicode scalars from the
/// start of the line, so `é` is one column whatever its UTF-8 length, and a tab is one column.
/// A UTF-8 byte-order mark at the very start of a file is not counted.
///
/// ```swift
/// SourceLocation(line: 3, column: 14).description  // "3:14"
/// ```
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The line, counting from 1.
    public var line: Int
    /// The column on ``line``, counting Unicode scalars from 1.
    public var column: Int

    /// Creates a location from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The location as `line:column`, the way compilers and editors print it, e.g. `3:14`.
    public var description: String { "\(line):\(column)" }
}
