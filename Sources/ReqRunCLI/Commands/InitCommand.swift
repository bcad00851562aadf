import Foundation
import ReqRunKit

/// `reqrun init [DIR]`: a new workspace with an example collection, an environment and a `.gitignore`
/// for `.reqrun/`, which `reqrun list` and `reqrun run` load as they are.
enum InitCommand {
    static let command = Command(spec: CommandSpec(
        name: "init",
        abstract: "Make a workspace: an example collection, an environment and a .gitignore for .reqrun/.",
        discussion: """
            Writes collections/example.json (a commented example: its "description" fields explain each part),
            environments/local.json (baseUrl for a local httpbin) and .gitignore (.reqrun/, reqrun's state and run
            records, stays out of version control) in DIR, made when missing, then prints the next commands to
            try. An existing file is never overwritten: when collections/example.json or environments/local.json
            exists, nothing is written (exit 2); an existing .gitignore gets the line .reqrun/ appended unless it
            already ignores the folder (a .gitignore that is a symbolic link or not a regular file: nothing is
            written, exit 2).
            """,
        positional: .init(name: "DIR", help: "The workspace folder (default: the current folder).", repeating: false, optional: true,
                          completion: .directories),
        examples: ["reqrun init", "reqrun init api-tests"]
    ), run: run)

