import Foundation

/// Loads `authflow/1` JSON specs into validated ``FlowModel``s, with every error located.
///
/// Every problem is reported with its JSON path and, where the file gives one, line:column:
/// malformed JSON, wrong types, missing or unknown keys (keys starting with `x-` are
/// extensions and ignored), references to states that are not steps, the reserved event `back`,
/// and non-deterministic transitions. Duplicate object keys are refused by the parser.
///
/// Loading is total and bounded: no file, however malformed or large, traps, hangs or uses
/// memory out of proportion to its size. A file over ``defaultMaxBytes`` is refused unread, and a
/// spec is held to the limits of ``SpecLimits`` (name length and characters, keys per list, issues
/// listed).
///
/// ```swift
/// let model = try SpecLoader.load(file: "Specs/email-first.json")
/// ```
public enum SpecLoader {
    /// The largest spec file accepted, in bytes (a limit, not a format rule).
    public static let defaultMaxBytes = 8 << 20

    /// The spec format versions this loader reads, oldest first: the one place a new version is added.
    public static let formats = ["authflow/1", "authflow/2"]

    /// Loads and validates the spec in the file at `path`.
    ///
    /// The file is read by ``InputSource``: one larger than `maxBytes` is refused unread, a FIFO is
    /// read until `deadline`, and a path that names no file says what it names instead. Parsing and
    /// building the model stop at `deadline` too (``InvalidSpecError/timedOut``).
    /// - Throws: ``InvalidSpecError`` for a missing, unreadable, directory, socket, oversized or invalid file.
    public static func load(file path: String, maxBytes: Int = defaultMaxBytes, deadline: Deadline = .none) throws(InvalidSpecError) -> FlowModel {
        let bytes: [UInt8]
        do {
            bytes = try InputSource.file(path, what: "a spec file", deadline: deadline.timeout == nil ? nil : deadline).readAll(limit: maxBytes)
        } catch {
            throw InvalidSpecError(file: path, issues: [SpecIssue(path: SpecIssue.wholeFile, message: error.reason)])
        }
        return try load(bytes: bytes, file: path, deadline: deadline)
    }

    /// Loads and validates a spec from JSON text.
    public static func load(json: String, file: String? = nil) throws(InvalidSpecError) -> FlowModel {
        try load(bytes: Array(json.utf8), file: file)
    }

    /// Loads and validates a spec from the bytes of a JSON document.
    ///
    /// The parser, the reader and the model builder each look at `deadline` every few thousand
    /// items, so a file of a hundred thousand names cannot hold a run past its `--timeout`: loading
    /// then stops with an ``InvalidSpecError`` whose ``InvalidSpecError/timedOut`` is set.
    public static func load(bytes: [UInt8], file: String? = nil, deadline: Deadline = .none) throws(InvalidSpecError) -> FlowModel {
        let (spec, locations) = try parse(bytes: bytes, file: file, deadline: deadline)
        return try FlowModel(spec: spec, locations: locations, file: file, deadline: deadline)
    }

    /// Parses a spec into a ``FlowSpec`` without validating references, with the location of every JSON path.
    public static func parse(bytes: [UInt8], file: String? = nil, deadline: Deadline = .none) throws(InvalidSpecError) -> (FlowSpec, [String: SourceLocation]) {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes, limits: JSONLimits(deadline: deadline))
        } catch {
            if error.timedOut { throw InvalidSpecError.timedOut(file: file, deadline: deadline, while: "parsing") }
            throw InvalidSpecError(file: file, issues: [SpecIssue(path: "$", location: error.location, message: (error.isMalformed ? "malformed JSON: " : "") + error.message)])
        }
        var reader = _SpecReader()
        reader.deadline = deadline
        let spec = reader.spec(root)
        if reader.timedOut { throw InvalidSpecError.timedOut(file: file, deadline: deadline, while: "reading the spec") }
        if !reader.issues.isEmpty || spec == nil {
            // Kept in the order found, not sorted by line: an unknown key (say the typo 'transitons')
            // comes before the 'missing required key' it causes, which points at the object's start.
            throw InvalidSpecError(file: file, issues: reader.issues.reported())
        }
        return (spec!, reader.locations)
    }
}

/// Reads the JSON tree into a spec, collecting every problem rather than stopping at the first.
struct _SpecReader {
    var issues = _SpecIssueList()
    var locations: [String: SourceLocation] = [:]
    /// The format version the file declares (1 until its `format` says `authflow/2`).
    var version = 1
    /// The keys `data` declares as counters (`"max"`), known before the steps are read so that a
    /// number given to one in `equals` is told to use `atLeast` or `below`.
    var counters: Set<String> = []
    /// When reading stops, leaving ``timedOut`` set.
    var deadline = Deadline.none
    /// Whether ``deadline`` stopped the reading: what was read is partial, and no issue is reported for it.
    var timedOut = false

