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

    /// Newman's spellings get reqrun's instead of a near but wrong guess (`--delay-request` was "did you
    /// mean '--max-requests'?", `--ssl-client-cert` "'--ssl-client-cert-list'?").
    @Test func newmanOptionsNameReqrunsEquivalent() {
        func message(_ arguments: [String], _ spec: CommandSpec) -> String? {
            do { _ = try ArgumentParser.parse(arguments, for: spec); return nil } catch { return error.message }
        }
        let run = RunCommand.command.spec, send = SendCommand.command.spec
        #expect(message(["--all", "--delay-request", "10"], run) == "unknown option '--delay-request'; Newman's '--delay-request MS' is '--pause MS' here")
        #expect(message(["--ssl-client-cert", "c.pem"], run) == "unknown option '--ssl-client-cert'; Newman's '--ssl-client-cert FILE' is '--cert FILE' here")
        #expect(message(["--iteration-count", "2"], run) == "unknown option '--iteration-count'; Newman's '--iteration-count N' is '-n, --iterations N' here")
        #expect(message(["--folder", "Auth"], run) == "unknown option '--folder'; Newman's '--folder NAME' is a NAME argument ('reqrun run NAME…') here")
        #expect(message(["-r", "junit"], run) == "unknown option '-r'; Newman's '-r KIND' is '--report KIND=FILE' (junit, newman-json for Newman's json, har, html; json is reqrun's run record; the console is always on) here")
        // Newman's JSON reporter's shape is newman-json: json=FILE would write reqrun's own run record.
        #expect(message(["--reporter-json-export", "r.json"], run) == "unknown option '--reporter-json-export'; Newman's '--reporter-json-export FILE' is '--report newman-json=FILE' (json=FILE writes reqrun's run record) here")
        #expect(message(["--environment=e.json"], run) == "unknown option '--environment'; Newman's '--environment FILE' is '-e, --env FILE' here")
        // Only where the command has the equivalent: `send` has no --iterations and no NAME list.
        #expect(message(["--iteration-count", "2", "x"], send) == "unknown option '--iteration-count'")
        #expect(message(["--folder", "Auth", "x"], send) == "unknown option '--folder'")
        #expect(message(["--ssl-client-key", "k.pem", "x"], send) == "unknown option '--ssl-client-key'; Newman's '--ssl-client-key FILE' is '--key FILE' here")
        #expect(message(["--expandd"], run) == "unknown option '--expandd'; did you mean '--expanded'?")
    }

    /// `reqrun send GET URL` (curl's, HTTPie's habit) says what REQUEST is.
    @Test func sendWithAMethodAndURLSaysWhatRequestIs() {
        do {
            _ = try ArgumentParser.parse(["GET", "https://api.example/get"], for: SendCommand.command.spec)
            Issue.record("parsed")
        } catch {
            #expect(error.message == "unexpected argument 'https://api.example/get'; REQUEST is a request of the workspace's collections "
                    + "(#index, Group/Name or its name), not a method and URL")
        }
        do {
            _ = try ArgumentParser.parse(["login", "extra"], for: SendCommand.command.spec)
        } catch {
            #expect(error.message == "unexpected argument 'extra'")
        }
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
