/// What a shell completes for an option's value or a positional argument: the part of a command's
/// specification that `CompletionScript` turns into bash, zsh and fish code.
enum Completion: Sendable, Equatable {
    /// Nothing to offer (a number, `NAME=VALUE`, a URL).
    case none
    case files
    case directories
    /// Fixed values: `auto always never`.
    case words([String])
    /// Values that go on without a space: `junit=` … for `--report KIND=FILE`, a file after the `=`.
    case reportKinds
    /// Names of the workspace, asked from the workspace by `reqrun list --names KIND` when completing.
    case names(NameKind)
    /// Names of the workspace or files (`--env NAME|FILE`, `merge RECORD...`).
    case namesOrFiles(NameKind)
    /// `env list|show|use`: the action first, then the names the action takes (nil: none).
    case actions([Action])

    struct Action: Sendable, Equatable {
        var word: String
        var then: NameKind?
    }

    /// The names `reqrun list --names KIND` prints, one a line.
    enum NameKind: String, Sendable, CaseIterable {
        /// What `run NAME...` takes: collection names, group names and paths, request paths.
        case targets
        /// Group names and `Parent/Child` paths (`expand`, `collapse`).
        case groups
        /// Request paths `Group/Sub/Name` (`send`, `show --curl`).
        case requests
        /// `environments/NAME.json` names.
        case environments
        /// Recorded run ids, newest first.
        case runs
    }

    /// The completion a value placeholder implies: `FILE`/`PATH` files, `DIR` folders, `WHEN` the colour
    /// choices, `KIND=FILE` report kinds, `NAME|FILE` environments or files, `REQUEST` requests, `RUN` run ids,
    /// `a|b` (lower-case words) those words, `K/N|auto` `auto`; anything else nothing.
    static func forValue(_ valueName: String) -> Completion {
        switch valueName {
        case "FILE", "PATH": return .files
        case "DIR": return .directories
        case "WHEN": return .words(ColorChoice.allCases.map(\.rawValue))
        case "KIND=FILE": return .reportKinds
        case "NAME|FILE": return .namesOrFiles(.environments)
        case "REQUEST": return .names(.requests)
        case "RUN": return .namesOrFiles(.runs)
        default:
            let words = valueName.split(separator: "|").map(String.init)
            let lowercase = words.filter { $0.allSatisfy { $0.isLowercase } }
            return lowercase.isEmpty ? .none : .words(lowercase)
        }
    }

    /// The completion a positional argument's name implies (`NAME` of run, `GROUP`, `REQUEST`, `RUN`, `FILE`,
    /// `RECORD`, `DIR`).
    static func forPositional(_ name: String) -> Completion {
        switch name {
        case "NAME": return .names(.targets)
        case "GROUP": return .names(.groups)
        case "REQUEST": return .names(.requests)
        case "RUN": return .names(.runs)
        case "RECORD": return .namesOrFiles(.runs)
        case "ACTION": return .actions([.init(word: "list", then: nil), .init(word: "show", then: .environments), .init(word: "use", then: .environments)])
        default: return forValue(name)
        }
    }
}
