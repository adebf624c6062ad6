/// The outcome of checking a property: passed, failed with a shrunk counterexample, or gave up.
///
/// Print it for people (see ``description``) and switch over it in code:
///
/// ```swift
/// let report = forAll(Gen.int(in: 0...1000)) { $0 < 100 }
/// if case .failed(let failure) = report {
///     print(failure.shrunk)  // 100
/// }
/// ```
public enum PropertyReport<T> {
    /// Every case passed.
    case passed(cases: Int, seed: UInt64)
    /// A case failed; the failure holds it before and after shrinking.
    case failed(Failure)
    /// Too many cases were discarded by filters to test enough: `cases` passed, `discarded` skipped.
    case gaveUp(cases: Int, discarded: Int, seed: UInt64)

    /// A counterexample: the case that failed, what it shrank to, and how to replay it.
    public struct Failure {
        /// The seed of the run; ``forAll(_:cases:seed:maxShrinkSteps:_:)`` with it replays the run.
        public var seed: UInt64
        /// The index of the failing case in the run, counting discarded cases.
        public var caseIndex: Int
        /// The size the failing case was generated with.
        public var size: Int
        /// The number of cases the run asked for; `nil` when the case was replayed alone by its ``CaseID``.
        public var cases: Int?
        /// The value that failed first.
        public var original: T
        /// The smallest failing value shrinking found.
        public var shrunk: T
        /// How many shrinking steps were accepted between ``original`` and ``shrunk``.
        public var shrinkSteps: Int
        /// How many candidates shrinking ran the property on.
        public var shrinkEvaluations: Int
        /// The description of the error the property threw on ``shrunk``, or `nil` if it returned `false`.
        public var error: String?
        /// The choice sequence that regenerates ``shrunk``: `gen.replay(choices, size: size)`.
        public var choices: [UInt64]

        /// Creates a failure.
        public init(
            seed: UInt64,
            caseIndex: Int,
            size: Int,
            cases: Int?,
            original: T,
            shrunk: T,
            shrinkSteps: Int,
            shrinkEvaluations: Int,
            error: String?,
            choices: [UInt64]
        ) {
            self.seed = seed
            self.caseIndex = caseIndex
            self.size = size
            self.cases = cases
            self.original = original
            self.shrunk = shrunk
            self.shrinkSteps = shrinkSteps
            self.shrinkEvaluations = shrinkEvaluations
            self.error = error
            self.choices = choices
        }

        /// The identity of the failing case, for ``forAll(_:case:maxShrinkSteps:_:)``.
        public var caseID: CaseID {
            CaseID(seed: seed, index: caseIndex, size: size)
        }
    }

    /// The failure, if the property failed.
    public var failure: Failure? {
        if case .failed(let failure) = self { return failure }
        return nil
    }

    /// Whether every case passed.
    public var isPassed: Bool {
        if case .passed = self { return true }
        return false
    }

    /// Whether a case failed.
    public var isFailed: Bool {
        failure != nil
    }

    /// The seed of the run, whatever the outcome.
    public var seed: UInt64 {
        switch self {
        case .passed(_, let seed), .gaveUp(_, _, let seed): return seed
        case .failed(let failure): return failure.seed
        }
    }
}

extension PropertyReport.Failure: Equatable where T: Equatable {}
extension PropertyReport.Failure: Hashable where T: Hashable {}
extension PropertyReport.Failure: Sendable where T: Sendable {}
extension PropertyReport: Equatable where T: Equatable {}
extension PropertyReport: Hashable where T: Hashable {}
extension PropertyReport: Sendable where T: Sendable {}
