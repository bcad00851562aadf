import Foundation
import ReqRunKit

/// The options that say how a request is sent (limits, redirects, retries, cookies, TLS, proxy, HTTP
/// version), shared by `run` and `send`: one list for parsing and help, one parser.
enum TransferOptions {
    static let specs: [CommandSpec.Option] = [
        .init(name: "--timeout", valueName: "SECONDS", help: "Limit for each whole request (default: 30; 0: none)."),
        .init(name: "--connect-timeout", valueName: "SECONDS", help: "Limit for connecting (default: 10)."),
        .init(name: "--max-size", valueName: "BYTES", help: "Limit for each response body once decoded; K, M, G suffixes (default: 1G; 0: none)."),
        .init(name: "--no-follow", valueName: nil, help: "Do not follow redirects."),
        .init(name: "--max-redirs", valueName: "N", help: "Follow at most N redirects per request (default: 10)."),
        .init(name: "--location-trusted", valueName: nil, help: "Send credentials to other hosts on redirects too."),
        .init(name: "--retry", valueName: "N", help: "Send a request up to N more times after a transport error or a 502/503/504."),
        .init(name: "--cookie-jar", valueName: "FILE", help: "Load cookies from FILE (Netscape format, or Newman's JSON) and save them there after the run."),
        .init(name: "--export-cookie-jar", valueName: "FILE", help: "After the run, write its cookies to FILE as Newman does (tough-cookie JSON)."),
        .init(name: "--insecure", valueName: nil, help: "Do not verify TLS certificates (like curl -k).", short: "-k"),
        .init(name: "--cacert", valueName: "FILE", help: "Verify TLS servers with the CA certificates in FILE (PEM)."),
        .init(name: "--cert", valueName: "FILE", help: "TLS client certificate (PEM)."),
        .init(name: "--key", valueName: "FILE", help: "TLS client key (PEM)."),
        .init(name: "--ssl-client-passphrase", valueName: "PASS", help: "Passphrase of an encrypted --key (a secret: masked; see --ssl-client-passphrase-file)."),
        .init(name: "--ssl-client-passphrase-file", valueName: "FILE", help: "Read the --key passphrase from the first line of FILE, off the command line."),
        .init(name: "--ssl-client-cert-list", valueName: "FILE", help: "Client certificates by URL (Newman's JSON list); the first match wins over --cert/--key."),
        .init(name: "--proxy", valueName: "URL", help: "Send every request through this proxy (default: http_proxy, https_proxy, no_proxy)."),
        .init(name: "--http1.1", valueName: nil, help: "Use HTTP/1.1 only."),
        .init(name: "--http2", valueName: nil, help: "Use HTTP/2 (over TLS; with prior knowledge over plain HTTP)."),
    ]

    /// What the options above set.
    struct Settings {
        var options: ExecutorOptions
        var redirects: RedirectPolicy
        var retries: Int
        /// Absolute paths to write the run's cookies to in Newman's format after it (`CookieJarExport`).
        var newmanCookieJars: [String] = []
    }

    /// Reads the options above from `arguments`; file paths are made absolute from the current folder.
    /// - Throws: `UsageError` (for `spec`) for a malformed value or options that exclude each other;
    ///   `InputError` for a `--cookie-jar` that is not a cookie jar (`CookieJarCheck`); `UsageError` for one
    ///   that is reqrun's own file (`ReportRequest.refuseOwnFile`); those of `ClientCertificateOptions.parse`.
    static func parse(_ arguments: ParsedArguments, _ spec: CommandSpec) throws -> Settings {
        try ReportRequest.refuseOwnFiles(["--cookie-jar", "--export-cookie-jar"], arguments, command: spec)
        if let jar = arguments.value("--cookie-jar") { try CookieJarCheck.check(jar) }
        if let jar = arguments.value("--export-cookie-jar") { try CookieJarCheck.checkWritable(jar, option: "--export-cookie-jar") }
        if arguments.flag("--http1.1"), arguments.flag("--http2") {
            throw UsageError(message: "give only one of --http1.1 and --http2", command: spec)
        }
        if arguments.flag("--no-follow"), arguments.value("--max-redirs") != nil {
            throw UsageError(message: "give only one of --no-follow and --max-redirs", command: spec)
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let path = { (option: String) in arguments.value(option).map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL.path } }
        var options = ExecutorOptions(
            timeoutMilliseconds: try milliseconds(arguments.value("--timeout"), option: "--timeout", default: 30_000, spec),
            connectTimeoutMilliseconds: try milliseconds(arguments.value("--connect-timeout"), option: "--connect-timeout",
                                                         default: 10_000, spec),
            httpVersion: arguments.flag("--http1.1") ? .http1_1 : arguments.flag("--http2") ? .http2 : .automatic,
            insecure: arguments.flag("--insecure"), caFile: path("--cacert"), clientCertificate: path("--cert"),
            clientKey: path("--key"), proxy: arguments.value("--proxy"), cookieJarFile: path("--cookie-jar").map(UserFile.pathForRenamingWriter))
        try ClientCertificateOptions.parse(arguments, spec, into: &options)
        let newmanCookieJars = try CookieJarExport.prepare(jar: path("--cookie-jar"), written: arguments.value("--cookie-jar"),
                                                           export: path("--export-cookie-jar"), into: &options)
        if let size = arguments.value("--max-size") { options.maxBodySize = try byteCount(size, option: "--max-size", spec) }
        let redirects = RedirectPolicy(follow: !arguments.flag("--no-follow"),
                                       maximum: try count(arguments.value("--max-redirs"), option: "--max-redirs", spec) ?? 10,
                                       trustLocation: arguments.flag("--location-trusted"))
        return Settings(options: options, redirects: redirects, retries: try count(arguments.value("--retry"), option: "--retry", spec) ?? 0,
                        newmanCookieJars: newmanCookieJars)
    }

    /// A whole number of 0 or more.
    static func count(_ text: String?, option: String, _ spec: CommandSpec) throws(UsageError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw UsageError(message: "\(option) expects a whole number of 0 or more, got '\(text)'", command: spec)
        }
        return value
    }

    /// A number of bytes: digits with an optional suffix K, M or G (either case; 1024, 1024², 1024³), as curl's
    /// `--max-filesize` takes them.
    static func byteCount(_ text: String, option: String, _ spec: CommandSpec) throws(UsageError) -> Int {
        let units: [Character: Int] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.lowercased())] }
        let digits = unit == nil ? text[...] : text.dropLast()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = Int(digits),
              case let (bytes, overflow) = number.multipliedReportingOverflow(by: unit ?? 1), !overflow else {
            throw UsageError(message: "\(option) expects a number of bytes (with K, M or G for KiB, MiB, GiB), got '\(text)'", command: spec)
        }
        return bytes
    }

    /// Seconds (fractions allowed) as milliseconds.
    static func milliseconds(_ text: String?, option: String, default value: Int, _ spec: CommandSpec) throws(UsageError) -> Int {
        guard let text else { return value }
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite, seconds < 1e9 else {
            throw UsageError(message: "\(option) expects a number of seconds, got '\(text)'", command: spec)
        }
        // A positive limit never rounds down to 0, which libcurl reads as "no limit".
        return seconds > 0 ? max(1, Int((seconds * 1000).rounded())) : 0
    }
}