    /// Whether the deadline has passed, asked at item `i` of a long list: every 4,096 items.
    mutating func timeUp(_ i: Int) -> Bool {
        if !timedOut, i & 4095 == 4095, deadline.hasPassed { timedOut = true }
        return timedOut
    }

    /// Reports `key` at `path` unless the file is `authflow/2`; returns whether it may be read.
    mutating func version2(_ key: String, at path: JSONPath, _ node: JSONNode?) -> Bool {
        guard version < 2 else { return true }
        fail(path, node, "'\(key)' is an authflow/2 key; this file's format is authflow/1")
        return false
    }

    mutating func fail(_ path: JSONPath, _ node: JSONNode?, _ message: @autoclosure () -> String) {
        issues.append(SpecIssue(path: path.text, location: node?.location, message: message()))
    }

    /// Whether `name` (of a state, an event or a data key) is within ``SpecLimits/maxNameBytes``
    /// and free of control and invisible formatting characters; reports it when it is not.
    mutating func checkName(_ name: String, at path: JSONPath, _ location: SourceLocation?, what: String) -> Bool {
        guard let problem = SpecLimits.nameProblem(name, what: what) else { return true }
        issues.append(SpecIssue(path: path.text, location: location, message: problem))
        return false
    }

    /// Whether `text` is free of control and invisible formatting characters, which reports print:
    /// an escape sequence in a name would drive the terminal, a bidi override reorder the line.
    mutating func checkVisible(_ text: String, at path: JSONPath, _ location: SourceLocation?, what: String) -> Bool {
        guard let problem = SpecLimits.visibilityProblem(text, what: what) else { return true }
        issues.append(SpecIssue(path: path.text, location: location, message: problem))
        return false
    }

    mutating func note(_ path: JSONPath, _ node: JSONNode) {
        locations[path.text] = node.location
    }

