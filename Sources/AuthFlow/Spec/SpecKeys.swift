/// The keys each object of a spec file may hold, by format version: the one list the loader reads
/// (its "allowed:" messages included), and the JSON Schemas in `docs/schema/` and the format
/// references in `docs/` are tested against.
///
/// Keys starting with `x-` are extensions and allowed in every object the loader reads by these
/// lists; they are not listed here.
package enum SpecKeys {
    /// The top-level key that names the JSON Schema an editor validates the file with; any string.
    package static let schema = "$schema"

    /// The top-level keys of an `authflow/1` file, in the order messages list them.
    package static let topLevel1 = ["format", "name", "description", "initial", "success", "abort", "steps", "transitions",
                                    "passcode", "secrets", "outputs", schema]
    /// The top-level keys an `authflow/2` file may hold that an `authflow/1` file may not.
    package static let topLevelAdded2 = ["data", "config", "anywhere", "properties", "factors"]

    /// The keys of a step in an `authflow/1` file.
    package static let step1 = ["requires", "emits", "back"]
    /// The keys of a step an `authflow/2` file may hold that an `authflow/1` file may not.
    package static let stepAdded2 = ["optional", "backOnly", "assurance", "entry"]

    /// The keys of a transition row in an `authflow/1` file.
    package static let transition1 = ["from", "on", "to"]
    /// The keys of a transition row an `authflow/2` file may hold that an `authflow/1` file may not.
    package static let transitionAdded2 = ["when", "clears", "reset", "adds", "set", "increment", "keeps", "history"]

    /// The keys of `passcode`.
    package static let passcode = ["maxLength", "alphabet"]

    /// The keys of a declaration in `data` (`authflow/2`).
    package static let dataDeclaration = ["values", "max", "server"]
    /// The keys of an object in a step's `requires` (`authflow/2`).
    package static let requirement = ["anyOf"]
    /// The keys of an emission written as an object (`authflow/2`).
    package static let emission = ["adds", "set", "clears", "increment", "when", "by"]
    /// The keys of an `anywhere` row (`authflow/2`).
    package static let anywhere = ["on", "to", "by", "when", "except", "adds", "set", "increment", "clears", "stay", "history"]
    /// The keys of a step's `entry` (`authflow/2`): the effects of every forward move into the step.
    package static let entry = ["clears", "adds", "set", "increment"]
    /// The keys of a user property (`authflow/2`): an id, a description and exactly one of ``propertyKinds``.
    package static let property = ["id", "description", "always", "never", "reachable"]
    /// The keys of a user property that hold its guard; a property has exactly one.
    package static let propertyKinds = ["always", "never", "reachable"]
    /// The keys of a factor's declaration in `factors` (`authflow/2`, section 6).
    package static let factor = ["kind", "phishingResistant"]
    /// The operators of a guard (`authflow/2`); a guard is an object with exactly one of them.
    package static let guardOperators = ["has", "missing", "equals", "in", "atLeast", "below", "all", "any", "not"]

    /// Every kind of object the loader reads by a list here, for a file of format `version`: the list,
    /// and the name of the definition under `$defs` of `docs/schema/authflow-N.schema.json` that
    /// describes the same object (`nil`: the schema's top level).
    ///
    /// A key added to a list above is checked against the schema and the format reference
    /// (`SpecKeysTests`, `SpecSchemaTests`) with no other change; a new kind of object is one list
    /// above and one line here. The guards' operators are listed too: the schema's `guard` and
    /// `propertyGuard` hold them as properties, one required per branch.
    package static func objects(version: Int) -> [(definition: String?, keys: [String])] {
        var objects: [(definition: String?, keys: [String])] = [
            (nil, topLevel(version: version)),
            ("step", step(version: version)),
            ("transition", transition(version: version)),
            ("passcode", passcode),
        ]
        if version >= 2 {
            objects += [
                ("declaration", dataDeclaration),
                ("requirement", requirement),
                ("emission", emission),
                ("anywhereRow", anywhere),
                ("effects", entry),
                ("userProperty", property),
                ("factor", factor),
                ("guard", guardOperators),
                ("propertyGuard", guardOperators + ["at"]),
            ]
        }
        return objects
    }

    /// The top-level keys of a file of format `version` (1 or 2).
    package static func topLevel(version: Int) -> [String] {
        version >= 2 ? topLevel1 + topLevelAdded2 : topLevel1
    }

    /// The keys of a step in a file of format `version`.
    package static func step(version: Int) -> [String] {
        version >= 2 ? step1 + stepAdded2 : step1
    }

    /// The keys of a transition row in a file of format `version`.
    package static func transition(version: Int) -> [String] {
        version >= 2 ? transition1 + transitionAdded2 : transition1
    }
}
