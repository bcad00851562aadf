import Foundation
import ReqRunKit

/// One `--report KIND=FILE` option.
struct ReportRequest {
    enum Kind: String, CaseIterable {
        case junit, json, har, html
        case newmanJSON = "newman-json"

        var fileExtension: String { self == .junit ? "xml" : self == .newmanJSON ? "json" : rawValue }
    }

    var kind: Kind
    /// The file as given (relative to the current folder).
    var path: String

    /// - Parameter ownFile: reqrun's own file a path would write (`Workspace.ownFile`), nil for none; the
    ///   hint for a path ending in `/` never suggests one (`.reqrun/runs/` → `report.xml`, not
    ///   `.reqrun/runs/report.xml`, which `refuseOwnFile` would refuse next).
    /// - Parameter command: the command whose usage an error shows (`run` or `merge`).
    static func parse(_ text: String, command: CommandSpec = RunCommand.command.spec,
                      ownFile: (String) -> String? = { _ in nil }) throws(UsageError) -> ReportRequest {
        guard let equals = text.firstIndex(of: "="), let kind = Kind(rawValue: String(text[..<equals])),
              text.index(after: equals) < text.endIndex else {
            throw UsageError(message: "--report expects KIND=FILE with KIND one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'",
                             command: command)
        }
        let path = String(text[text.index(after: equals)...])
        // `out/` would otherwise become a file named `out` (the URL drops the slash).
        guard !path.hasSuffix("/") else {
            let file = "report.\(kind.fileExtension)"
            guard let own = ownFile(path + file) else {
                throw UsageError(message: "--report \(kind.rawValue)=\(path) names a folder; give a file name, e.g. \(kind.rawValue)=\(path)\(file)",
                                 command: command)
            }
            let folder = own.hasSuffix("/" + file) ? String(own.dropLast(file.count + 1)) : own
            let example = ownFile(file) == nil ? ", e.g. \(kind.rawValue)=\(file)" : ""
            throw UsageError(message: "--report \(kind.rawValue)=\(path) names a folder of reqrun's own (\(folder)); give a file name elsewhere\(example)",
                             command: command)
        }
        return ReportRequest(kind: kind, path: path)
    }

    /// Every `--report` option of `arguments`; at most one to standard output.
    static func parseAll(_ arguments: ParsedArguments, command: CommandSpec) throws(UsageError) -> [ReportRequest] {
        var reports: [ReportRequest] = []
        let workspace = try? WorkspaceContext.locate(arguments)
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        for text in arguments.all("--report") {
            reports.append(try parse(text, command: command, ownFile: { workspace?.ownFile($0, relativeTo: cwd) }))
        }
        guard reports.filter(\.toStandardOutput).count <= 1 else {
            throw UsageError(message: "only one --report can go to standard output (-)", command: command)
        }
        // A report never replaces reqrun's own state, lock, captures or run records.
        for report in reports where !report.toStandardOutput {
            try refuseOwnFile(report.path, option: "--report \(report.kind.rawValue)=", arguments, command: command)
        }
        return reports
    }

    /// Refuses a file the user named for reqrun to write (`--report`, `--export-environment`,
    /// `--export-globals`, `--cookie-jar`) when it is one of reqrun's own files in the workspace's `.reqrun/`
    /// (`Workspace.ownFile`: the state, the lock, the captures, a run record), before anything is sent.
    /// - Throws: `UsageError` (exit 64) naming the option and the own file.
    static func refuseOwnFile(_ path: String, option: String, _ arguments: ParsedArguments, command: CommandSpec) throws(UsageError) {
        guard let workspace = try? WorkspaceContext.locate(arguments) else { return }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        guard let own = workspace.ownFile(path, relativeTo: cwd) else { return }
        let separator = option.hasSuffix("=") ? "" : " "
        throw UsageError(message: "\(option)\(separator)\(Terminal.sanitized(path)) would overwrite reqrun's own \(Terminal.sanitized(own)); "
                         + "write it elsewhere", command: command)
    }

    /// `refuseOwnFile` for each of `options` given in `arguments`.
    static func refuseOwnFiles(_ options: [String], _ arguments: ParsedArguments, command: CommandSpec) throws(UsageError) {
        for option in options { if let path = arguments.value(option) { try refuseOwnFile(path, option: option, arguments, command: command) } }
    }

    /// Writes each report of `record` (`run`, `merge`), saying where on `terminal`; one that fails is an
    /// `error:` line and does not cost the others (a CI job keeps what it can).
    /// - Returns: whether every report was written.
    static func writeAll(_ reports: [ReportRequest], _ record: RecordReader, _ terminal: Terminal, _ standard: Terminal) -> Bool {
        var written = true
        // A report into /dev/stdout or /dev/fd/1 is written through a descriptor of its own: what is
        // buffered for stdout goes first.
        StandardOutput.shared.flush()
        for report in reports {
            do {
                try report.write(record, standard: standard)
                if report.toStandardOutput { continue }
                terminal.line(terminal.styled("\(report.kind.rawValue) report written to \(Terminal.sanitized(report.path))", .dim))
            } catch {
                terminal.error("\(error)")
                written = false
            }
        }
        return written
    }

    /// `-`: the report goes to standard output (and the run's console lines to standard error).
    var toStandardOutput: Bool { path == "-" }

    /// Renders the report from `reader` (a result at a time: constant memory, `RecordSource`) and writes it
    /// by the rule for files the user names (`UserFile`: a regular file is replaced atomically, a device, FIFO
    /// or link written through; mode 0644, reports are meant to be shared), or for `-` to `standard`.
    func write(_ reader: RecordReader, standard: Terminal) throws {
        let render = { (out: ReportOutput) throws in
            switch kind {
            case .junit: try JUnitReport.write(reader, to: out)
            case .har: try HARReport.write(reader, to: out)
            case .html: try HTMLReport.write(reader, to: out)
            case .newmanJSON: try NewmanJSONReport.write(reader, to: out)
            case .json:
                var head = reader.head
                head.format = 1  // one document, format 1's shape (as `show --json`)
                let results = reader.results()
                head.writeJSON(results: results) { out.write(bytes: $0) }
                out.flush()
                if let error = results.error { throw error }
            }
        }
        if toStandardOutput {
            try render(ReportOutput(standard.outBytes))
            return
        }
        try createFolder()
        var failure: (any Error)?
        try UserFile.write(toPath: url.path, mode: 0o644) { output in
            do {
                try render(ReportOutput { output.write($0) })
            } catch {
                failure = error
                output.fail(EIO)
            }
        }
        if let failure { throw failure }
    }

    private var url: URL {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL
    }

    /// Creates the report's folder if missing, as CI jobs often write reports into a fresh `reports/`
    /// folder; `run` calls it before sending anything, so a folder that cannot be made stops it early.
    /// - Throws: `FileError` naming the folder.
    func createFolder() throws(FileError) {
        guard !toStandardOutput else { return }
        // mkdir(2) component by component, so the message gives the system's own reason ("Not a directory"
        // for a file in the way, "No space left on device"…), which FileManager's errors do not carry.
        let folder = url.deletingLastPathComponent().path
        var path = ""
        for component in folder.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0, errno != EEXIST {
                throw FileError(path: folder, operation: "create the report folder", errno: errno)
            }
        }
        var info = stat()
        guard stat(folder, &info) == 0 else { throw FileError(path: folder, operation: "create the report folder", errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw FileError(path: folder, operation: "create the report folder", errno: ENOTDIR) }
    }
}