    /// The object's members by key, after reporting unknown keys (`x-` keys are ignored).
    /// - Parameter listed: the keys the message names as allowed, when not all of `known` (the
    ///   `/2` keys a `/1` file is told about separately).
    mutating func members(_ node: JSONNode, at path: JSONPath, known: [String], listed: [String]? = nil,
                          what: String) -> [String: JSONNode]? {
        guard case let .object(list) = node.value else {
            fail(path, node, "\(what) must be an object, found \(node.value.typeName)")
            return nil
        }
        var result: [String: JSONNode] = [:]
        for member in list {
            if member.key.hasPrefix("x-") { continue }
            // Scalar for scalar: U+212A KELVIN SIGN is not the letter K of a known key.
            if known.contains(where: { TextScalars.same($0, member.key) }) {
                result[member.key] = member.value
                note(path.member(member.key), member.value)
            } else {
                let hint = SpecLoader.suggestion(for: member.key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                issues.append(SpecIssue(path: path.member(member.key).text, location: member.keyLocation,
                                        message: "unknown key '\(SpecLimits.shown(member.key))'\(hint); allowed: \((listed ?? known).joined(separator: ", ")), or any key starting with 'x-'"))
            }
        }
        return result
    }

    /// The string at `path`; with `name` (what kind of name it is), also checked by ``checkName(_:at:_:what:)``.
    mutating func string(_ node: JSONNode?, at path: JSONPath, what: String, name: String? = nil) -> String? {
        guard let node else { return nil }
        guard case let .string(text) = node.value else {
            fail(path, node, "\(what) must be a string, found \(node.value.typeName)")
            return nil
        }
        if let name, !checkName(text, at: path, node.location, what: name) { return nil }
        return text
    }

    /// The array of names at `path`: each checked by ``checkName(_:at:_:what:)``, and the whole
    /// against `maxCount` entries (reported once, without reading the entries).
    mutating func strings(_ node: JSONNode?, at path: JSONPath, what: String, name: String, maxCount: Int? = nil) -> [String]? {
        guard let node else { return nil }
        guard case let .array(elements) = node.value else {
            fail(path, node, "\(what) must be an array of strings, found \(node.value.typeName)")
            return nil
        }
        if let maxCount, elements.count > maxCount {
            fail(path, node, "\(what) lists \(elements.count) data keys; a flow may use at most \(KeySet.capacity) distinct data keys")
            return nil
        }
        var result: [String] = []
        for (i, element) in elements.enumerated() {
            if timeUp(i) { return nil }
            note(path.index(i), element)
            if case let .string(text) = element.value {
                if checkName(text, at: path.index(i), element.location, what: name) { result.append(text) }
            } else {
                fail(path.index(i), element, "\(what) must contain only strings, found \(element.value.typeName)")
            }
        }
        return result
    }

    mutating func required(_ members: [String: JSONNode], _ key: String, at path: JSONPath, container: JSONNode) -> JSONNode? {
        if let node = members[key] { return node }
        fail(path.member(key), container, "missing required key '\(key)'")
        return nil
    }

    mutating func spec(_ root: JSONNode) -> FlowSpec? {
        let path = JSONPath.root
        if case let .object(list) = root.value, let format = list.first(where: { $0.key == "format" }),
           case .string("authflow/2") = format.value.value {
            version = 2
        }
        let known = SpecKeys.topLevel(version: 2)
        guard let top = members(root, at: path, known: known, listed: SpecKeys.topLevel(version: version), what: "a spec") else { return nil }

        if let format = required(top, "format", at: path, container: root) {
            if let text = string(format, at: path.member("format"), what: "format"), !SpecLoader.formats.contains(text) {
                let read = SpecLoader.formats.map { "\"\($0)\"" }.joined(separator: ", ")
                fail(path.member("format"), format, "unsupported format '\(SpecLimits.shown(text))'; this version reads \(read)")
            }
        }
        for key in SpecKeys.topLevelAdded2 where top[key] != nil { _ = version2(key, at: path.member(key), top[key]) }
        if version == 2, case let .object(declared)? = top["data"]?.value {
            for member in declared {
                if case let .object(fields) = member.value.value, fields.contains(where: { $0.key == "max" }) { counters.insert(member.key) }
            }
        }
        // Names the JSON Schema an editor checks the file with; the loader only checks it is a string.
        _ = string(top[SpecKeys.schema], at: path.member(SpecKeys.schema), what: SpecKeys.schema)
        var name = string(top["name"], at: path.member("name"), what: "name")
        if let text = name, !checkVisible(text, at: path.member("name"), top["name"]?.location, what: "the flow's name") { name = nil }
        let description = string(top["description"], at: path.member("description"), what: "description")
        let initial = string(required(top, "initial", at: path, container: root), at: path.member("initial"), what: "initial",
                             name: "state name")
        let success = strings(required(top, "success", at: path, container: root), at: path.member("success"), what: "success",
                              name: "state name")
        let abort = strings(required(top, "abort", at: path, container: root), at: path.member("abort"), what: "abort",
                            name: "state name")
        let secrets = strings(top["secrets"], at: path.member("secrets"), what: "secrets", name: "data key",
                              maxCount: SpecLimits.maxKeysPerList) ?? []
        let outputs = strings(top["outputs"], at: path.member("outputs"), what: "outputs", name: "data key",
                              maxCount: SpecLimits.maxKeysPerList) ?? []
        let steps = readSteps(required(top, "steps", at: path, container: root))
        let transitions = readTransitions(required(top, "transitions", at: path, container: root))
        let passcode = readPasscode(top["passcode"])

        let data = version == 2 ? readData(top["data"]) : []
        let config = version == 2 ? readConfig(top["config"]) : []
        let anywhere = version == 2 ? readAnywhere(top["anywhere"]) : []
        let properties = version == 2 ? readProperties(top["properties"]) : []
        let factors = version == 2 ? readFactors(top["factors"]) : []

        guard issues.isEmpty, let initial, let success, let abort, let steps, let transitions else { return nil }
        var spec = FlowSpec(name: name, description: description, initial: initial, success: success, abort: abort,
                            steps: steps, transitions: transitions, passcode: passcode, secrets: secrets, outputs: outputs)
        spec.format = version
        spec.data = data
        spec.config = config
        spec.anywhere = anywhere
        spec.properties = properties
        spec.factors = factors
        return spec
    }

    mutating func readSteps(_ node: JSONNode?) -> [FlowSpec.Step]? {
        guard let node else { return nil }
        let path = JSONPath.root.member("steps")
        guard case let .object(list) = node.value else {
            fail(path, node, "steps must be an object mapping each state to its step, found \(node.value.typeName)")
            return nil
        }
        var steps: [FlowSpec.Step] = []
        for (i, member) in list.enumerated() where !member.key.hasPrefix("x-") {
            if timeUp(i) { return nil }
            let stepPath = path.member(member.key)
            // A long name is refused before anything under it is read: every path below repeats it.
            guard checkName(member.key, at: stepPath, member.keyLocation, what: "state name") else { continue }
            note(stepPath, member.value)
            guard let fields = members(member.value, at: stepPath, known: SpecKeys.step(version: 2),
                                       listed: version == 2 ? nil : SpecKeys.step1,
                                       what: "step '\(SpecLimits.shown(member.key))'") else { continue }
            var step = FlowSpec.Step(member.key)
            if version == 2 {
                readRequires(fields["requires"], at: stepPath.member("requires"), into: &step)
            } else if case let .array(items)? = fields["requires"]?.value,
                      let (i, item) = items.enumerated().first(where: { if case .object = $0.element.value { true } else { false } }) {
                fail(stepPath.member("requires").index(i), item,
                     "a requirement written as an object ({\"anyOf\": [...]}) is authflow/2; in authflow/1 requires lists data keys")
            } else {
                step.requires = strings(fields["requires"], at: stepPath.member("requires"), what: "requires", name: "data key",
                                        maxCount: SpecLimits.maxKeysPerList) ?? []
            }
            if let optional = fields["optional"], version2("optional", at: stepPath.member("optional"), optional) {
                step.optional = strings(optional, at: stepPath.member("optional"), what: "optional", name: "data key",
                                        maxCount: SpecLimits.maxKeysPerList) ?? []
            }
            if let back = fields["back"] {
                if case let .bool(flag) = back.value { step.back = flag } else {
                    fail(stepPath.member("back"), back, "back must be true or false, found \(back.value.typeName)")
                }
            }
            if let backOnly = fields["backOnly"], version2("backOnly", at: stepPath.member("backOnly"), backOnly) {
                if case let .bool(flag) = backOnly.value { step.backOnly = flag } else {
                    fail(stepPath.member("backOnly"), backOnly, "backOnly must be true or false, found \(backOnly.value.typeName)")
                }
            }
            if let assurance = fields["assurance"], version2("assurance", at: stepPath.member("assurance"), assurance) {
                step.assurance = readAssurance(assurance, at: stepPath.member("assurance"))
            }
            if let entry = fields["entry"], version2("entry", at: stepPath.member("entry"), entry) {
                step.entry = readEntry(entry, at: stepPath.member("entry"))
            }
            if let emits = fields["emits"] {
                let emitsPath = stepPath.member("emits")
                if case let .object(events) = emits.value {
                    for (j, event) in events.enumerated() where !event.key.hasPrefix("x-") {
                        if timeUp(j) { return nil }
                        let eventPath = emitsPath.member(event.key)
                        guard checkName(event.key, at: eventPath, event.keyLocation, what: "event name") else { continue }
                        note(eventPath, event.value)
                        if let problem = Self.misplacedModifier(event.key, event.value, among: events) {
                            let note = version < 2 ? " (an authflow/2 form: the file's format must say so)" : ""
                            fail(eventPath, event.value, problem + note)
                            continue
                        }
                        if case .object = event.value.value, version < 2 {
                            fail(eventPath, event.value, "an emission written as an object is authflow/2; in authflow/1 it is the list of keys the event adds")
                            continue
                        }
                        if let emission = readEmission(event.key, event.value, at: eventPath) { step.emits.append(emission) }
                    }
                } else {
                    fail(emitsPath, emits, "emits must be an object mapping each event to the data keys it adds, found \(emits.value.typeName)")
                }
            }
            steps.append(step)
        }
        return steps
    }

    mutating func readTransitions(_ node: JSONNode?) -> [FlowSpec.TransitionRow]? {
        guard let node else { return nil }
        let path = JSONPath.root.member("transitions")
        guard case let .array(elements) = node.value else {
            fail(path, node, "transitions must be an array of {from, on, to} objects, found \(node.value.typeName)")
            return nil
        }
        var rows: [FlowSpec.TransitionRow] = []
        for (i, element) in elements.enumerated() {
            if timeUp(i) { return nil }
            let rowPath = path.index(i)
            note(rowPath, element)
            guard let fields = members(element, at: rowPath, known: SpecKeys.transition(version: 2),
                                       listed: version == 2 ? nil : SpecKeys.transition1, what: "a transition") else { continue }
            let from = string(required(fields, "from", at: rowPath, container: element), at: rowPath.member("from"), what: "from",
                              name: "state name")
            let on = string(required(fields, "on", at: rowPath, container: element), at: rowPath.member("on"), what: "on",
                            name: "event name")
            let to = string(required(fields, "to", at: rowPath, container: element), at: rowPath.member("to"), what: "to",
                            name: "state name")
            guard let from, let on, let to else { continue }
            var row = FlowSpec.TransitionRow(from: from, on: on, to: to)
            if SpecKeys.transitionAdded2.contains(where: { fields[$0] != nil }) {
                for key in SpecKeys.transitionAdded2 where fields[key] != nil { _ = version2(key, at: rowPath.member(key), fields[key]) }
                if version == 2 { readRowExtras(fields, at: rowPath, into: &row) }
            }
            rows.append(row)
        }
        return rows
    }

    mutating func readPasscode(_ node: JSONNode?) -> PasscodePolicy? {
        guard let node else { return nil }
        let path = JSONPath.root.member("passcode")
        guard let fields = members(node, at: path, known: SpecKeys.passcode, what: "passcode") else { return nil }
        var maxLength = PasscodePolicy.default.maxLength
        var alphabet = PasscodePolicy.defaultAlphabet
        if let length = fields["maxLength"] {
            if case let .number(number) = length.value, let value = number.int, (0...4096).contains(value) {
                maxLength = value
            } else {
                let found: String
                if case let .number(number) = length.value { found = SpecLimits.shown(number.literal) } else { found = length.value.typeName }
                fail(path.member("maxLength"), length, "maxLength must be a whole number from 0 to 4096, found \(found)")
            }
        }
        if let text = string(fields["alphabet"], at: path.member("alphabet"), what: "alphabet") {
            if text.isEmpty {
                fail(path.member("alphabet"), fields["alphabet"], "alphabet must not be empty")
            } else if let problem = PasscodePolicy.alphabetProblem(text) {
                fail(path.member("alphabet"), fields["alphabet"], problem)
            } else {
                alphabet = text
            }
        }
        return PasscodePolicy(maxLength: maxLength, alphabet: alphabet)
    }
}

extension _SpecReader {
    /// Why `key` in a step's `emits` is an emission's `when` or `by` written beside list-form
    /// emissions rather than an event, or `nil` when it reads as an event.
    ///
    /// `"emits": {"go": ["session"], "when": {"has": "email"}}` would otherwise be an event called
    /// `when` whose object has unknown keys: the list form takes no `when`, so the message shows the
    /// object form of the event beside it. Only a value that cannot be an event's is taken so: a
    /// guard-like object for `when`, `"user"` or `"system"` for `by`.
    static func misplacedModifier(_ key: String, _ value: JSONNode, among events: [JSONMember]) -> String? {
        let shown: String
        switch (key, value.value) {
        case let ("when", .object(members)):
            guard let op = members.first(where: { !$0.key.hasPrefix("x-") }), SpecKeys.guardOperators.contains(op.key) else { return nil }
            shown = "{\(JSON.quoted(op.key)): ...}"
        case let ("by", .string(sender)) where FlowSpec.Sender(rawValue: sender) != nil:
            shown = JSON.quoted(sender)
        default:
            return nil
        }
        let head = "'\(key)' is read here as an event named '\(key)'"
        // The list-form event written just before it is the one it was meant for; else the first after it.
        let isList = { (member: JSONMember) -> Bool in if case .array = member.value.value { !member.key.hasPrefix("x-") } else { false } }
        let at = events.firstIndex { $0.key == key } ?? events.endIndex
        guard let listed = events[..<at].last(where: isList) ?? events[at...].first(where: isList),
              case let .array(elements) = listed.value.value else {
            return head + ": \(key) belongs inside an event written as an object, such as \"event\": {\"adds\": [keys], \"\(key)\": \(shown)}"
        }
        let names = elements.prefix(4).map { element in if case let .string(name) = element.value { JSON.quoted(SpecLimits.shown(name)) } else { "..." } }
        let keys = "[" + (names + (elements.count > 4 ? ["..."] : [])).joined(separator: ", ") + "]"
        let event = JSON.quoted(SpecLimits.shown(listed.key))
        return head + ": the list form \(event): \(keys) takes no \(key); write the event as an object: "
            + "\(event): {\"adds\": \(keys), \"\(key)\": \(shown)}"
    }
}

extension SpecLoader {
    /// The known key closest to `key` by edit distance, ignoring case, if it is close enough to be a typo.
    ///
    /// Swaps of two neighbours count as two edits here (Levenshtein distance), unlike the
    /// command line's hints.
    static func suggestion(for key: String, among known: [String]) -> String? {
        EditDistance.nearest(to: Array(key.lowercased().unicodeScalars), in: known, countingSwaps: false) {
            Array($0.lowercased().unicodeScalars)
        }
    }
}
