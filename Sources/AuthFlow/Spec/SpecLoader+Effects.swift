/// Reading the effects of section 5 of `authflow/2`: a row's own effects and `keeps`, a step's
/// `entry`, an emission's answers drawn from part of a key's domain, an `anywhere` entry that stays.
///
/// Only the shape is checked here; which keys each may name is the model builder's to say, at the same paths.
extension _SpecReader {
    /// An `authflow/2` `adds` list: data keys, and `{"key": [values]}` items that add a valued key
    /// answered with those values only. Returns the keys in the order written and the answers.
    mutating func addsList(_ node: JSONNode?, at path: JSONPath, what: String) -> (keys: [String], answers: [FlowSpec.KeyValues])? {
        guard let node else { return nil }
        guard case let .array(elements) = node.value else {
            fail(path, node, "\(what) must be an array of strings, found \(node.value.typeName)")
            return nil
        }
        if elements.count > SpecLimits.maxKeysPerList {
            fail(path, node, "\(what) lists \(elements.count) data keys; a flow may use at most \(KeySet.capacity) distinct data keys")
            return nil
        }
        var keys: [String] = []
        var answers: [FlowSpec.KeyValues] = []
        for (i, element) in elements.enumerated() {
            if timeUp(i) { return nil }
            let itemPath = path.index(i)
            note(itemPath, element)
            switch element.value {
            case let .string(text):
                if checkName(text, at: itemPath, element.location, what: "data key") { keys.append(text) }
            case let .object(members):
                let written = members.filter { !$0.key.hasPrefix("x-") }
                guard written.count == 1, let member = written.first else {
                    fail(itemPath, element, "an answer is an object naming one valued key and the values the system may answer with, "
                         + "such as {\"nextStep\": [\"done\", \"confirmTotp\"]}; found \(written.count) keys")
                    continue
                }
                let memberPath = itemPath.member(member.key)
                note(memberPath, member.value)
                guard checkName(member.key, at: memberPath, member.keyLocation, what: "data key"),
                      let values = strings(member.value, at: memberPath, what: "the values of '\(SpecLimits.shown(member.key))' in \(what)",
                                           name: "value") else { continue }
                keys.append(member.key)
                answers.append(FlowSpec.KeyValues(member.key, values))
            default:
                fail(itemPath, element, "\(what) must contain data keys and {\"key\": [values]} objects, found \(element.value.typeName)")
            }
        }
        return (keys, answers)
    }

    /// A step's `entry`: `{clears, adds, set, increment}`, the effects of every forward move into it.
    mutating func readEntry(_ node: JSONNode, at path: JSONPath) -> FlowSpec.Effects? {
        guard let fields = members(node, at: path, known: SpecKeys.entry, what: "entry") else { return nil }
        var effects = FlowSpec.Effects()
        effects.clears = strings(fields["clears"], at: path.member("clears"), what: "clears", name: "data key", maxCount: SpecLimits.maxKeysPerList) ?? []
        effects.adds = strings(fields["adds"], at: path.member("adds"), what: "adds", name: "data key", maxCount: SpecLimits.maxKeysPerList) ?? []
        effects.set = keyValues(fields["set"], at: path.member("set"), what: "set")
        effects.increment = strings(fields["increment"], at: path.member("increment"), what: "increment", name: "data key",
                                    maxCount: SpecLimits.maxKeysPerList) ?? []
        return effects
    }

    /// A transition row's effects beside its `clears` (`adds`, `set`, `increment`) and a reset row's `keeps`.
    mutating func readRowEffects(_ fields: [String: JSONNode], at rowPath: JSONPath, into row: inout FlowSpec.TransitionRow) {
        row.adds = strings(fields["adds"], at: rowPath.member("adds"), what: "adds", name: "data key", maxCount: SpecLimits.maxKeysPerList) ?? []
        row.set = keyValues(fields["set"], at: rowPath.member("set"), what: "set")
        row.increment = strings(fields["increment"], at: rowPath.member("increment"), what: "increment", name: "data key",
                                maxCount: SpecLimits.maxKeysPerList) ?? []
        row.keeps = strings(fields["keeps"], at: rowPath.member("keeps"), what: "keeps", name: "data key", maxCount: SpecLimits.maxKeysPerList) ?? []
        if let history = fields["history"] { row.replace = readHistory(history, at: rowPath.member("history")) ?? false }
    }

    /// A move's `history`: `"replace"` (the move updates the screen in place); `nil` after failing.
    mutating func readHistory(_ node: JSONNode, at path: JSONPath) -> Bool? {
        guard case let .string(text) = node.value, text == "replace" else {
            let found: String
            if case let .string(text) = node.value { found = "'\(SpecLimits.shown(text))'" } else { found = node.value.typeName }
            fail(path, node, "history takes \"replace\" (the move updates the screen in place instead of opening a new one), found \(found); "
                 + "remove history for a move that opens a new screen")
            return nil
        }
        return true
    }

    /// A `true`/`false` flag named `what` (a data key's `server`).
    mutating func readFlag(_ node: JSONNode, at path: JSONPath, what: String) -> Bool {
        guard case let .bool(flag) = node.value else {
            fail(path, node, "\(what) must be true or false, found \(node.value.typeName)")
            return false
        }
        return flag
    }

    /// An `anywhere` entry's `stay`: `true` sends the row back to the state it leaves; it replaces `to`.
    mutating func readStay(_ node: JSONNode, at path: JSONPath) -> Bool {
        guard case let .bool(flag) = node.value else {
            fail(path, node, "stay must be true or false, found \(node.value.typeName)")
            return false
        }
        return flag
    }
}
