import AuthFlow

/// One lint finding, named as a test accepts it: `FlowGate.assertHolds(file:accepting: [.unreachable("guest")])`.
///
/// `check` reports lint as a note (the contract fixes its exit codes), but the gate fails on the
/// findings that are almost always a bug: a step no path reaches (``unreachable(_:)``) and a row
/// that never fires (``deadTransition(_:)``, ``shadowedRow(_:)``). The others are often intended
/// while a flow grows and fail only under `CheckOptions(strict: true)`. A known one is accepted by
/// naming it, as the failure prints it; an acceptance that matches no finding fails the gate, so
/// that it goes when its finding does.
public struct GateFinding: Hashable, Sendable, CustomStringConvertible {
    /// What kind of finding, as ``Lint`` lists them.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case unreachable
        case deadTransition = "dead transition"
        case shadowedRow = "shadowed row"
        case unusedData = "unused data"
        case waitsOnSystem = "waits on system"
        case overriddenAnywhere = "overridden anywhere"

        /// Whether the gate fails on this kind without `strict`: a step no path reaches, a row that never fires.
        public var failsByDefault: Bool { self == .unreachable || self == .deadTransition || self == .shadowedRow }

        /// The static function that names a finding of this kind in Swift.
        var function: String {
            switch self {
            case .unreachable: "unreachable"
            case .deadTransition: "deadTransition"
            case .shadowedRow: "shadowedRow"
            case .unusedData: "unusedData"
            case .waitsOnSystem: "waitsOnSystem"
            case .overriddenAnywhere: "overriddenAnywhere"
            }
        }
    }

    /// The kind of finding.
    public var kind: Kind
    /// The state, row or data key, as lint names it (`guest`, `email.skip`, `email.continue→home`).
    public var name: String

    public init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    /// A step no configuration reaches. Accepting it accepts the rows out of it too, which are dead because it is.
    public static func unreachable(_ state: String) -> GateFinding { GateFinding(kind: .unreachable, name: state) }
    /// A row never fired from a reachable configuration: `from.event`, or `from.event→to` when several rows share them.
    public static func deadTransition(_ row: String) -> GateFinding { GateFinding(kind: .deadTransition, name: row) }
    /// An `authflow/2` row that never fires because an earlier row for its `from` and `on` always holds first: `from.event→to`.
    public static func shadowedRow(_ row: String) -> GateFinding { GateFinding(kind: .shadowedRow, name: row) }
    /// A data key some step produces and no step requires (fails only under `strict`).
    public static func unusedData(_ key: String) -> GateFinding { GateFinding(kind: .unusedData, name: key) }
    /// An `authflow/2` state whose only moves are system events, with no back (fails only under `strict`).
    public static func waitsOnSystem(_ state: String) -> GateFinding { GateFinding(kind: .waitsOnSystem, name: state) }
    /// An `authflow/2` `anywhere` row a state's own overrides, as `state.event` (fails only under `strict`).
    public static func overriddenAnywhere(_ name: String) -> GateFinding { GateFinding(kind: .overriddenAnywhere, name: name) }

    /// Whether the gate fails on this finding without `strict`.
    public var failsByDefault: Bool { kind.failsByDefault }

    /// `unreachable: guest`.
    public var description: String { "\(kind.rawValue): \(name)" }

    /// The finding as Swift that accepts it: `.unreachable("guest")`.
    public var swiftLiteral: String {
        let escaped = name.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\\": "\\\\"
            case "\"": "\\\""
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: "\\u{\(String(scalar.value, radix: 16))}"
            default: String(scalar)
            }
        }.joined()
        return ".\(kind.function)(\"\(escaped)\")"
    }

    /// The line of `model`'s file a person fixes this finding at: the step, the row, the emission that adds the key.
    func line(in model: FlowModel) -> Int? {
        switch kind {
        case .unreachable, .waitsOnSystem:
            return model.location(ofStep: name)?.line
        case .deadTransition, .shadowedRow:
            let row = model.spec.transitions.firstIndex {
                Lint.rowName(from: $0.from, on: $0.on) == name || Lint.rowName(from: $0.from, on: $0.on, to: $0.to) == name
            }
            return row.flatMap { model.location(ofRow: $0)?.line }
        case .unusedData:
            let producer = model.spec.steps.lazy.compactMap { step in step.emits.first { $0.adds.contains(name) }.map { (step.state, $0.event) } }.first
            return producer.flatMap { model.location(ofEmission: $0.1, inStep: $0.0)?.line }
        case .overriddenAnywhere:
            return nil
        }
    }

    /// Every finding of `lint`, in the order ``Lint/lines`` prints them.
    public static func all(in lint: Lint) -> [GateFinding] {
        lint.unreachable.map(unreachable) + lint.deadTransitions.map(deadTransition) + lint.shadowedRows.map(shadowedRow)
            + lint.unusedData.map(unusedData) + lint.waitsOnSystem.map(waitsOnSystem) + lint.overriddenAnywhere.map(overriddenAnywhere)
    }
}

/// What the gate makes of a report's lint: the findings that fail it and the acceptances that matched nothing.
struct GateJudgement {
    var unaccepted: [GateFinding]
    var stale: [GateFinding]

    /// Judges `lint`: under `strict` every finding counts, else those that fail by default.
    ///
    /// A row out of an unreachable step is dead because the step is, so the step alone is the
    /// finding to fix or to accept: its rows are neither listed nor need accepting. When the check
    /// covered some variants only, `wholeFlow` is the lint of every variant: a screen or a row that
    /// only another variant reaches is not a finding of the flow, so only what the whole flow has counts.
    init(_ lint: Lint, strict: Bool, accepting: [GateFinding], wholeFlow: Lint? = nil) {
        let inWholeFlow = wholeFlow.map { Set(GateFinding.all(in: $0)) }
        let findings = GateFinding.all(in: lint).filter { inWholeFlow?.contains($0) ?? true }
        let unreachable = lint.unreachable.map { Self.rowPrefix(of: $0) }
        func followsFromAnUnreachableStep(_ finding: GateFinding) -> Bool {
            finding.kind == .deadTransition && unreachable.contains { finding.name.hasPrefix($0) }
        }
        let accepted = Set(accepting)
        unaccepted = findings.filter { finding in
            (strict || finding.failsByDefault) && !accepted.contains(finding) && !followsFromAnUnreachableStep(finding)
        }
        let found = Set(findings)
        var seen = Set<GateFinding>()
        stale = accepting.filter { !found.contains($0) && seen.insert($0).inserted }
    }

    /// How lint's name of every row out of `state` starts: `guest.`, or `"a.b".` for a name lint quotes.
    ///
    /// Lint quotes every name that holds a `.`, so the prefix of one state never starts another's row.
    static func rowPrefix(of state: String) -> String {
        String(Lint.rowName(from: state, on: "e").dropLast())
    }
}
