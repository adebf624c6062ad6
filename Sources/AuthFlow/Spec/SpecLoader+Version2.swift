/// Reading the `authflow/2` parts of a spec file: data, config, object emissions, guards, guarded rows, `anywhere`.
///
/// Only the shape is checked here (types, known keys, one operator per guard); whether a key,
/// a value or a counter bound makes sense is the model builder's to say, with the same path.
extension _SpecReader {
    /// `data`: `{key: {} | {"values": [...]} | {"max": N}}`, in declaration order.
    mutating func readData(_ node: JSONNode?) -> [FlowSpec.DataDeclaration] {
        guard let node else { return [] }
        let path = JSONPath.root.member("data")
        guard case let .object(list) = node.value else {
            fail(path, node, "data must be an object mapping each key to its declaration, found \(node.value.typeName)")
            return []
        }
        var declarations: [FlowSpec.DataDeclaration] = []
        for member in list where !member.key.hasPrefix("x-") {
            let keyPath = path.member(member.key)
            guard checkName(member.key, at: keyPath, member.keyLocation, what: "data key") else { continue }
            note(keyPath, member.value)
            guard let fields = members(member.value, at: keyPath, known: SpecKeys.dataDeclaration,
                                       what: "the declaration of '\(SpecLimits.shown(member.key))'") else { continue }
            let server = fields["server"].map { readFlag($0, at: keyPath.member("server"), what: "server") } ?? false
            switch (fields["values"], fields["max"]) {
            case (nil, nil):
                declarations.append(.init(member.key, .presence, server: server))
            case let (values?, nil):
                if let list = strings(values, at: keyPath.member("values"), what: "values", name: "value") {
                    declarations.append(.init(member.key, .valued(list), server: server))
                }
            case let (nil, max?):
                if let bound = integer(max, at: keyPath.member("max"), what: "max") {
                    declarations.append(.init(member.key, .counter(max: bound), server: server))
                }
            case (_?, let max?):
                fail(keyPath.member("max"), max, "a key is valued ('values') or a counter ('max'), not both")
            }
        }
        return declarations
    }

    /// `config`: `{key: [values]}`, in declaration order.
    mutating func readConfig(_ node: JSONNode?) -> [FlowSpec.ConfigKey] {
        guard let node else { return [] }
        let path = JSONPath.root.member("config")
        guard case let .object(list) = node.value else {
            fail(path, node, "config must be an object mapping each key to its values, found \(node.value.typeName)")
            return []
        }
        var keys: [FlowSpec.ConfigKey] = []
        for member in list where !member.key.hasPrefix("x-") {
            let keyPath = path.member(member.key)
            guard checkName(member.key, at: keyPath, member.keyLocation, what: "data key") else { continue }
            note(keyPath, member.value)
            if let values = strings(member.value, at: keyPath, what: "the values of config key '\(SpecLimits.shown(member.key))'", name: "value") {
                keys.append(.init(member.key, values: values))
            }
        }
        return keys
    }

    /// A `/2` requirement list: key names and `{"anyOf": [keys]}` objects.
    mutating func readRequires(_ node: JSONNode?, at path: JSONPath, into step: inout FlowSpec.Step) {
        guard let node else { return }
        guard case let .array(elements) = node.value else {
            fail(path, node, "requires must be an array of data keys and {\"anyOf\": [...]} objects, found \(node.value.typeName)")
            return
        }
        for (i, element) in elements.enumerated() {
            let itemPath = path.index(i)
            note(itemPath, element)
            switch element.value {
            case let .string(key):
                if checkName(key, at: itemPath, element.location, what: "data key") { step.requires.append(key) }
            case .object:
                guard let fields = members(element, at: itemPath, known: SpecKeys.requirement, what: "a requirement") else { continue }
                guard let list = fields["anyOf"] else {
                    fail(itemPath, element, "a requirement object needs \"anyOf\": [keys]")
                    continue
                }
                if let keys = strings(list, at: itemPath.member("anyOf"), what: "anyOf", name: "data key") {
                    if keys.isEmpty {
                        fail(itemPath.member("anyOf"), list, "anyOf must name at least one key")
                    } else {
                        step.anyOf.append(keys)
                        step.anyOfPositions.append(i)
                    }
                }
            default:
                fail(itemPath, element, "a requirement is a data key or {\"anyOf\": [keys]}, found \(element.value.typeName)")
            }
        }
    }

