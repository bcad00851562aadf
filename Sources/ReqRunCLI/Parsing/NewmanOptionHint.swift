/// What a Newman user types out of habit and reqrun spells differently, for the unknown-option error:
/// `unknown option '--folder'; Newman's '--folder NAME' is 'reqrun run NAME'`. The pairs are the table "Newman's
/// options" of docs/postman.md (newman 6's `newman run --help`); a Newman option reqrun has under the same
/// name (`--bail`, `-k`, `--globals`, `--working-dir`…) never gets here.
enum NewmanOptionHint {
    /// One Newman option: its spelling with its value, and reqrun's, shown when the command has `option`
    /// (nil: the command takes NAME arguments, as `run` does).
    private struct Entry {
        var newman: String
        var reqrun: String
        var option: String?
    }

    /// What `-r`/`--reporters` become: Newman's `json` reporter is reqrun's `newman-json` (docs/postman.md).
    private static let reportKinds = "'--report KIND=FILE' (junit, newman-json for Newman's json, har, html; json is reqrun's run record; the console is always on)"

    private static let entries: [String: Entry] = [
        "--folder": Entry(newman: "--folder NAME", reqrun: "a NAME argument ('reqrun run NAME…')", option: nil),
        "--environment": Entry(newman: "--environment FILE", reqrun: "'-e, --env FILE'", option: "--env"),
        "--iteration-count": Entry(newman: "--iteration-count N", reqrun: "'-n, --iterations N'", option: "--iterations"),
        "--timeout-request": Entry(newman: "--timeout-request MS", reqrun: "'--timeout SECONDS'", option: "--timeout"),
        "--timeout-script": Entry(newman: "--timeout-script MS", reqrun: "'--script-timeout SECONDS'", option: "--script-timeout"),
        "--delay-request": Entry(newman: "--delay-request MS", reqrun: "'--pause MS'", option: "--pause"),
        "--ignore-redirects": Entry(newman: "--ignore-redirects", reqrun: "'--no-follow'", option: "--no-follow"),
        "--ssl-client-cert": Entry(newman: "--ssl-client-cert FILE", reqrun: "'--cert FILE'", option: "--cert"),
        "--ssl-client-key": Entry(newman: "--ssl-client-key FILE", reqrun: "'--key FILE'", option: "--key"),
        "--ssl-extra-ca-certs": Entry(newman: "--ssl-extra-ca-certs FILE", reqrun: "'--cacert FILE'", option: "--cacert"),
        "--env-var": Entry(newman: "--env-var NAME=VALUE", reqrun: "'--var NAME=VALUE'", option: "--var"),
        "--global-var": Entry(newman: "--global-var NAME=VALUE", reqrun: "'--var NAME=VALUE'", option: "--var"),
        "--export-cookie-jar": Entry(newman: "--export-cookie-jar FILE", reqrun: "'--cookie-jar FILE' (Netscape format)", option: "--cookie-jar"),
        "-x": Entry(newman: "-x", reqrun: "'--suppress-exit-code'", option: "--suppress-exit-code"),
        "--silent": Entry(newman: "--silent", reqrun: "'-q, --quiet'", option: "--quiet"),
        "-r": Entry(newman: "-r KIND", reqrun: reportKinds, option: "--report"),
        "--reporters": Entry(newman: "--reporters KIND", reqrun: reportKinds, option: "--report"),
        "--reporter-junit-export": Entry(newman: "--reporter-junit-export FILE", reqrun: "'--report junit=FILE'", option: "--report"),
        "--reporter-json-export": Entry(newman: "--reporter-json-export FILE", reqrun: "'--report newman-json=FILE' (json=FILE writes reqrun's run record)", option: "--report"),
        "--reporter-htmlextra-export": Entry(newman: "--reporter-htmlextra-export FILE", reqrun: "'--report html=FILE'", option: "--report"),
    ]

    /// `Newman's '--folder NAME' is a NAME argument ('reqrun run NAME…')`, or nil when `name` is not a Newman
    /// option reqrun spells differently, or `spec` has no equivalent.
    static func hint(for name: String, in spec: CommandSpec) -> String? {
        guard let entry = entries[name] else { return nil }
        if let option = entry.option {
            guard spec.options.contains(where: { $0.name == option && !$0.hidden }) else { return nil }
        } else {
            guard spec.name == "run" else { return nil }
        }
        return "Newman's '\(entry.newman)' is \(entry.reqrun) here"
    }
}