    /// The files `init` writes, relative to DIR.
    static let collectionFile = "collections/example.json"
    static let environmentFile = "environments/local.json"

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        let given = arguments.positionals.first ?? "."
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let root = URL(fileURLWithPath: given, relativeTo: cwd).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw InputError(file: given, location: nil, reason: "is a file, not a folder")
        }
        // Every file is checked before the first is written: a refusal leaves the folder as it was.
        let existing = [collectionFile, environmentFile].filter {
            var info = stat()
            return lstat(root.appendingPathComponent($0).path, &info) == 0
        }
        if !existing.isEmpty {
            let names = existing.map { display(given, $0) }.joined(separator: " and ")
            throw InputError(file: names, location: nil, reason: "already exist\(existing.count == 1 ? "s" : ""); reqrun init never overwrites a file, "
                             + "so nothing was written (move \(existing.count == 1 ? "it" : "them") away, or init another folder)")
        }
        let gitignore = root.appendingPathComponent(".gitignore")
        // A cloned folder's .gitignore may be a link out of it (appending would write there) or a FIFO or
        // device (reading would block or never end): only a regular file is read and appended to.
        var info = stat()
        if lstat(gitignore.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            let link = (info.st_mode & S_IFMT) == S_IFLNK
            throw InputError(file: display(given, ".gitignore"), location: nil,
                             reason: (link ? "is a symbolic link; reqrun init neither reads nor writes through one"
                                      : "is not a regular file; reqrun init reads only a regular .gitignore")
                                 + ", so nothing was written (remove it, or init another folder)")
        }
        let ignoreText = (try? String(contentsOf: gitignore, encoding: .utf8))
        let ignoresState = ignoreText.map(ignoresStateFolder) ?? false
        try create(root.appendingPathComponent(collectionFile), exampleCollection)
        try create(root.appendingPathComponent(environmentFile), localEnvironment)
        if ignoreText == nil {
            try create(gitignore, ignoreLines)
        } else if !ignoresState {
            try append(ignoreLines, to: gitignore, afterNewline: !(ignoreText!.isEmpty || ignoreText!.hasSuffix("\n")))
        }
        terminal.line("Made a workspace in \(Terminal.sanitized(root.path)):")
        terminal.line("  \(collectionFile)   an example collection (its \"description\" fields explain it)")
        terminal.line("  \(environmentFile)    baseUrl for a local httpbin (--env local)")
        terminal.line("  .gitignore                 \(ignoreText == nil ? "" : ignoresState ? "already " : "now also ")keeps .reqrun/ (state, run records) out of version control")
        terminal.line()
        terminal.line(given == "." ? "Next, try:" : "Next, in \(Terminal.sanitized(given)), try:")
        for (command, what) in nextCommands {
            terminal.line("  " + Terminal.padded(command, 50) + " " + terminal.styled(what, .dim))
        }
        return .success
    }

    /// The commands `init` suggests, with what each shows.
    static let nextCommands = [
        ("reqrun list --all", "the collection's groups and requests"),
        ("reqrun run Example", "send them to https://httpbin.org and check the responses"),
        ("reqrun run --all --report junit=reqrun-junit.xml", "what a CI job runs: exit 0 only when every check passed"),
    ]

    private static func display(_ given: String, _ file: String) -> String {
        given == "." ? file : (given.hasSuffix("/") ? given : given + "/") + file
    }

    /// Whether a `.gitignore` already has a line that ignores `.reqrun/` at the top.
    static func ignoresStateFolder(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { [".reqrun", ".reqrun/", "/.reqrun", "/.reqrun/"].contains($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Creates `url` with `text` (mode 0644), its folder when missing; `O_EXCL`, so a file that appeared
    /// since the check is not replaced either.
    /// - Throws: `FileError` naming the file.
    private static func create(_ url: URL, _ text: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: url.path, operation: "create", errno: errno) }
        try write(text, fd, url)
    }

    private static func append(_ text: String, to url: URL, afterNewline: Bool) throws {
        let fd = open(url.path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: url.path, operation: "open", errno: errno) }
        try write((afterNewline ? "\n" : "") + text, fd, url)
    }

    private static func write(_ text: String, _ fd: Int32, _ url: URL) throws {
        defer { close(fd) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0, errno != EINTR { throw FileError(path: url.path, operation: "write", errno: errno) }
            offset += max(n, 0)
        }
    }

    static let ignoreLines = "# reqrun's saved state, lock and run records (see docs/workspace.md)\n.reqrun/\n"

    static let localEnvironment = """
        {
          "baseUrl": "http://127.0.0.1:8080"
        }

        """

    /// The example collection: every field reqrun reads, explained by `description` fields (which the
    /// decoder accepts everywhere and ignores: JSON has no comments).
    static let exampleCollection = """
        {
          "name": "Example",
          "description": "A collection made by 'reqrun init'. Every *.json file in collections/ is one; each holds groups of requests. 'description' fields, like this one, are comments: reqrun ignores them. The format is in docs/collection-format.md.",
          "variables": {
            "baseUrl": "https://httpbin.org"
          },
          "groups": [
            {
              "name": "httpbin",
              "description": "A group. 'reqrun expand httpbin' opens it and 'reqrun run --expanded' sends the requests of open groups; 'reqrun run httpbin' sends them whatever is open.",
              "requests": [
                {
                  "name": "get",
                  "description": "{{baseUrl}} is a variable: the collection's value above, the environment's (--env local, from environments/local.json) or --var baseUrl=URL, the last winning.",
                  "method": "GET",
                  "url": "{{baseUrl}}/get",
                  "headers": [{ "name": "Accept", "value": "application/json" }],
                  "expect": [
                    { "status": 200 },
                    { "header": "Content-Type", "contains": "json" }
                  ]
                },
                {
                  "name": "post",
                  "description": "A JSON body; expectations on the response's JSON (docs/expectations.md); a capture that later requests of the run can use as {{user}}.",
                  "method": "POST",
                  "url": "{{baseUrl}}/post",
                  "body": { "user": "ada", "count": 1 },
                  "expect": [
                    { "status": "2xx" },
                    { "json": "$.json.user", "equals": "ada" },
                    "$.json.count == 1"
                  ],
                  "capture": [
                    { "var": "user", "json": "$.json.user" }
                  ]
                },
                {
                  "name": "echo the capture",
                  "method": "GET",
                  "url": "{{baseUrl}}/anything?user={{user}}",
                  "expect": [
                    { "json": "$.args.user", "equals": "ada" }
                  ]
                }
              ]
            }
          ]
        }

        """
}