    /// A `/2` emission: the `/1` list of keys, or `{adds, set, clears, increment, when, by}`.
    mutating func readEmission(_ event: String, _ node: JSONNode, at path: JSONPath) -> FlowSpec.Emission? {
        guard case .object = node.value else {
            var emission = FlowSpec.Emission(event)
            if version >= 2 {
                let adds = addsList(node, at: path, what: "the data keys of event '\(SpecLimits.shown(event))'")
                emission.adds = adds?.keys ?? []
                emission.answers = adds?.answers ?? []
            } else {
                emission.adds = strings(node, at: path, what: "the data keys of event '\(SpecLimits.shown(event))'", name: "data key",
                                        maxCount: SpecLimits.maxKeysPerList) ?? []
            }
            emission.writtenAsList = true
            return emission
        }
        guard let fields = members(node, at: path, known: SpecKeys.emission,
                                   what: "event '\(SpecLimits.shown(event))'") else { return nil }
        var emission = FlowSpec.Emission(event)
        let adds = addsList(fields["adds"], at: path.member("adds"), what: "adds")
        emission.adds = adds?.keys ?? []
        emission.answers = adds?.answers ?? []
        emission.clears = strings(fields["clears"], at: path.member("clears"), what: "clears", name: "data key", maxCount: SpecLimits.maxKeysPerList) ?? []
        emission.increment = strings(fields["increment"], at: path.member("increment"), what: "increment", name: "data key",
                                     maxCount: SpecLimits.maxKeysPerList) ?? []
        emission.set = keyValues(fields["set"], at: path.member("set"), what: "set")
        emission.when = fields["when"].flatMap { guardSpec($0, at: path.member("when")) }
        if let by = fields["by"] { emission.by = sender(by, at: path.member("by")) ?? .user }
        return emission
    }

    /// `"user"` or `"system"`.
    mutating func sender(_ node: JSONNode, at path: JSONPath) -> FlowSpec.Sender? {
        guard case let .string(text) = node.value, let sender = FlowSpec.Sender(rawValue: text) else {
            fail(path, node, "by must be \"user\" or \"system\", found \(node.value.described)")
            return nil
        }
        return sender
    }

    /// `{key: "value", ...}`, in order.
    mutating func keyValues(_ node: JSONNode?, at path: JSONPath, what: String) -> [FlowSpec.KeyValue] {
        guard let node else { return [] }
        guard case let .object(list) = node.value else {
            fail(path, node, "\(what) must be an object mapping keys to values, found \(node.value.typeName)")
            return []
        }
        var pairs: [FlowSpec.KeyValue] = []
        for member in list where !member.key.hasPrefix("x-") {
            let memberPath = path.member(member.key)
            note(memberPath, member.value)
            guard checkName(member.key, at: memberPath, member.keyLocation, what: "data key") else { continue }
            guard case let .string(value) = member.value.value else {
                let hint = numberHint(member.key, member.value, in: what)
                fail(memberPath, member.value, "the value of '\(SpecLimits.shown(member.key))' in \(what) must be a string, found \(member.value.value.typeName)" + hint)
                continue
            }
            pairs.append(.init(member.key, value))
        }
        return pairs
    }

    /// Why a number given to `equals` or `set` is no value: a counter is tested with `atLeast` or
    /// `below` and changed with `increment` or `clears`, a valued key's values are strings.
    func numberHint(_ key: String, _ node: JSONNode, in what: String) -> String {
        guard case let .number(number) = node.value else { return "" }
        let name = SpecLimits.shown(key)
        let shown = SpecLimits.shown(number.literal)
        let isCounter = counters.contains(key)
        switch (what, isCounter) {
        case ("equals", true):
            return "; '\(name)' is a counter, which equals cannot test: write {\"atLeast\": {\"\(name)\": \(shown)}} (\(shown) or more) "
                + "or {\"below\": {\"\(name)\": \(shown)}} (fewer than \(shown))"
        case ("equals", false):
            return "; equals tests a valued key against one of its values (strings); a counter (declared in data with \"max\") "
                + "is tested with atLeast or below: {\"atLeast\": {\"\(name)\": \(shown)}}"
        case (_, true):
            return "; '\(name)' is a counter: increment it, or clear it to 0"
        default:
            return "; a valued key's values are strings: write \"\(shown)\""
        }
    }

    /// A whole number; the model builder says which ones make sense where (a counter's max, a guard's bound).
    mutating func integer(_ node: JSONNode, at path: JSONPath, what: String) -> Int? {
        if case let .number(number) = node.value, let value = number.int { return value }
        fail(path, node, "\(what) must be a whole number, found \(node.value.described)")
        return nil
    }

