import Testing
@testable import ReqRunCLI

@Suite struct ArgumentParserTests {
    let spec = CommandSpec(
        name: "run", abstract: "Run.",
        options: [.init(name: "--all", valueName: nil, help: "All."),
                  .init(name: "--var", valueName: "NAME=VALUE", help: "Set.", repeatable: true),
                  .init(name: "--timeout", valueName: "SECONDS", help: "Limit.")],
        positional: .init(name: "GROUP", help: "Groups.", repeating: true, optional: true))

    @Test func parsesFlagsValuesAndPositionals() throws {
        let parsed = try ArgumentParser.parse(["a", "--var", "x=1", "--all", "--var=y=2=3", "b", "--timeout=1.5", "--", "--c"], for: spec)
        #expect(parsed.flag("--all"))
        #expect(parsed.all("--var") == ["x=1", "y=2=3"])
        #expect(parsed.value("--timeout") == "1.5")
        #expect(parsed.positionals == ["a", "b", "--c"])
    }

    @Test func helpIsRecognisedAnywhere() throws {
        #expect(try ArgumentParser.parse(["x", "-h"], for: spec).flag("--help"))
        #expect(try ArgumentParser.parse(["--help"], for: spec).flag("--help"))
    }

    @Test func errorsNameTheArgument() {
        #expect(usageMessage(["--al"]) == "unknown option '--al'; did you mean '--all'?")
        #expect(usageMessage(["--timeout"]) == "missing value for '--timeout SECONDS'")
        #expect(usageMessage(["--timeout", "1", "--timeout", "2"]) == "'--timeout' may be given only once")
        #expect(usageMessage(["--all=yes"]) == "the flag '--all' takes no value")
        let noPositional = CommandSpec(name: "history", abstract: "")
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["extra"], for: noPositional) }
    }

    @Test func usageLineAndHelpFollowArgumentParserConventions() {
        #expect(spec.usage == "reqrun run [--all] [--var NAME=VALUE ...] [--timeout SECONDS] [GROUP ...]")
        #expect(HelpText.render(spec, width: 100) == """
            OVERVIEW: Run.

            USAGE: reqrun run [--all] [--var NAME=VALUE ...] [--timeout SECONDS] [GROUP ...]

            ARGUMENTS:
              <group>                 Groups.

            OPTIONS:
              --all                   All.
              --var <name=value>      Set.
              --timeout <seconds>     Limit.
              --color <when>          Colour the output: auto (on a terminal), always or never (default: auto;
                                      NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE and TERM=dumb are honoured).
              -h, --help              Show help information.

            """)
    }

    @Test func aShortSpellingParsesAsItsOptionAndShowsInHelp() throws {
        let verbose = CommandSpec(name: "send", abstract: "Send.", options: [.verbose])
        #expect(try ArgumentParser.parse(["-v"], for: verbose).flag("--verbose"))
        #expect(try ArgumentParser.parse(["--verbose"], for: verbose).flag("--verbose"))
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["-v=1"], for: verbose) }
        #expect(HelpText.render(verbose).contains("  -v, --verbose           Also print what was sent"))
    }

    private func usageMessage(_ arguments: [String]) -> String? {
        do {
            _ = try ArgumentParser.parse(arguments, for: spec)
            return nil
        } catch {
            return error.message
        }
    }
}
