/// Why a file or stream cannot be read, or not all of it: what it is and what went wrong.
///
/// ``reason`` reads after the input's name: `spec.json: a loop of symbolic links (ELOOP)`,
/// `<stdin>: the input is over 8388608 bytes; the limit is 8388608 bytes`.
package struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of problem it is, for callers that treat one differently (a missing regressions file is an empty one).
    package enum Kind: Sendable, Equatable {
        /// Nothing is at the path.
        case missing
        /// The path names something that is not a file to read: a directory, a socket.
        case notAFile
        /// The path exists but cannot be opened or read.
        case unreadable
        /// The input is larger than the limit it is read with.
        case tooLarge
        /// A line is longer than the limit lines are read with.
        case lineTooLong
        /// Nothing arrived before the deadline (a FIFO with no writer).
        case timedOut
    }

    /// How reports name the input: the path, or `<stdin>`.
    package var name: String
    package var kind: Kind
    /// What went wrong, without the name.
    package var reason: String

    package init(name: String, kind: Kind, reason: String) {
        self.name = name
        self.kind = kind
        self.reason = reason
    }

    package var description: String { "\(name): \(reason)" }
}