    /// A guard: a JSON object with exactly one operator key.
    mutating func guardSpec(_ node: JSONNode, at path: JSONPath, allowAt: Bool = false) -> FlowSpec.Guard? {
        let operators = SpecKeys.guardOperators + (allowAt ? ["at"] : [])
        guard case let .object(list) = node.value else {
            fail(path, node, "a guard must be an object with one operator (\(operators.joined(separator: ", "))), found \(node.value.typeName)")
            return nil
        }
        // `at` tests the state, which only a property's condition may: say so rather than call it unknown.
        if !allowAt, let at = list.first(where: { $0.key == "at" }) {
            issues.append(SpecIssue(path: path.member("at").text, location: at.keyLocation,
                                    message: "'at' tests the state, so only a property's condition may use it; a guard of an event or a row tests the data"))
        }
        guard let fields = members(node, at: path, known: operators + (allowAt ? [] : ["at"]), listed: operators, what: "a guard") else { return nil }
        // `x-` keys are ignored here as everywhere: the operator is the one other key.
        let written = list.filter { !$0.key.hasPrefix("x-") }
        guard written.count == 1, let (op, operand) = fields.first, op != "at" || allowAt else {
            // An object of `x-` keys alone has no operator either: it must not pass as no guard at all.
            if written.isEmpty {
                fail(path, node, "a guard needs one operator (\(operators.joined(separator: ", ")))")
            } else if written.count > 1 {
                fail(path, node, "a guard has exactly one operator; found \(written.map(\.key).joined(separator: ", ")) (combine them with \"all\" or \"any\")")
            }
            return nil
        }
        let operandPath = path.member(op)
        switch op {
        case "has", "missing":
            guard let key = string(operand, at: operandPath, what: op, name: "data key") else { return nil }
            return op == "has" ? .has(key) : .missing(key)
        case "equals":
            let pairs = keyValues(operand, at: operandPath, what: "equals")
            // Only an object naming no key is empty: a pair refused for its value was reported already.
            if case let .object(all) = operand.value, all.allSatisfy({ $0.key.hasPrefix("x-") }) {
                fail(operandPath, operand, "equals must name at least one key")
            }
            return .equals(pairs)
        case "in":
            guard case let .object(all) = operand.value, case let members = all.filter({ !$0.key.hasPrefix("x-") }), !members.isEmpty else {
                fail(operandPath, operand, "in must map at least one key to its values")
                return nil
            }
            var lists: [FlowSpec.KeyValues] = []
            for member in members {
                let memberPath = operandPath.member(member.key)
                note(memberPath, member.value)
                guard checkName(member.key, at: memberPath, member.keyLocation, what: "data key") else { continue }
                if let values = strings(member.value, at: memberPath, what: "the values of '\(SpecLimits.shown(member.key))' in in", name: "value") {
                    lists.append(.init(member.key, values))
                }
            }
            return .isIn(lists)
        case "atLeast", "below":
            guard case let .object(all) = operand.value, case let members = all.filter({ !$0.key.hasPrefix("x-") }), !members.isEmpty else {
                fail(operandPath, operand, "\(op) must map at least one counter to a number")
                return nil
            }
            var bounds: [FlowSpec.CounterBound] = []
            for member in members {
                let memberPath = operandPath.member(member.key)
                note(memberPath, member.value)
                guard checkName(member.key, at: memberPath, member.keyLocation, what: "data key"),
                      let bound = integer(member.value, at: memberPath, what: "the bound of '\(SpecLimits.shown(member.key))'") else { continue }
                bounds.append(.init(member.key, bound))
            }
            return op == "atLeast" ? .atLeast(bounds) : .below(bounds)
        case "all", "any":
            guard case let .array(elements) = operand.value else {
                fail(operandPath, operand, "\(op) must be an array of guards, found \(operand.value.typeName)")
                return nil
            }
            var guards: [FlowSpec.Guard] = []
            for (i, element) in elements.enumerated() {
                note(operandPath.index(i), element)
                if let inner = guardSpec(element, at: operandPath.index(i), allowAt: allowAt) { guards.append(inner) }
            }
            return op == "all" ? .all(guards) : .any(guards)
        case "not":
            return guardSpec(operand, at: operandPath, allowAt: allowAt).map { .not($0) }
        default:   // "at"
            return strings(operand, at: operandPath, what: "at", name: "state name").map { .at($0) }
        }
    }

