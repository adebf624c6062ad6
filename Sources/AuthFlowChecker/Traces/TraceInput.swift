import AuthFlow

/// A stream of tracker records to replay: a file, standard input or bytes in memory, read by ``InputSource`` in chunks.
///
/// ``lines(_:)`` hands each line to its closure from a buffer of fixed size, so reading a file of any
/// length holds at most one chunk and one line in memory.
package struct TraceInput {
    /// What is read.
    let source: InputSource
    /// How reports name the input: the path, or `<stdin>`.
    package var name: String { source.name }

    /// The longest line read whole, in bytes; a longer one is reported as malformed and skipped.
    package static let maxLineBytes = 1 << 20

    /// Why an input cannot be read at all.
    package typealias Failure = InputError

    /// The records in `source`.
    package init(_ source: InputSource) {
        self.source = source
    }

    /// Bytes in memory, named `name` in reports.
    package static func bytes(_ bytes: [UInt8], name: String) -> TraceInput {
        TraceInput(.bytes(bytes, name: name))
    }

    /// Text in memory (its UTF-8), named `name` in reports.
    package static func text(_ text: String, name: String) -> TraceInput {
        bytes(Array(text.utf8), name: name)
    }

    /// An open file descriptor, read until its end and not closed (standard input is descriptor 0).
    package static func descriptor(_ fd: Int32, name: String) -> TraceInput {
        TraceInput(.descriptor(fd, name: name))
    }

    /// The file at `path`; a FIFO is waited for until `deadline`.
    /// - Throws: ``Failure`` saying what is at the path when it is not a file that can be read.
    package static func file(_ path: String, deadline: Deadline? = nil) throws(Failure) -> TraceInput {
        TraceInput(try InputSource.file(path, what: "a file of records", deadline: deadline))
    }

    /// Calls `body` with each line, in order; lines longer than ``maxLineBytes`` come with ``InputSource/Line/overlong`` set.
    ///
    /// - Returns: the bytes read.
    /// - Throws: ``Failure`` when reading fails part way (the lines before it were handed over).
    /// - Complexity: O(*n*) in the input; memory O(1 MiB + ``maxLineBytes``), whatever its length.
    @discardableResult
    package func lines(_ body: (InputSource.Line) -> Void) throws(Failure) -> Int {
        try source.forEachLine(maxLineBytes: Self.maxLineBytes) { line in
            body(line)
            return true
        }
    }
}
