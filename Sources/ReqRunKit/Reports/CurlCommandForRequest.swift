extension CurlCommand {
    /// The shell-quoted curl command that sends what `reqrun run` would send for `reference` (variables
    /// resolved with `configuration`'s environment and `--var` values, auth applied, the configuration's
    /// executor options), secrets masked as `****` unless `configuration.showSecrets`. `show --curl` and the
    /// UI's `c` print it. For OAuth 1.0a, Hawk and OAuth 2.0 a `# ` comment line comes first and says what the
    /// command cannot do as `run` does (fresh nonces; the token request, whose token a placeholder stands for).
    /// - Returns: the command line, or why there is none: the request cannot be built (undefined variable…),
    ///   or it is a WebSocket request, which the curl of Debian 12 (7.88) cannot send.
    public static func commandLine(for reference: RequestReference, configuration: RunConfiguration) -> Result<String, Refusal> {
        let scope = Runner.scope(for: reference, configuration, captured: VariableLayer.captures())
        switch RequestPreparation.prepare(reference.request, scope: scope, auth: reference.effectiveAuth) {
        case .failure(let failure):
            // The message may quote the URL, user information included (an invalid port).
            let masker = SecretMasker(values: Runner.secretsOfUnprepared(reference.request, scope), enabled: !configuration.showSecrets)
            return .failure(.preparation(masker.mask(failure.description), requestName: masker.mask(reference.request.name)))
        case .success(let prepared) where prepared.isWebSocket:
            return .failure(.webSocket)
        case .success(var prepared):
            let masker = SecretMasker(values: scope.secretValues() + prepared.secrets + configuration.options.clientCertificatePassphrases,
                                      enabled: !configuration.showSecrets)
            prepared.headers = masker.mask(prepared.headers)
            // Masked before quoting, which can change a secret's spelling (`'\''`, `$'\x1b'`); the quoted
            // command has no raw control character left to escape (`shellQuoted`).
            let command = commandLine(arguments(prepared, options: configuration.options, redirects: configuration.redirects).map(masker.mask))
            // Auth that reqrun computes while running: a comment line says what the command does otherwise.
            return .success((ComputedAuth.curlCaveats(reference.effectiveAuth) + [command]).joined(separator: "\n"))
        }
    }
}

extension CurlCommand {
    /// Why a request has no curl command line; `description` follows the request's name for `webSocket`
    /// (`'live' is a WebSocket request…`), a "cannot build" clause for `preparation`.
    public enum Refusal: Error, Sendable, CustomStringConvertible {
        /// The request cannot be built: why, and the request's name, both with secrets masked.
        case preparation(String, requestName: String)
        /// curl 7.88 has no WebSocket support: a command line would not do what `run` does.
        case webSocket

        public var description: String {
            switch self {
            case .preparation(let message, _): return message
            case .webSocket: return "is a WebSocket request, which has no curl command line (this curl does not speak WebSocket); 'reqrun run' sends it"
            }
        }
    }
}