    /// `anywhere`: `[{on, to, by, when, except, adds, set, increment, clears}]`.
    mutating func readAnywhere(_ node: JSONNode?) -> [FlowSpec.AnywhereRow] {
        guard let node else { return [] }
        let path = JSONPath.root.member("anywhere")
        guard case let .array(elements) = node.value else {
            fail(path, node, "anywhere must be an array of {on, to, ...} objects, found \(node.value.typeName)")
            return []
        }
        var rows: [FlowSpec.AnywhereRow] = []
        for (i, element) in elements.enumerated() {
            if timeUp(i) { return [] }
            let rowPath = path.index(i)
            note(rowPath, element)
            guard let fields = members(element, at: rowPath,
                                       known: SpecKeys.anywhere,
                                       what: "an anywhere row") else { continue }
            let on = string(required(fields, "on", at: rowPath, container: element), at: rowPath.member("on"), what: "on", name: "event name")
            let stay = fields["stay"].map { readStay($0, at: rowPath.member("stay")) } ?? false
            if stay, let to = fields["to"] {
                fail(rowPath.member("to"), to, "an anywhere entry with \"stay\": true goes back to the state it leaves; remove \"to\" (or remove \"stay\")")
                continue
            }
            let to = stay ? "" : string(required(fields, "to", at: rowPath, container: element), at: rowPath.member("to"), what: "to", name: "state name")
            guard let on, let to else { continue }
            var row = FlowSpec.AnywhereRow(on: on, to: to)
            row.stay = stay
            if let history = fields["history"], let replace = readHistory(history, at: rowPath.member("history")) {
                if replace && !stay {
                    fail(rowPath.member("history"), history, "\"history\": \"replace\" updates the screen in place, so an anywhere entry "
                         + "that takes it must stay on that screen: add \"stay\": true and remove \"to\" (or remove \"history\")")
                    continue
                }
                row.replace = replace
            }
            if let by = fields["by"] { row.by = sender(by, at: rowPath.member("by")) ?? .user }
            row.when = fields["when"].flatMap { guardSpec($0, at: rowPath.member("when")) }
            row.except = strings(fields["except"], at: rowPath.member("except"), what: "except", name: "state name") ?? []
            row.adds = strings(fields["adds"], at: rowPath.member("adds"), what: "adds", name: "data key", maxCount: SpecLimits.maxKeysPerList) ?? []
            row.set = keyValues(fields["set"], at: rowPath.member("set"), what: "set")
            row.increment = strings(fields["increment"], at: rowPath.member("increment"), what: "increment", name: "data key",
                                    maxCount: SpecLimits.maxKeysPerList) ?? []
            row.clears = strings(fields["clears"], at: rowPath.member("clears"), what: "clears", name: "data key",
                                 maxCount: SpecLimits.maxKeysPerList) ?? []
            rows.append(row)
        }
        return rows
    }

    /// `properties`: `[{id, description, always | never | reachable}]`, in order; the guard may test the state with `at`.
    mutating func readProperties(_ node: JSONNode?) -> [FlowSpec.UserProperty] {
        guard let node else { return [] }
        let path = JSONPath.root.member("properties")
        guard case let .array(elements) = node.value else {
            fail(path, node, "properties must be an array of {id, always | never | reachable} objects, found \(node.value.typeName)")
            return []
        }
        var properties: [FlowSpec.UserProperty] = []
        for (i, element) in elements.enumerated() {
            if timeUp(i) { return [] }
            let itemPath = path.index(i)
            note(itemPath, element)
            guard let fields = members(element, at: itemPath, known: SpecKeys.property, what: "a property") else { continue }
            let id = string(required(fields, "id", at: itemPath, container: element), at: itemPath.member("id"), what: "id")
            var description = string(fields["description"], at: itemPath.member("description"), what: "description")
            // Reports print it (a SARIF rule, the text report): no control or invisible formatting character.
            if let text = description, !checkVisible(text, at: itemPath.member("description"), fields["description"]?.location,
                                                     what: "the property's description") { description = nil }
            let kinds = SpecKeys.propertyKinds.filter { fields[$0] != nil }
            guard kinds.count == 1, let kind = FlowSpec.UserProperty.Kind(rawValue: kinds[0]), let written = fields[kinds[0]] else {
                let found = kinds.isEmpty ? "none" : kinds.joined(separator: " and ")
                fail(itemPath, element, "a property states exactly one of always, never or reachable; found \(found)")
                continue
            }
            guard let id, let condition = guardSpec(written, at: itemPath.member(kinds[0]), allowAt: true) else { continue }
            properties.append(FlowSpec.UserProperty(id, kind, condition, description: description))
        }
        return properties
    }

    /// A transition row's `/2` fields: `when`, `clears`, `reset`.
    mutating func readRowExtras(_ fields: [String: JSONNode], at rowPath: JSONPath, into row: inout FlowSpec.TransitionRow) {
        row.when = fields["when"].flatMap { guardSpec($0, at: rowPath.member("when")) }
        row.clears = strings(fields["clears"], at: rowPath.member("clears"), what: "clears", name: "data key",
                             maxCount: SpecLimits.maxKeysPerList) ?? []
        if let reset = fields["reset"] {
            if case let .bool(flag) = reset.value { row.reset = flag } else {
                fail(rowPath.member("reset"), reset, "reset must be true or false, found \(reset.value.typeName)")
            }
        }
        readRowEffects(fields, at: rowPath, into: &row)
    }
}

extension JSONValue {
    /// The value as an error message quotes it: a string or number as written, otherwise its type.
    var described: String {
        switch self {
        case let .string(text): return "'\(SpecLimits.shown(text))'"
        case let .number(number): return SpecLimits.shown(number.literal)
        default: return typeName
        }
    }
}
