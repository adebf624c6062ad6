/// Checks a property on many generated values and shrinks the first counterexample it finds.
///
/// Case *i* draws from a ``SeededGenerator`` seeded from `seed` and *i* (see ``CaseID``) at a size
/// growing from 0 on the first case to 100 on the last, so early cases are small. A case fails when
/// `property` returns `false` or throws; the failing value is then shrunk by shrinking its choice
/// sequence (``shrink(choices:maxSteps:replay:)``) and re-running the generator, so the reported
/// value is always one the generator can produce. Cases a generator discards (see
/// ``Gen/filter(maxAttempts:_:)``) are skipped; after ten times `cases` discards the run gives up.
///
/// ```swift
/// let report = forAll(Gen.array(of: Gen.int(in: 0...100)), seed: 42) { numbers in
///     numbers.reduce(0, +) <= 10
/// }
/// #expect(report.failure?.shrunk == [11])
/// ```
///
/// - Parameters:
///   - gen: the generator of inputs.
///   - cases: how many non-discarded cases must pass.
///   - seed: the run seed; `nil` draws a fresh one, which the report prints so the run can be replayed.
///   - maxShrinkSteps: the most property runs spent shrinking.
///   - property: `true` if the value is fine; `false` or a thrown error is a failure.
/// - Returns: the report, which is ``PropertyReport/failed(_:)`` with the shrunk value on failure.
/// - Complexity: `cases` runs of `gen` and `property`, plus at most `maxShrinkSteps` when one fails.
public func forAll<T>(
    _ gen: Gen<T>,
    cases: Int = 100,
    seed: UInt64? = nil,
    maxShrinkSteps: Int = 10_000,
    _ property: (T) throws -> Bool
) -> PropertyReport<T> {
    precondition(cases >= 1, "forAll needs at least one case")
    let runSeed = seed ?? UInt64.random(in: .min ... .max)
    let maxDiscards = cases * 10
    var passed = 0
    var discarded = 0
    var index = 0
    while passed < cases {
        let size = cases == 1 ? 0 : passed * PropertyRun.maxSize / (cases - 1)
        let id = CaseID(seed: runSeed, index: index, size: size)
        switch PropertyRun.check(gen, id, property) {
        case .passed:
            passed += 1
        case .discarded:
            discarded += 1
            if discarded > maxDiscards {
                return .gaveUp(cases: passed, discarded: discarded, seed: runSeed)
            }
        case .failed(let value, let choices, let error):
            return .failed(
                PropertyRun.shrunkFailure(
                    gen, id, cases: cases, value: value, choices: choices, error: error,
                    maxShrinkSteps: maxShrinkSteps, property
                )
            )
        }
        index += 1
    }
    return .passed(cases: passed, seed: runSeed)
}

/// Checks a property on the one case `id` identifies, shrinking it if it fails.
///
/// Paste the ``CaseID`` that a failure report prints to rerun just that case, for example
/// under a debugger, without generating the cases before it.
///
/// - Parameters:
///   - gen: the generator the run used.
///   - id: the case to rerun.
///   - maxShrinkSteps: the most property runs spent shrinking.
///   - property: the property the run checked.
/// - Returns: `.passed(cases: 1, …)`, `.failed` with the shrunk value, or `.gaveUp` if discarded.
/// - Complexity: one run of `gen` and `property`, plus at most `maxShrinkSteps` when it fails.
public func forAll<T>(
    _ gen: Gen<T>,
    case id: CaseID,
    maxShrinkSteps: Int = 10_000,
    _ property: (T) throws -> Bool
) -> PropertyReport<T> {
    switch PropertyRun.check(gen, id, property) {
    case .passed:
        return .passed(cases: 1, seed: id.seed)
    case .discarded:
        return .gaveUp(cases: 0, discarded: 1, seed: id.seed)
    case .failed(let value, let choices, let error):
        return .failed(
            PropertyRun.shrunkFailure(
                gen, id, cases: nil, value: value, choices: choices, error: error,
                maxShrinkSteps: maxShrinkSteps, property
            )
        )
    }
}

/// The steps shared by both forms of ``forAll(_:cases:seed:maxShrinkSteps:_:)``.
enum PropertyRun {
    /// The size of the last case of a run.
    static let maxSize = 100

    enum Outcome<T> {
        case passed
        case discarded
        case failed(T, choices: [UInt64], error: String?)
    }

    /// Generates and checks the case `id`.
    static func check<T>(_ gen: Gen<T>, _ id: CaseID, _ property: (T) throws -> Bool) -> Outcome<T> {
        var source = ChoiceSource(seed: id.caseSeed, size: id.size)
        return run(gen, &source, property)
    }

    /// Generates a value from `source` and checks it.
    static func run<T>(_ gen: Gen<T>, _ source: inout ChoiceSource, _ property: (T) throws -> Bool) -> Outcome<T> {
        guard let value = try? gen.generate(&source) else { return .discarded }
        do {
            return try property(value) ? .passed : .failed(value, choices: source.values, error: nil)
        } catch {
            return .failed(value, choices: source.values, error: String(describing: error))
        }
    }

    /// Shrinks a failing case and packages it as a failure.
    static func shrunkFailure<T>(
        _ gen: Gen<T>,
        _ id: CaseID,
        cases: Int?,
        value: T,
        choices: [UInt64],
        error: String?,
        maxShrinkSteps: Int,
        _ property: (T) throws -> Bool
    ) -> PropertyReport<T>.Failure {
        var smallest = (value: value, choices: choices, error: error)
        let result = shrink(choices: choices, maxSteps: maxShrinkSteps) { candidate in
            var source = ChoiceSource(replaying: candidate, size: id.size)
            guard case .failed(let value, let consumed, let error) = run(gen, &source, property) else {
                return nil
            }
            // The shrinker accepts every failing candidate it is offered, so the last one is the smallest.
            let kept = shortlexPrecedes(consumed, candidate) ? consumed : candidate
            smallest = (value, kept, error)
            return consumed
        }
        precondition(result.choices == smallest.choices, "shrinking must end on its last accepted candidate")
        return PropertyReport<T>.Failure(
            seed: id.seed,
            caseIndex: id.index,
            size: id.size,
            cases: cases,
            original: value,
            shrunk: smallest.value,
            shrinkSteps: result.steps,
            shrinkEvaluations: result.evaluations,
            error: smallest.error,
            choices: result.choices
        )
    }
}
