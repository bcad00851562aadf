import Foundation

/// An equivalent `curl` command line for one prepared request, so a user can reproduce it outside reqrun
/// (`reqrun show --curl REQUEST`).
public enum CurlCommand {
    /// The arguments after `curl`, unquoted.
    public static func arguments(_ request: PreparedRequest, options: ExecutorOptions, redirects: RedirectPolicy) -> [String] {
        var args: [String] = []
        switch (request.method, request.body) {
        case ("GET", nil): break
        case ("HEAD", _): args.append("--head")
        default: args += ["--request", request.method]
        }
        args.append(request.url)
        for header in request.headers {
            // `Name;` is curl's way to send a field with an empty value.
            args += ["--header", header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"]
        }
        if !request.headers.contains(named: "user-agent") {
            args += ["--user-agent", options.userAgent]
        }
        switch request.body {
        case .bytes(let bytes)?:
            args += ["--data-binary", String(decoding: bytes, as: UTF8.self)]
        case .file(let path)?:
            args += ["--data-binary", "@\(path)"]
        case .multipart(let parts)?:
            for part in parts {
                var value: String
                switch part.content {
                case .text(let text): value = "\(part.name)=\(text)"
                case .file(let path): value = "\(part.name)=@\(path)"
                }
                if let type = part.contentType { value += ";type=\(type)" }
                if let fileName = part.fileName { value += ";filename=\(fileName)" }
                // --form-string takes a text value literally (--form would read "@x" or "<x" as a file).
                if case .text = part.content { args += ["--form-string", value] } else { args += ["--form", value] }
            }
        case nil:
            break
        }
        switch request.transferAuth {
        case .digest(let username, let password)?: args += ["--digest", "--user", "\(username):\(password)"]
        case .ntlm(let username, let password)?: args += ["--ntlm", "--user", "\(username):\(password)"]
        case .awsSigV4(let accessKey, let secretKey, let region, let service)?:
            args += ["--aws-sigv4", "aws:amz:\(region):\(service)", "--user", "\(accessKey):\(secretKey)"]
        case nil: break
        }
        if redirects.follow {
            args += ["--location", "--max-redirs", String(redirects.maximum)]
            if redirects.trustLocation { args.append("--location-trusted") }
        }
        if options.decodeContent { args.append("--compressed") }
        let timeout = request.timeoutMilliseconds ?? options.timeoutMilliseconds
        if timeout > 0 { args += ["--max-time", seconds(timeout)] }
        args += ["--connect-timeout", seconds(options.connectTimeoutMilliseconds)]
        switch options.httpVersion {
        case .automatic: break
        case .http1_1: args.append("--http1.1")
        case .http2: args.append(request.url.lowercased().hasPrefix("http://") ? "--http2-prior-knowledge" : "--http2")
        }
        if options.insecure { args.append("--insecure") }
        if let caFile = options.caFile { args += ["--cacert", caFile] }
        if let client = options.clientCertificate(for: request.url) {
            if let pkcs12 = client.pkcs12 { args += ["--cert", pkcs12, "--cert-type", "P12"] }
            if let certificate = client.certificate, client.pkcs12 == nil { args += ["--cert", certificate] }
            if let key = client.key, client.pkcs12 == nil { args += ["--key", key] }
            // A secret: the callers mask it with the rest (`clientCertificatePassphrases`).
            if let passphrase = client.passphrase { args += ["--pass", passphrase] }
        }
        if let proxy = options.proxy { args += ["--proxy", proxy] }
        if let jar = options.cookieJarFile { args += ["--cookie", jar, "--cookie-jar", jar] }
        args += ["--proto", "=http,https", "--proto-redir", "=http,https"]
        return args
    }

    /// The whole command, each argument quoted for a POSIX shell.
    public static func render(_ request: PreparedRequest, options: ExecutorOptions, redirects: RedirectPolicy) -> String {
        commandLine(arguments(request, options: options, redirects: redirects))
    }

    /// `curl` followed by `arguments`, each quoted with `shellQuoted` (for a caller that changes the
    /// arguments first, e.g. masks secrets in each before quoting changes their spelling).
    public static func commandLine(_ arguments: [String]) -> String {
        (["curl"] + arguments.map(shellQuoted)).joined(separator: " ")
    }

    /// `text` as one shell word: unchanged when it holds only safe characters, else in single quotes with
    /// each `'` written `'\''`. Text with a character that can drive a terminal (`isTerminalControl`: ESC,
    /// BEL, CR, C1 controls, bidirectional overrides) is written in bash's ANSI-C quoting instead, `$'…'`
    /// (also zsh and ksh93, and POSIX.1-2024 sh), with those characters as `\xHH` escapes of their UTF-8
    /// bytes (`\n`, `\t`, `\r` by name), so the printed command shows no raw control byte and pastes back
    /// into the shell as the same bytes.
    public static func shellQuoted(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { c in
            switch c {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", ":", "@", "=", ",", "+", "%": return true
            default: return false
            }
        }
        if safe && !text.isEmpty { return text }
        guard text.unicodeScalars.contains(where: \.isTerminalControl) else {
            return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var out = "$'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.isTerminalControl:
                for byte in String(scalar).utf8 { out += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16) }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }

    private static func seconds(_ milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? String(milliseconds / 1000) : String(Double(milliseconds) / 1000)
    }
}
