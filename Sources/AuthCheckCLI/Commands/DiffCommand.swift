import AuthFlow
import AuthFlowChecker

/// `authcheck diff OLD NEW`: where a user of the new version of a flow sees something the old one did not show.
enum DiffCommand: Subcommand {
    static let name = "diff"
    static let abstract = "the behavioural difference between two versions of a spec"
    static let argumentsSynopsis = "OLD NEW"
    static let argumentsHelp = [
        (name: "OLD", help: "the spec before the change (JSON, authflow/1 or authflow/2), - for standard input, or REV:PATH as git holds it"),
        (name: "NEW", help: "the spec after the change, - for standard input (one of the two at most), or REV:PATH"),
    ]
    static let format = CommonOptions.format(DiffFormat.self, help:
        "output format (default text); json gives each difference with its path and both results, markdown a pull-request comment, sarif the new violations")
    static let depth = Option<Int?>("--depth", value: "N", help:
        "compare only moves at most N moves from the start (default: no bound)", default: nil) { text, name throws(UsageError) in
        try ValueParsers.integer(text, option: name, in: 0...Int.max)
    }
    static let options = [format.spec, depth.spec, CommonOptions.maxConfigurations.spec, CommonOptions.timeout.spec]
    static let discussion = [
        (title: "OUTPUT", body: """
            The two versions are run side by side from their starts (variants paired by
            their config values) as long as both show the same screen with the same data,
            names compared, not positions in the file. At each such place every move is
            compared: an event with the values the system chose, or back. A difference is
            a move only one version offers (added-move, removed-move), one both take to a
            different screen (different-state) or to the same screen with different data
            or history (different-data), or back allowed on one side only (added-back,
            removed-back). Nothing is compared past a difference. Each (kind, screen,
            move) is reported once, with the shortest way to it: the user's steps, then
            what the old and the new version do. A changed initial screen and a variant
            in one version only are differences at the start (length 0).
            Then the checker's verdicts on each: violations only the new version has,
            violations fixed, rules added or dropped, and the states and rows only the
            new version reaches (the screens and moves new to the user). Files that differ only in names shown, descriptions or the
            order of keys and rows that fire as before are identical.
            json: "identical", "differences" (each with "kind", "state", "event",
            "values", "variant", "length", "path", "old", "new"), "violations"
            ("new", "fixed"), "rules", "newStates" and "newRows".
            markdown: the same for a pull-request comment: a heading with the verdict,
            a table of the differences, the property changes as a list.
            sarif: the violations only the new version has, located in NEW, for code
            scanning (the exit status still says whether the versions differ).
            """),
        (title: "EXIT STATUS", body: """
            0  the versions behave alike and no verdict changed
            1  they differ
            2  an invalid spec (named), or wrong usage
            3  a limit (--max-configurations, --timeout) stopped the comparison before
               any difference was found
            """),
    ]

    struct Settings: CommandSettings {
        var format: DiffFormat
        var depth: Int?
        var maxConfigurations: Int
        var timeout: Double?
        /// The positional arguments: OLD and NEW, checked when the command runs.
        var specs: [String]

        init(_ parsed: ParsedArguments) throws(UsageError) {
            format = try parsed.value(of: DiffCommand.format)
            depth = try parsed.value(of: DiffCommand.depth)
            maxConfigurations = try parsed.value(of: CommonOptions.maxConfigurations)
            timeout = try parsed.value(of: CommonOptions.timeout)
            specs = parsed.positionals
        }

        /// OLD and NEW.
        /// - Throws: ``UsageError`` when there are not exactly two, or both are standard input.
        func pair() throws(UsageError) -> (old: String, new: String) {
            guard specs.count >= 1 else { throw .missingArgument("OLD") }
            guard specs.count >= 2 else { throw .missingArgument("NEW") }
            if specs.count > 2 { throw .unexpectedArgument(specs[2], reason: "diff takes two specs, OLD and NEW") }
            if specs[0] == SpecRunner.standardInput && specs[1] == SpecRunner.standardInput {
                throw .conflict("only one of OLD and NEW can be read from standard input (-)")
            }
            return (specs[0], specs[1])
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        let (oldPath, newPath) = try settings.pair()
        // The time spent loading counts towards --timeout.
        let deadline = Deadline(timeout: settings.timeout)
        let options = CheckOptions(limits: CheckLimits(maxConfigurations: settings.maxConfigurations, timeout: settings.timeout))
        var models: [FlowModel] = []
        for path in [oldPath, newPath] {
            switch load(path, options: options, context: context, deadline: deadline) {
            case let .invalid(report):
                switch settings.format {
                case .sarif:
                    SpecRunner.diagnose(report, stdout: .document, console: context.console)
                    context.console.out(SARIFRenderer.render([LocatedReport(report: report, model: nil)], toolVersion: AuthCheckCommand.version))
                case .markdown:
                    SpecRunner.diagnose(report, stdout: .document, console: context.console)
                    context.console.out(DiffMarkdown.invalid(ReportRenderer.text(report, style: .plain)))
                case .text, .json:
                    SpecRunner.reportInvalid(report, json: settings.format == .json, context: context)
                }
                return report.exitCode
            case let .model(model):
                models.append(model)
            }
        }
        guard models.count == 2 else { return 2 }
        let report = FlowDiff.compare(models[0], models[1],
                                      limits: CheckLimits(maxConfigurations: settings.maxConfigurations, timeout: settings.timeout),
                                      depth: settings.depth, deadline: deadline)
        let old = SpecRunner.displayName(oldPath), new = SpecRunner.displayName(newPath)
        switch settings.format {
        case .json: context.console.out(DiffJSON.render(report, old: old, new: new))
        case .markdown: context.console.out(DiffMarkdown.render(report, old: old, new: new))
        case .sarif: context.console.out(DiffSARIF.render(report, new: new, model: models[1]))
        case .text: context.console.out(DiffText.render(report, old: old, new: new, style: context.style))
        }
        return report.exitCode
    }

    /// A spec from a file, standard input, or git (`REV:PATH`, when no file has that name).
    static func load(_ path: String, options: CheckOptions, context: CommandContext, deadline: Deadline) -> SpecRunner.Loaded {
        guard let object = GitObject.parse(path) else {
            return SpecRunner.load(path, options: options, input: context.console, deadline: deadline)
        }
        let name = SpecRunner.displayName(path)
        do throws(InvalidSpecError) {
            let bytes: [UInt8]
            do {
                bytes = try GitObject.read(revision: object.revision, path: object.path, limit: SpecLoader.defaultMaxBytes)
            } catch {
                throw InvalidSpecError(file: name, issues: [SpecIssue(path: SpecIssue.wholeFile, message: error.reason)])
            }
            return try SpecRunner.selected(SpecLoader.load(bytes: bytes, file: name, deadline: deadline), options: options, name: name)
        } catch {
            return .invalid(.invalid(spec: name, error: error, options: options))
        }
    }
}
