/// Where the parts of a spec stand in its file, for reports that point an editor or a CI
/// annotation at a line.
///
/// Each is the location of the JSON value the part declares: a step's object (on the line of its
/// key in `steps`), an entry of its `emits`, its `requires` list, a row of `transitions`. `nil`
/// when the model was not loaded from a file or the spec has no such part.
///
/// ```swift
/// let model = try SpecLoader.load(file: "Specs/email-first.json")
/// model.location(ofStep: "password")?.line                   // 14
/// model.location(ofEmission: "cancel", inStep: "email")      // the `"cancel": []` entry
/// ```
extension FlowModel {
    /// The step of `state`: its object in `steps`.
    public func location(ofStep state: String) -> SourceLocation? {
        locations[Self.stepPath(state).text]
    }

    /// The `requires` list of `state`'s step.
    public func location(ofRequires state: String) -> SourceLocation? {
        locations[Self.stepPath(state).member("requires").text]
    }

    /// The entry of `event` in the `emits` of `state`'s step.
    public func location(ofEmission event: String, inStep state: String) -> SourceLocation? {
        locations[Self.stepPath(state).member("emits").member(event).text]
    }

    /// Row `index` of `transitions`, counting every row the file declares (duplicates included).
    public func location(ofRow index: Int) -> SourceLocation? {
        locations[JSONPath.root.member("transitions").index(index).text]
    }

    /// The first row of `transitions` from `state` on `event`.
    public func location(ofRowFrom state: String, on event: String) -> SourceLocation? {
        spec.transitions.firstIndex { $0.from == state && $0.on == event }.flatMap { location(ofRow: $0) }
    }

    /// The first row of `transitions` from `state` on `event` to `target` (guarded rows of one state and event differ
    /// in where they go), or the first from `state` on `event` when none goes there (an `anywhere` row, a reset).
    public func location(ofRowFrom state: String, on event: String, to target: String) -> SourceLocation? {
        let index = spec.transitions.firstIndex { $0.from == state && $0.on == event && $0.to == target }
        return index.flatMap { location(ofRow: $0) } ?? location(ofRowFrom: state, on: event)
    }

    /// A top-level member of the spec, such as `passcode`.
    public func location(ofMember key: String) -> SourceLocation? {
        locations[JSONPath.root.member(key).text]
    }

    /// The `assurance` of `state`'s step (section 6).
    public func location(ofAssurance state: String) -> SourceLocation? {
        locations[Self.stepPath(state).member("assurance").text]
    }

    /// The entry of the spec's own property `id` in `properties`.
    public func location(ofProperty id: String) -> SourceLocation? {
        spec.properties.firstIndex { $0.id == id }.flatMap { locations[JSONPath.root.member("properties").index($0).text] }
    }

    private static func stepPath(_ state: String) -> JSONPath {
        JSONPath.root.member("steps").member(state)
    }
}
